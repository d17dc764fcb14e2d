// The shape of background work, shared by the domains that export it, the catalogue that lists it
// (lib/background/catalogue.ts) and the scheduler that runs it (lib/jobs), so none imports another for it:
// - an operation: what runs, how often under each driver, and how it claims its rows. Inngest makes a cron function
//   of each, the local driver an interval sweep, and the health check counts the due rows of each sweep. Every
//   operation is idempotent, so overlapping runs, retried Inngest steps and several app processes change nothing twice;
// - due work (docs/sandbox.md, "Test clock"): what a sandbox test clock's advance runs as a project's time passes,
//   for that project's sandbox only. The advance moves time one day at a time and, at each step, runs every entry
//   in order, a batch of rows per transaction; an entry runs what is due by `to` among a batch of the tenant's rows
//   and stamps what it does with `to` (`from` is where the step began, the previous step's `to`). Entries are
//   idempotent too: a row done is no longer due, and a batch an advance ran before its process died is found done
//   when it is resumed.
import type { Prisma } from "./generated/prisma/client";
import type { Tenant } from "./tenant";

/** What a run did, by what it counts (`{ decided: 3 }`); the Inngest function returns it as the run's output. */
export type OperationReport = Record<string, number>;

interface OperationEntry {
  id: string;
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
  counts: "decided" | "expired" | "attempted" | "collected" | "paidOut";
  /** Rows due now (the health check's queue). */
  countDue(): Promise<number>;
  /** Rows the local driver works on at once; Inngest runs the steps one after another. */
  concurrency: number;
  /**
   * The local driver sweeps again at once while a sweep found rows, so a backlog drains in one go. Only for
   * sweeps that claim what they find: a row skipped as busy would otherwise be found again and again.
   */
  drain: boolean;
  /** Rows that fall due as time passes: what a sandbox test clock's advance runs at each day it passes. */
  onTestClock?: DueWork["run"];
}

/** One call that finds and does its own work: under Inngest, one step. */
export interface Pass extends OperationEntry {
  kind: "pass";
  /** The Inngest step name. */
  step: string;
  run(): Promise<OperationReport>;
}

export type BackgroundOperation = RowSweep | Pass;

export interface DueWorkStep {
  /** The batch's transaction: it commits the batch's work, and the advance's lease with it. */
  transaction: Prisma.TransactionClient;
  /** The sandbox tenant whose clock moves, carrying the step's offset (lib/tenant-clock.ts gives `to`). */
  tenant: Tenant;
  from: Date;
  to: Date;
  /** The batch: the first `limit` due rows whose id sorts after `after` (null: from the first), in id order. */
  after: string | null;
  limit: number;
}

export interface DueWork {
  name: string;
  /** Runs what fell due in (`from`, `to`] among one batch of rows; returns the ids of the rows it found, in id order. */
  run(step: DueWorkStep): Promise<string[]>;
}
