// The local driver: runs the background operations in process when Inngest is not configured. A scheduler of
// our own idempotent operations, not an imitation of Inngest: an immediate run after commit, and one interval
// sweep per operation of the catalogue it is given (lib/background/catalogue.ts) that picks up anything due (a
// submission whose immediate run was lost to a restart, an application past expiry, a webhook delivery or retry,
// a notification to email).
import type { BackgroundOperation, OperationReport, RowSweep } from "../background-operation";
import { timers } from "../clock";
import { describeError, log } from "../log";
import type { BackgroundCatalogue, BackgroundDriver } from "./driver";

export interface LocalDriverOptions extends BackgroundCatalogue {
  /** Sweep intervals in milliseconds by operation id, in place of the catalogue's. */
  intervalsMs?: Partial<Record<string, number>>;
}

export type DueWorkReport = Record<RowSweep["counts"], number>;

/** Whether the driver has stopped: a sweep under way takes no further row once it has. */
type Stopped = () => boolean;
const neverStopped: Stopped = () => false;

/** Runs the operation on each row, `concurrency` rows at a time; returns how many it did its work on. */
async function runOnRows(operation: RowSweep, ids: readonly string[], stopped: Stopped): Promise<number> {
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < ids.length && !stopped()) {
      if (await operation.run(ids[next++]!)) done += 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(operation.concurrency, ids.length) }, worker));
  return done;
}

async function sweepOnce(operation: RowSweep, stopped: Stopped = neverStopped): Promise<{ found: number; done: number }> {
  const ids = await operation.find(operation.batch);
  return { found: ids.length, done: await runOnRows(operation, ids, stopped) };
}

/** One run of an operation as its timer fires: a pass, or a sweep (repeated while a draining sweep finds rows). */
async function runOperation(operation: BackgroundOperation, stopped: Stopped): Promise<OperationReport> {
  if (operation.kind === "pass") return operation.run();
  let done = 0;
  for (;;) {
    const sweep = await sweepOnce(operation, stopped);
    done += sweep.done;
    if (!operation.drain || sweep.found === 0 || stopped()) return { [operation.counts]: done };
  }
}

/** One sweep of every row operation over what is due now: what tests call to settle work directly. */
export async function runDueWork(operations: readonly BackgroundOperation[]): Promise<DueWorkReport> {
  const report: DueWorkReport = { decided: 0, expired: 0, attempted: 0, collected: 0, paidOut: 0 };
  for (const operation of operations) {
    if (operation.kind === "rows") report[operation.counts] += (await sweepOnce(operation)).done;
  }
  return report;
}

function logFailure(operation: string, fields: Record<string, unknown> = {}) {
  return (error: unknown) => log.warn("background operation failed", { operation, ...fields, ...describeError(error) });
}

function logReport(operation: string) {
  return (report: OperationReport) => {
    if (Object.values(report).some((count) => count > 0)) log.debug("background operation", { operation, ...report });
  };
}

export class LocalDriver implements BackgroundDriver {
  readonly name = "local" as const;
  private readonly catalogue: BackgroundCatalogue;
  private readonly intervalsMs: Partial<Record<string, number>>;
  private cancelSweeps: Array<() => void> = [];
  private stopped = false;

  constructor({ intervalsMs = {}, ...catalogue }: LocalDriverOptions) {
    this.catalogue = catalogue;
    this.intervalsMs = intervalsMs;
  }

  applicationSubmitted(applicationId: string): void {
    setImmediate(() => {
      this.catalogue.decideApplication(applicationId).catch(logFailure("decide-application", { application_id: applicationId }));
    });
  }

  start(): void {
    if (this.cancelSweeps.length > 0) return;
    this.stopped = false;
    for (const operation of this.catalogue.operations) {
      // A sweep still running when its interval comes round again is not doubled; the next tick retries.
      let running = false;
      const sweep = () => {
        if (running) return;
        running = true;
        runOperation(operation, () => this.stopped)
          .then(logReport(operation.id), logFailure(operation.id))
          .finally(() => {
            running = false;
          });
      };
      this.cancelSweeps.push(timers.every(this.intervalsMs[operation.id] ?? operation.localIntervalMs, sweep, { unref: true }));
    }
  }

  /** Cancels the sweeps; one under way finishes the row it is on and takes no other. */
  stop(): void {
    this.stopped = true;
    for (const cancel of this.cancelSweeps) cancel();
    this.cancelSweeps = [];
  }
}
