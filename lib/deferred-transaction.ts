// A transaction opened only when its holder first asks for it: for an idempotent endpoint whose handler does slow
// work that writes nothing (a paid call to an identity provider) before it writes, so that work holds no pooled
// connection and no transaction. The transaction stays open from `open()` until the holder's work ends, then
// commits (or rolls back if the work threw); `whenCommitted` hooks run as under `transact`.
import { transact, type TransactionKind } from "./db";
import type { Prisma } from "./generated/prisma/client";

type Settle = (error?: unknown) => void;

export class DeferredTransaction {
  private opened: Promise<Prisma.TransactionClient> | null = null;
  private finished: Promise<void> | null = null;
  private settle: Settle | null = null;

  /** The transaction, opened on the first call; every call answers the same one. */
  open(): Promise<Prisma.TransactionClient> {
    this.opened ??= new Promise<Prisma.TransactionClient>((resolve, reject) => {
      const workEnded = new Promise<void>((done, failed) => {
        this.settle = (error) => (error === undefined ? done() : failed(error));
      });
      this.finished = transact(async (transaction) => {
        resolve(transaction);
        await workEnded;
      });
      // Opening failed (no connection): the caller of open() hears it; end() hears it again.
      this.finished.catch(reject);
    });
    return this.opened;
  }

  /** Commits what was written (or, given the work's error, rolls it back); nothing to do if never opened. */
  async end(error?: unknown): Promise<void> {
    if (!this.finished) return;
    this.settle?.(error ?? undefined);
    if (error === undefined) return this.finished;
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
    await transaction.end(error);
    throw error;
  }
  await transaction.end();
  return result;
}

/** The idempotent endpoints' kind of it (lib/http/idempotent-handler.ts): the Idempotency-Key's outcome is written in it too. */
export const deferredTransaction: TransactionKind<DeferredTransaction> = {
  run: withDeferredTransaction,
  write: async (transaction, statement) => {
    await (await transaction.open()).$executeRaw(statement);
  },
};
