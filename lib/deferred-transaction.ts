// A transaction opened only when its holder first asks for it: for an idempotent endpoint whose handler does slow
// work that writes nothing (a paid call to an identity provider) before it writes, so that work holds no pooled
// connection and no transaction. The transaction stays open from `open()` until the holder's work ends, then
// commits (or rolls back if the work threw); `whenCommitted` hooks run as under `transact`.
import { transact, type TransactionKind } from "./db";
import type { Prisma } from "./generated/prisma/client";

export class DeferredTransaction {
  private opened: Promise<Prisma.TransactionClient> | null = null;
  private finished: Promise<void> | null = null;
  private settle: ((outcome: { committed: true } | { committed: false; error: unknown }) => void) | null = null;

  /** The transaction, opened on the first call; every call answers the same one. */
  open(): Promise<Prisma.TransactionClient> {
    this.opened ??= new Promise<Prisma.TransactionClient>((resolve, reject) => {
      const workEnded = new Promise<void>((done, failed) => {
        this.settle = (outcome) => (outcome.committed ? done() : failed(outcome.error));
      });
      // Heard by the transaction below; if it never began (no connection), nobody else waits on it.
      workEnded.catch(() => undefined);
      this.finished = transact(async (transaction) => {
        resolve(transaction);
        await workEnded;
      });
      // Opening failed (no connection): the caller of open() hears it; commit() hears it again.
      this.finished.catch(reject);
    });
    return this.opened;
  }

  /** Commits what was written; nothing to do if it was never opened. */
  async commit(): Promise<void> {
    if (!this.finished) return;
    this.settle?.({ committed: true });
    await this.finished;
  }

  /** Rolls back what was written, for the work's `error`; nothing to do if it was never opened. */
  async rollBack(error: unknown): Promise<void> {
    if (!this.finished) return;
    this.settle?.({ committed: false, error });
    await this.finished.catch(() => undefined);
  }
}

/** Runs `work` with a transaction it opens when it first writes (see `DeferredTransaction`). */
export async function withDeferredTransaction<R>(work: (transaction: DeferredTransaction) => Promise<R>): Promise<R> {
  const transaction = new DeferredTransaction();
  let result: R;
  try {
    result = await work(transaction);
  } catch (error) {
    await transaction.rollBack(error);
    throw error;
  }
  await transaction.commit();
  return result;
}

/** The idempotent endpoints' kind of it (lib/http/idempotent-handler.ts): the Idempotency-Key's outcome is written in it too. */
export const deferredTransaction: TransactionKind<DeferredTransaction> = {
  run: withDeferredTransaction,
  write: async (transaction, statement) => {
    await (await transaction.open()).$executeRaw(statement);
  },
};
