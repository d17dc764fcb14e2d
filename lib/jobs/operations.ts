// The catalogue of background operations: what runs, how often under each driver, and how it claims its rows.
// Both drivers read this one table: inngest/functions.ts makes a cron function of each entry, the local driver
// (local-driver.ts) an interval sweep, and the health check counts the due rows of each sweep. Every operation
// is idempotent, so overlapping runs, retried Inngest steps and several app processes change nothing twice.
import { countAccountsDue, findAccountsDue, serviceAccount } from "../accounts/servicing";
import { countExpiredApplications, expireApplication, findExpiredApplications } from "../applications/service";
import { countApplicationsAwaitingDecision, decideSubmittedApplication, findApplicationsAwaitingDecision } from "../decisions/service";
import { sendPendingNotifications } from "../notifications/notifications";
import { resumeStalledAdvances } from "../sandbox-clock/service";
import { attemptDelivery, countPendingDeliveries, findDueDeliveries } from "../webhooks/deliver";
import { runMaintenance } from "./maintenance";

export type OperationId =
  | "sweep-decisioning"
  | "expire-applications"
  | "deliver-webhooks"
  | "collect-payments"
  | "send-notifications"
  | "maintenance"
  | "resume-clock-advances";

/** What a run did, by what it counts (`{ decided: 3 }`); the Inngest function returns it as the run's output. */
export type OperationReport = Record<string, number>;

interface OperationEntry {
  id: OperationId;
  /** Inngest: the function's cron (UTC). */
  cron: string;
  /** The local driver: milliseconds between sweeps. */
  localIntervalMs: number;
  /** How a run claims the rows it works on, so two runs at once never do one row's work twice. */
  claims: string;
}

/** Due rows found in batches, and the operation run on each: under Inngest, one step per row. */
export interface RowSweep extends OperationEntry {
  kind: "rows";
  /** Rows a run finds at most. */
  batch: number;
  /** Inngest step names: the finding step, and each row's step (`<each>-<row id>`). */
  steps: { find: string; each: string };
  find(limit: number): Promise<string[]>;
  /** Runs the operation on one row; true when it did the work the report counts. */
  run(id: string): Promise<boolean>;
  /** The report's key for the rows the operation did its work on. */
  counts: "decided" | "expired" | "attempted" | "collected";
  /** Rows due now (the health check's queue). */
  countDue(): Promise<number>;
  /** Rows the local driver works on at once; Inngest runs the steps one after another. */
  concurrency: number;
  /**
   * The local driver sweeps again at once while a sweep found rows, so a backlog drains in one go. Only for
   * sweeps that claim what they find: a row skipped as busy would otherwise be found again and again.
   */
  drain: boolean;
}

/** One call that finds and does its own work: under Inngest, one step. */
export interface Pass extends OperationEntry {
  kind: "pass";
  /** The Inngest step name. */
  step: string;
  run(): Promise<OperationReport>;
}

export type BackgroundOperation = RowSweep | Pass;

const MINUTE_MS = 60_000;

export const BACKGROUND_OPERATIONS: readonly BackgroundOperation[] = [
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
    run: async () => ({ resumed: await resumeStalledAdvances() }),
  },
];
