// The one catalogue of background work, composed here from what each domain exports: the operations the drivers
// run (lib/jobs: a cron function each under Inngest, an interval sweep each in process), the retention prunes
// the hourly maintenance runs, the work a sandbox test clock's advance runs as its days pass, and the decisioning
// a submission starts. The domains import neither this module nor lib/jobs; lib/jobs imports no domain. Every
// operation is idempotent, so overlapping runs, retried Inngest steps and several app processes change nothing twice.
import { collectDuePayments, countAccountsDue, findAccountsDue, serviceAccount } from "../accounts/servicing";
import { eraseDuePersonalData } from "../applications/personal-data";
import { countExpiredApplications, expireApplication, expireDueApplications, findExpiredApplications } from "../applications/service";
import { countApplicationsAwaitingDecision, decideSubmittedApplication, findApplicationsAwaitingDecision } from "../decisions/service";
import { pruneExpiredEnquiries } from "../enquiries/service";
import { pruneExpiredEvents } from "../events/service";
import { pruneExpiredIdempotencyKeys } from "../idempotency/idempotency";
import type { BackgroundCatalogue, BackgroundOperation } from "../jobs/operations";
import { pruneExpiredToolCalls } from "../mcp/audit";
import { sendPendingNotifications } from "../notifications/notifications";
import { pruneExpiredLookups } from "../registry/lookup-cache";
import type { DueWork } from "../sandbox-clock/due-work";
import { resumeStalledAdvances } from "../sandbox-clock/service";
import { pruneExpiredSupportSessions } from "../support/chat";
import { attemptDelivery, countPendingDeliveries, findDueDeliveries } from "../webhooks/deliver";
import { disableInsecureWebhookEndpoints } from "../webhooks/insecure-endpoints";

/**
 * The hourly housekeeping, in the order it runs, by what its report calls each count: deletes of rows past their
 * retention (Idempotency-Keys 24 hours, events 30 days, enquiries 90 days, support sessions 30 days after their
 * last message, the partner MCP server's audit rows 395 days, Companies House answers once stale), webhook
 * endpoints whose URL is not https disabled (each under its row lock, so once), and erasure of applicants'
 * personal data past its retention (lib/applications/personal-data.ts). All are idempotent.
 */
const MAINTENANCE = {
  idempotencyKeysPruned: pruneExpiredIdempotencyKeys,
  eventsPruned: pruneExpiredEvents,
  enquiriesPruned: pruneExpiredEnquiries,
  supportSessionsPruned: pruneExpiredSupportSessions,
  mcpToolCallsPruned: pruneExpiredToolCalls,
  registryLookupsPruned: pruneExpiredLookups,
  insecureWebhookEndpointsDisabled: disableInsecureWebhookEndpoints,
  personalDataErased: eraseDuePersonalData,
} satisfies Record<string, () => Promise<number>>;

export type MaintenanceReport = Record<keyof typeof MAINTENANCE, number>;

/** Runs the housekeeping once, one task after another. */
export async function runMaintenance(): Promise<MaintenanceReport> {
  const report: Partial<MaintenanceReport> = {};
  for (const [counts, run] of Object.entries(MAINTENANCE)) report[counts as keyof MaintenanceReport] = await run();
  return report as MaintenanceReport;
}

/** An operation, and what it runs as a sandbox test clock's advance passes each day, if its rows fall due with time. */
type CatalogueOperation = BackgroundOperation & { onTestClock?: DueWork["run"] };

const MINUTE_MS = 60_000;

export const BACKGROUND_OPERATIONS: readonly CatalogueOperation[] = [
  {
    // The safety net behind the immediate run after each submission (an event under Inngest).
    kind: "rows",
    id: "sweep-decisioning",
    cron: "* * * * *",
    localIntervalMs: 2_000,
    claims: "each application FOR UPDATE SKIP LOCKED in the decision's transaction; one held elsewhere is skipped as busy",
    batch: 100,
    steps: { find: "find-awaiting-decision", each: "decide" },
    find: findApplicationsAwaitingDecision,
    run: async (id) => (await decideSubmittedApplication(id)) === "decided",
    counts: "decided",
    countDue: countApplicationsAwaitingDecision,
    concurrency: 1,
    drain: false,
  },
  {
    kind: "rows",
    id: "expire-applications",
    cron: "*/5 * * * *",
    localIntervalMs: 30_000,
    claims: "each application FOR UPDATE SKIP LOCKED in the expiry's transaction; one held elsewhere is skipped",
    batch: 100,
    steps: { find: "find-expired", each: "expire" },
    find: findExpiredApplications,
    run: async (id) => (await expireApplication(id)) !== null,
    counts: "expired",
    countDue: countExpiredApplications,
    concurrency: 1,
    drain: false,
    onTestClock: expireDueApplications,
  },
  {
    // The retry schedule lives in the delivery rows (next_attempt_at), not in either driver.
    kind: "rows",
    id: "deliver-webhooks",
    cron: "* * * * *",
    localIntervalMs: 1_000,
    claims: "each delivery as its attempt starts: a 60 s claim deadline (locked_until), at most 4 in flight per endpoint (under the endpoint's row lock); the batch is found fairly across projects and claims nothing",
    batch: 50,
    steps: { find: "find-due-deliveries", each: "attempt" },
    find: findDueDeliveries,
    run: async (id) => (await attemptDelivery(id)) !== "not_claimed",
    counts: "attempted",
    countDue: countPendingDeliveries,
    concurrency: 8,
    drain: true,
  },
  {
    // Each account's due dates up to today, collected in order (lib/accounts/servicing.ts); a run that finds
    // nothing due does nothing, so the local driver's hourly sweep only catches up after a restart.
    kind: "rows",
    id: "collect-payments",
    cron: "0 6 * * *",
    localIntervalMs: 60 * MINUTE_MS,
    claims: "each account FOR UPDATE SKIP LOCKED in its collection's transaction; next_due_on moves past each due date collected in that transaction",
    batch: 100,
    steps: { find: "find-accounts-due", each: "collect" },
    find: (limit) => findAccountsDue(limit),
    run: async (id) => (await serviceAccount(id)) === "collected",
    counts: "collected",
    countDue: countAccountsDue,
    concurrency: 1,
    drain: false,
    // With what collections bring: settled or failed payments, arrears and the account's status, a company
    // number ending 0009 revoking its mandate (docs/accounts.md, "Collections").
    onTestClock: collectDuePayments,
  },
  {
    kind: "pass",
    id: "send-notifications",
    cron: "*/5 * * * *",
    localIntervalMs: MINUTE_MS,
    claims: "each notification as its email starts: a 15-minute claim deadline (claimed_until), taken FOR UPDATE SKIP LOCKED, then marked sent (or failed); up to 50 a pass",
    step: "send",
    run: async () => ({ sent: await sendPendingNotifications() }),
  },
  {
    kind: "pass",
    id: "maintenance",
    cron: "0 * * * *",
    localIntervalMs: 60 * MINUTE_MS,
    claims: "none needed: deletes of rows past their retention, harmless to repeat",
    step: "prune",
    run: runMaintenance,
  },
  {
    // A sandbox test-clock advance whose process died mid-way (its lease lapsed a minute after its last batch)
    // goes on from the last whole day it did (lib/sandbox-clock/service.ts).
    kind: "pass",
    id: "resume-clock-advances",
    cron: "* * * * *",
    localIntervalMs: 30_000,
    claims: "each clock's lapsed lease, taken over by a conditional update; the advance's batches are idempotent",
    step: "resume",
    run: async () => ({ resumed: await resumeStalledAdvances(TEST_CLOCK_DUE_WORK) }),
  },
];

/**
 * What a sandbox test clock's advance runs at each day it passes (lib/sandbox-clock/service.ts), in the
 * catalogue's order: each operation's `onTestClock`, named by the operation.
 */
export const TEST_CLOCK_DUE_WORK: readonly DueWork[] = BACKGROUND_OPERATIONS.flatMap((operation) =>
  operation.onTestClock ? [{ name: operation.id, run: operation.onTestClock }] : [],
);

export const BACKGROUND_CATALOGUE: BackgroundCatalogue = {
  operations: BACKGROUND_OPERATIONS,
  decideApplication: decideSubmittedApplication,
};
