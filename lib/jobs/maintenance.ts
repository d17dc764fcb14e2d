// Periodic housekeeping in each app process. Deletes are idempotent, so several processes running them is
// harmless. (The background-work driver that arrives with decisioning will take these over.)
import { describeError, log } from "../log";
import { pruneExpiredIdempotencyKeys } from "../idempotency/idempotency";

const EVERY_MS = 60 * 60_000;

export async function runMaintenance(): Promise<{ idempotencyKeysPruned: number }> {
  return { idempotencyKeysPruned: await pruneExpiredIdempotencyKeys() };
}

export function startMaintenance(): void {
  const timer = setInterval(() => {
    runMaintenance().then(
      (result) => log.info("maintenance", result),
      (error: unknown) => log.warn("maintenance failed", describeError(error)),
    );
  }, EVERY_MS);
  timer.unref();
}
