// The catalogue of background operations (lib/background/catalogue.ts) drives both drivers: each entry is an Inngest
// cron function with the entry's id and cron, and the local driver sweeps each entry at the entry's interval.
// The local driver's tests run it over stand-ins for the operations, on fake timers, with no database.
import { afterEach, describe, expect, it, vi } from "vitest";
import { cronFunctions, decideApplication, functions } from "@/inngest/functions";
import { APPLICATION_SUBMITTED_EVENT } from "@/lib/jobs/inngest-client";
import { LocalDriver, runDueWork } from "@/lib/jobs/local-driver";
import { BACKGROUND_CATALOGUE, BACKGROUND_OPERATIONS } from "@/lib/background/catalogue";
import type { BackgroundOperation, RowSweep } from "@/lib/background-operation";

const HOUR_MS = 60 * 60_000;

afterEach(() => {
  vi.useRealTimers();
});

/** The catalogue's operation `id` with its work replaced: a sweep that finds nothing, a pass that does nothing. */
function standIn(operation: BackgroundOperation) {
  return operation.kind === "rows"
    ? { ...operation, find: vi.fn(async () => [] as string[]), run: vi.fn(async () => true) }
    : { ...operation, run: vi.fn(async () => ({})) };
}

/** How many times each stand-in ran: sweeps by their finding, passes by their run. */
function runsOf(standIns: ReturnType<typeof standIn>[]): Record<string, number> {
  return Object.fromEntries(standIns.map((operation) => [operation.id, (operation.kind === "rows" ? operation.find : operation.run).mock.calls.length]));
}

function rowSweep(id: string): RowSweep {
  const operation = BACKGROUND_OPERATIONS.find((candidate) => candidate.id === id);
  if (operation?.kind !== "rows") throw new Error(`${id} is not a row sweep`);
  return operation;
}

describe("the catalogue", () => {
  it("names each operation once", () => {
    const ids = BACKGROUND_OPERATIONS.map((operation) => operation.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe("the Inngest functions", () => {
  it("are the event-triggered decisioning and one cron function per catalogue operation, in the catalogue's order", () => {
    expect(functions.map((fn) => fn.opts.id)).toEqual(["decide-application", ...BACKGROUND_OPERATIONS.map((operation) => operation.id)]);
    expect(decideApplication.opts.triggers).toEqual([{ event: APPLICATION_SUBMITTED_EVENT }]);
  });

  it.each(BACKGROUND_OPERATIONS)("runs $id on the catalogue's cron", (operation) => {
    const fn = cronFunctions.get(operation.id);
    expect(fn?.opts.id).toBe(operation.id);
    expect(fn?.opts.triggers).toEqual([{ cron: operation.cron }]);
  });
});

describe("the local driver", () => {
  it("sweeps each catalogue operation at the catalogue's interval once started, and nothing once stopped", async () => {
    vi.useFakeTimers();
    const standIns = BACKGROUND_OPERATIONS.map(standIn);
    const driver = new LocalDriver({ ...BACKGROUND_CATALOGUE, operations: standIns });

    driver.start();
    await vi.advanceTimersByTimeAsync(HOUR_MS);
    driver.stop();
    await vi.advanceTimersByTimeAsync(HOUR_MS);

    expect(runsOf(standIns)).toEqual(Object.fromEntries(BACKGROUND_OPERATIONS.map((operation) => [operation.id, HOUR_MS / operation.localIntervalMs])));
  });

  it("takes intervals as an option, in place of the catalogue's", async () => {
    vi.useFakeTimers();
    const standIns = BACKGROUND_OPERATIONS.map(standIn);
    const driver = new LocalDriver({ ...BACKGROUND_CATALOGUE, operations: standIns, intervalsMs: { "sweep-decisioning": 50 } });

    driver.start();
    await vi.advanceTimersByTimeAsync(1_000);
    driver.stop();

    expect(runsOf(standIns)).toMatchObject({ "sweep-decisioning": 20, "deliver-webhooks": 1, "expire-applications": 0, maintenance: 0 });
  });

  it("sweeps a draining operation again at once while it finds rows, and any other once a tick", async () => {
    vi.useFakeTimers();
    const draining = { ...rowSweep("deliver-webhooks"), find: vi.fn(async () => [] as string[]), run: vi.fn(async () => true) };
    draining.find.mockResolvedValueOnce(["a", "b"]).mockResolvedValueOnce(["c"]);
    const once = { ...rowSweep("sweep-decisioning"), find: vi.fn(async () => ["d"]), run: vi.fn(async () => false) };
    const driver = new LocalDriver({ ...BACKGROUND_CATALOGUE, operations: [draining, once], intervalsMs: { "deliver-webhooks": 1_000, "sweep-decisioning": 1_000 } });

    driver.start();
    await vi.advanceTimersByTimeAsync(1_000);
    driver.stop();

    expect(draining.find).toHaveBeenCalledTimes(3);
    expect(draining.run.mock.calls).toEqual([["a"], ["b"], ["c"]]);
    expect(once.find).toHaveBeenCalledTimes(1);
    expect(once.run.mock.calls).toEqual([["d"]]);
  });

  it("finds each sweep's batch and works on at most its concurrency of rows at once", async () => {
    let working = 0;
    let mostAtOnce = 0;
    const ids = Array.from({ length: 20 }, (_, index) => `row_${index}`);
    const sweep = {
      ...rowSweep("deliver-webhooks"),
      find: vi.fn(async () => ids),
      run: vi.fn(async (id: string) => {
        working += 1;
        mostAtOnce = Math.max(mostAtOnce, working);
        await new Promise((resolve) => setImmediate(resolve));
        working -= 1;
        return id !== "row_0";
      }),
    };

    const report = await runDueWork([sweep]);

    expect(sweep.find.mock.calls).toEqual([[sweep.batch]]);
    expect(sweep.run).toHaveBeenCalledTimes(20);
    expect(mostAtOnce).toBe(sweep.concurrency);
    expect(report).toEqual({ decided: 0, expired: 0, attempted: 19, collected: 0, paidOut: 0 });
  });
});
