// The shape of a background operation: what runs, how often under each driver, and how it claims its rows. The
// drivers read a catalogue of them (lib/background/catalogue.ts composes it from the domains): inngest/functions.ts
// makes a cron function of each entry, the local driver (local-driver.ts) an interval sweep, and the health check
// counts the due rows of each sweep. Every operation is idempotent, so overlapping runs, retried Inngest steps and
// several app processes change nothing twice.

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

/** What the drivers run: the catalogue's operations, and the decisioning a submission starts at once. */
export interface BackgroundCatalogue {
  operations: readonly BackgroundOperation[];
  /** Decides a submitted application (after its submission commits: at once in process, or on Inngest's event). */
  decideApplication(applicationId: string): Promise<unknown>;
}

/** One of the two drivers (background.ts chooses): what runs the catalogue. */
export interface BackgroundDriver {
  readonly name: "inngest" | "local";
  /** Called after the transaction that submitted the application has committed. */
  applicationSubmitted(applicationId: string): void;
  start(): void;
  stop(): void;
}
