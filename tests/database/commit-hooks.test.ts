// After-commit hooks (lib/db.ts): work a service queues inside a transaction, whoever opened it, runs once the
// transaction has committed and sees its writes; a transaction that rolls back runs none.
import { expect, it } from "vitest";
import { clock } from "@/lib/clock";
import { db, inTransaction, transact, whenCommitted } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { newId } from "@/lib/ids";

const snapshotOf = (anonymousId: string) => db().consentSnapshot.findFirst({ where: { anonymousId } });

function writeSnapshot(transaction: Prisma.TransactionClient, anonymousId: string) {
  return transaction.consentSnapshot.create({
    data: { id: newId("consentSnapshot"), anonymousId, analytics: false, marketing: false, policyVersion: "2026-11-01", createdAt: clock.now() },
  });
}

it("runs a hook after the commit, where the transaction's writes are visible", async () => {
  const anonymousId = `hooked-${newId("request")}`;
  const seen: unknown[] = [];
  let hook: Promise<unknown> | undefined;
  await transact(async (transaction) => {
    await writeSnapshot(transaction, anonymousId);
    whenCommitted(transaction, () => {
      hook = snapshotOf(anonymousId).then((row) => seen.push(row !== null));
    });
    seen.push("work done");
  });
  await hook;
  expect(seen).toEqual(["work done", true]);
});

it("runs no hook of a transaction that rolls back", async () => {
  let ran = false;
  await expect(
    transact(async (transaction) => {
      whenCommitted(transaction, () => (ran = true));
      throw new Error("rolled back");
    }),
  ).rejects.toThrow("rolled back");
  expect(ran).toBe(false);
});

it("hands a hook queued through inTransaction on the caller's transaction to the caller's commit", async () => {
  const order: string[] = [];
  await transact(async (transaction) => {
    await inTransaction(transaction, async (same) => {
      whenCommitted(same, () => order.push("hook"));
    });
    order.push("caller still open");
  });
  expect(order).toEqual(["caller still open", "hook"]);
});

it("refuses a transaction it cannot see the commit of", async () => {
  await expect(db().$transaction(async (transaction) => whenCommitted(transaction, () => undefined))).rejects.toThrow(
    "whenCommitted needs a transaction opened by transact() or inTransaction()",
  );
});
