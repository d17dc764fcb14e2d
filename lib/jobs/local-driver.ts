// The local driver: runs the background operations in process when Inngest is not configured. A scheduler of
// our own idempotent operations, not an imitation of Inngest: an immediate run after commit, and sweeps that
// pick up anything due (a submission whose immediate run was lost to a restart, an application past expiry,
// a webhook delivery or retry, a notification to email).
import { expireApplication, findExpiredApplications } from "../applications/service";
import { decideSubmittedApplication, findApplicationsAwaitingDecision } from "../decisions/service";
import { sendPendingNotifications } from "../notifications/notifications";
import { deliverDueWebhooks } from "../webhooks/deliver";
import { describeError, log } from "../log";
import type { BackgroundDriver } from "./background";
import { runMaintenance } from "./maintenance";

const SWEEP_BATCH = 100;

export const LOCAL_SCHEDULE = {
  decisioningSweepMs: 2_000,
  deliverySweepMs: 1_000,
  expirySweepMs: 30_000,
  notificationSweepMs: 60_000,
  maintenanceMs: 60 * 60_000,
};

export interface DueWorkResult {
  decided: number;
  expired: number;
  deliveriesAttempted: number;
}

/** One pass over everything due: what the sweeps run, and what tests call directly. */
export async function runDueWork(): Promise<DueWorkResult> {
  let decided = 0;
  for (const id of await findApplicationsAwaitingDecision(SWEEP_BATCH)) {
    if ((await decideSubmittedApplication(id)) === "decided") decided += 1;
  }
  let expired = 0;
  for (const id of await findExpiredApplications(SWEEP_BATCH)) {
    if (await expireApplication(id)) expired += 1;
  }
  const deliveriesAttempted = await deliverDueWebhooks();
  return { decided, expired, deliveriesAttempted };
}

/** Sends deliveries until none is due (a backlog drains in one sweep rather than 50 a second). */
async function drainDueDeliveries(): Promise<void> {
  while ((await deliverDueWebhooks()) > 0);
}

function logFailure(what: string) {
  return (error: unknown) => log.warn(`${what} failed`, describeError(error));
}

export class LocalDriver implements BackgroundDriver {
  readonly name = "local" as const;
  private timers: NodeJS.Timeout[] = [];

  applicationSubmitted(applicationId: string): void {
    setImmediate(() => {
      decideSubmittedApplication(applicationId).catch(logFailure("decisioning"));
    });
  }

  start(): void {
    if (this.timers.length > 0) return;
    const every = (ms: number, work: () => Promise<unknown>, what: string) => {
      let running = false;
      const timer = setInterval(() => {
        if (running) return;
        running = true;
        work().catch(logFailure(what)).finally(() => {
          running = false;
        });
      }, ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(LOCAL_SCHEDULE.decisioningSweepMs, async () => {
      for (const id of await findApplicationsAwaitingDecision(SWEEP_BATCH)) await decideSubmittedApplication(id);
    }, "decisioning sweep");
    every(LOCAL_SCHEDULE.expirySweepMs, async () => {
      for (const id of await findExpiredApplications(SWEEP_BATCH)) await expireApplication(id);
    }, "expiry sweep");
    every(LOCAL_SCHEDULE.deliverySweepMs, () => drainDueDeliveries(), "webhook delivery sweep");
    every(LOCAL_SCHEDULE.notificationSweepMs, () => sendPendingNotifications(), "notification sweep");
    every(LOCAL_SCHEDULE.maintenanceMs, async () => log.info("maintenance", await runMaintenance()), "maintenance");
  }

  stop(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
  }
}
