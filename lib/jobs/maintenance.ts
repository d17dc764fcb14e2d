// Periodic housekeeping, run hourly by the background driver. Deletes are idempotent, so several processes
// running them is harmless.
import { pruneExpiredEvents } from "../events/service";
import { pruneExpiredIdempotencyKeys } from "../idempotency/idempotency";

export async function runMaintenance(): Promise<{ idempotencyKeysPruned: number; eventsPruned: number }> {
  return { idempotencyKeysPruned: await pruneExpiredIdempotencyKeys(), eventsPruned: await pruneExpiredEvents() };
}
