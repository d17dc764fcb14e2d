// The decisions' background operation (lib/background/catalogue.ts lists it): the safety net behind the immediate
// decisioning after each submission (an event under Inngest), for a submission whose immediate run was lost.
import type { RowSweep } from "../background-operation";
import { countApplicationsAwaitingDecision, decideSubmittedApplication, findApplicationsAwaitingDecision } from "./service";

export const sweepDecisioning: RowSweep = {
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
};
