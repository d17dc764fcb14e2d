// The deferred transaction (lib/deferred-transaction.ts): work before its first write holds no pooled
// connection; what it writes commits when the work ends, with its after-commit hooks, or rolls back when the
// work throws.
import { expect, it } from "vitest";
import { clock } from "@/lib/clock";
import { db, sharedPool, whenCommitted } from "@/lib/db";
import { withDeferredTransaction } from "@/lib/deferred-transaction";
import type { Prisma } from "@/lib/generated/prisma/client";
import { newId } from "@/lib/ids";

const snapshotOf = (anonymousId: string) => db().consentSnapshot.findFirst({ where: { anonymousId } });
const connectionsInUse = () => sharedPool().totalCount - sharedPool().idleCount;

function writeSnapshot(transaction: Prisma.TransactionClient, anonymousId: string) {
  return transaction.consentSnapshot.create({
    data: { id: newId("consentSnapshot"), anonymousId, analytics: false, marketing: false, policyVersion: "2026-11-01", createdAt: clock.now() },
  });
}

it("holds no connection until opened, then commits the writes and runs their hooks once the work ends", async () => {
  const anonymousId = `deferred-${newId("request")}`;
  const seen: unknown[] = [];
  const answer = await withDeferredTransaction(async (deferred) => {
    seen.push(connectionsInUse());
    const transaction = await deferred.open();
    expect(await deferred.open()).toBe(transaction);
    await writeSnapshot(transaction, anonymousId);
    whenCommitted(transaction, () => seen.push("committed"));
    seen.push(connectionsInUse(), await snapshotOf(anonymousId));
    return "done";
  });
  expect(answer).toBe("done");
  expect(seen).toEqual([0, 1, null, "committed"]);
  expect(await snapshotOf(anonymousId)).not.toBeNull();
  expect(connectionsInUse()).toBe(0);
});

it("rolls back what was written when the work throws, and answers with the work's error", async () => {
  const anonymousId = `deferred-${newId("request")}`;
  let ran = false;
  await expect(
    withDeferredTransaction(async (deferred) => {
      const transaction = await deferred.open();
      await writeSnapshot(transaction, anonymousId);
      whenCommitted(transaction, () => (ran = true));
      throw new Error("the provider said no");
    }),
  ).rejects.toThrow("the provider said no");
  expect(await snapshotOf(anonymousId)).toBeNull();
  expect(ran).toBe(false);
});

it("opens nothing for work that never writes, whether it ends or throws", async () => {
  expect(await withDeferredTransaction(async () => 42)).toBe(42);
  await expect(withDeferredTransaction(async () => Promise.reject(new Error("refused before writing")))).rejects.toThrow("refused before writing");
  expect(connectionsInUse()).toBe(0);
});
