// The one catalogue of background work, composed here from what each domain exports: the operations the drivers
// run (lib/jobs: a cron function each under Inngest, an interval sweep each in process), the retention prunes the
// hourly maintenance runs, the work a sandbox test clock's advance runs as its days pass, and the decisioning a
// submission starts. The domains import neither this module nor lib/jobs; lib/jobs imports no domain.
import { collectPayments } from "../accounts/background";
import { expireApplications } from "../applications/background";
import { eraseDuePersonalData } from "../applications/personal-data";
import type { BackgroundOperation, DueWork, Pass, RowSweep } from "../background-operation";
import { decideOnItsClock, sweepDecisioning } from "../decisions/background";
import { pruneExpiredEnquiries } from "../enquiries/service";
import { pruneExpiredEvents } from "../events/service";
import { pruneExpiredIdempotencyKeys } from "../idempotency/idempotency";
import type { BackgroundCatalogue } from "../jobs/driver";
import { pruneExpiredToolCalls } from "../mcp/audit";
import { pruneExpiredSignInArtifacts } from "../oidc/artifacts";
import { sendNotifications } from "../notifications/background";
import { pruneExpiredLookups } from "../registry/lookup-cache";
import { payOutRevenueShare } from "../revenue-share/background";
import { resumeClockAdvances } from "../sandbox-clock/background";
import { advanceTestClock } from "../sandbox-clock/service";
import { pruneExpiredSupportSessions } from "../support/chat";
import { pruneExpiredUsage } from "../usage/service";
import { deliverWebhooks } from "../webhooks/background";
import type { Tenant } from "../tenant";
import { disableInsecureWebhookEndpoints } from "../webhooks/insecure-endpoints";

/**
 * The hourly housekeeping, in the order it runs, by what its report calls each count: deletes of rows past their
 * retention (Idempotency-Keys 24 hours, events 30 days, enquiries 90 days, support sessions 30 days after their
 * last message, the partner MCP server's audit rows 395 days, Companies House answers once stale, the sign-in
 * provider's sessions, tickets, codes and tokens a day after they expired, usage counts 90 days), webhook
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
  signInArtifactsPruned: pruneExpiredSignInArtifacts,
  usageDaysPruned: pruneExpiredUsage,
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

const maintenance: Pass = {
  kind: "pass",
  id: "maintenance",
  cron: "0 * * * *",
  localIntervalMs: 60 * 60_000,
  claims: "none needed: deletes of rows past their retention, harmless to repeat",
  step: "prune",
  run: runMaintenance,
};

const ROW_SWEEPS: readonly RowSweep[] = [sweepDecisioning, expireApplications, deliverWebhooks, collectPayments, payOutRevenueShare];

/**
 * What a sandbox test clock's advance runs at each day it passes (lib/sandbox-clock/service.ts), in the
 * catalogue's order: each sweep's `onTestClock`, named by its operation.
 */
const TEST_CLOCK_DUE_WORK: readonly DueWork[] = ROW_SWEEPS.flatMap((sweep) => (sweep.onTestClock ? [{ name: sweep.id, run: sweep.onTestClock }] : []));

/** The test helper's advance of a sandbox clock by `days`, running the catalogue's due work as the days pass. */
export function advanceTestClockRunningDueWork(options: { tenant: Tenant; days: number }) {
  return advanceTestClock({ ...options, dueWork: TEST_CLOCK_DUE_WORK });
}

export const BACKGROUND_OPERATIONS: readonly BackgroundOperation[] = [...ROW_SWEEPS, sendNotifications, maintenance, resumeClockAdvances(TEST_CLOCK_DUE_WORK)];

export const BACKGROUND_CATALOGUE: BackgroundCatalogue = {
  operations: BACKGROUND_OPERATIONS,
  decideApplication: decideOnItsClock,
};
