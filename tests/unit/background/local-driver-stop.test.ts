// A stopping process stops its local driver before giving back its claims (scripts/stop-server.ts): a sweep under
// way finishes the rows it has started and takes no other, so nothing is claimed after the claims are given back.
import { afterEach, expect, it } from "vitest";
import type { RowSweep } from "@/lib/background-operation";
import { manualTimers, restoreTimers } from "@/lib/clock";
import { LocalDriver } from "@/lib/jobs/local-driver";

afterEach(() => restoreTimers());

it("lets a sweep under way finish the rows it started and take no further row once stopped", async () => {
  const timers = manualTimers();
  const started: string[] = [];
  const finishers: Array<() => void> = [];
  const sweep: RowSweep = {
    kind: "rows",
    id: "deliver-test",
    cron: "* * * * *",
    localIntervalMs: 1_000,
    claims: "none: a test",
    batch: 10,
    steps: { find: "find", each: "each" },
    find: async () => ["row_1", "row_2", "row_3", "row_4", "row_5"],
    run: (id) => {
      started.push(id);
      return new Promise<boolean>((resolve) => finishers.push(() => resolve(true)));
    },
    counts: "attempted",
    countDue: async () => 5,
    concurrency: 2,
    drain: true,
  };
  const driver = new LocalDriver({ operations: [sweep], decideApplication: async () => undefined });
  driver.start();
  timers.advance(1_000);
  while (started.length < 2) await new Promise((resolve) => setImmediate(resolve));
  expect(started).toEqual(["row_1", "row_2"]);

  driver.stop();
  for (const finish of finishers.splice(0)) finish();
  for (let turn = 0; turn < 10; turn += 1) await new Promise((resolve) => setImmediate(resolve));
  expect(started).toEqual(["row_1", "row_2"]);
  timers.advance(5_000);
  for (let turn = 0; turn < 10; turn += 1) await new Promise((resolve) => setImmediate(resolve));
  expect(started).toEqual(["row_1", "row_2"]);
});
