// The sandbox clock's background operation (lib/background/catalogue.ts lists it, with the due work an advance
// runs): a test-clock advance whose process died mid-way (its lease lapsed a minute after its last batch) goes on
// from the last whole day it did (service.ts).
import type { DueWork, Pass } from "../background-operation";
import { resumeStalledAdvances } from "./service";

export function resumeClockAdvances(dueWork: readonly DueWork[]): Pass {
  return {
    kind: "pass",
    id: "resume-clock-advances",
    cron: "* * * * *",
    localIntervalMs: 30_000,
    claims: "each clock's lapsed lease, taken over by a conditional update; the advance's batches are idempotent",
    step: "resume",
    run: async () => ({ resumed: await resumeStalledAdvances(dueWork) }),
  };
}
