// Where the background work meets the rest of the process: the catalogue (catalogue.ts) goes to the driver, and a
// committed submission (announced by lib/applications through lib/commit-signals.ts) to its decisioning.
import { onCommitted } from "../commit-signals";
import { backgroundDriver, startBackgroundDriver } from "../jobs/background";
import type { BackgroundDriver } from "../jobs/driver";
import { describeError, log } from "../log";
import { releaseHeldNotificationClaims } from "../notifications/notifications";
import { releaseHeldDeliveryClaims } from "../webhooks/deliver";
import { BACKGROUND_CATALOGUE } from "./catalogue";
import { onBackgroundStop } from "./shutdown";

/** Hands a committed submission to the driver. Never throws: Postgres already holds the truth, and the sweep is the safety net. */
function queueDecisioning(applicationId: string): void {
  backgroundDriver(BACKGROUND_CATALOGUE).then(
    (driver) => driver.applicationSubmitted(applicationId),
    (error: unknown) => log.warn("background driver unavailable", describeError(error)),
  );
}

/** Has each submission that commits in this process decided at once (the server, and the tests' app server). */
export function listenForCommits(): void {
  onCommitted("application.submitted", queueDecisioning);
}

/** Listens for commits and starts the driver's sweeps (instrumentation.ts, once as the server starts). */
export async function startBackgroundWork(): Promise<BackgroundDriver> {
  listenForCommits();
  const driver = await startBackgroundDriver(BACKGROUND_CATALOGUE);
  // A stopping process gives back the webhook attempts and the emails it is making, so another process makes them at
  // once rather than when their claims lapse. Decisioning, expiry and collections hold row locks, which end with the
  // transaction.
  onBackgroundStop(async () => {
    driver.stop();
    const [deliveries, notifications] = await Promise.all([releaseHeldDeliveryClaims(), releaseHeldNotificationClaims()]);
    return deliveries + notifications;
  });
  return driver;
}
