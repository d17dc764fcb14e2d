// What the health check reports about background work: how many rows are due (submitted applications awaiting
// a decision, open applications past expiry, webhook deliveries due). Postgres holds that truth whichever driver runs the work, so
// the count is read there; the queue is reachable whenever the database is.
import { countApplicationsAwaitingDecision } from "../decisions/service";
import { countExpiredApplications } from "../applications/service";
import { countPendingDeliveries } from "../webhooks/deliver";

export interface QueueStatus {
  reachable: boolean;
  pending: number;
}

export async function readQueueStatus(): Promise<QueueStatus> {
  const counts = await Promise.all([countApplicationsAwaitingDecision(), countExpiredApplications(), countPendingDeliveries()]);
  return { reachable: true, pending: counts.reduce((sum, count) => sum + count, 0) };
}
