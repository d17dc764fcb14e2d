// What the health check reports about background work: how many rows are due, summed over the sweeps of the
// catalogue it is given (submitted applications awaiting a decision, open applications past expiry, webhook
// deliveries due). Postgres holds that truth whichever driver runs the work, so the count is read there; the
// queue is reachable whenever the database is.
import type { BackgroundOperation } from "../background-operation";

export interface QueueStatus {
  reachable: boolean;
  pending: number;
}

export async function readQueueStatus(operations: readonly BackgroundOperation[]): Promise<QueueStatus> {
  const counts = await Promise.all(operations.flatMap((operation) => (operation.kind === "rows" ? [operation.countDue()] : [])));
  return { reachable: true, pending: counts.reduce((sum, count) => sum + count, 0) };
}
