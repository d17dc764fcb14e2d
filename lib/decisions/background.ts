// The decisions' background operation (lib/background/catalogue.ts lists it): the safety net behind the immediate
// decisioning after each submission (an event under Inngest), for a submission whose immediate run was lost.
import type { RowSweep } from "../background-operation";
import { applicationTenant } from "../applications/service";
import { tenantNow } from "../tenant-clock";
import { countApplicationsAwaitingDecision, decideSubmittedApplication, findApplicationsAwaitingDecision, type DecisioningResult } from "./service";

/**
 * Decides one submitted application at its project's time now, read once here for the whole decision: what the
 * sweep runs, and what a submission starts once it commits (in process, or on Inngest's event).
 */
export async function decideOnItsClock(applicationId: string): Promise<DecisioningResult> {
  const tenant = await applicationTenant(applicationId);
  if (!tenant) return "nothing_to_do";
  return decideSubmittedApplication(applicationId, await tenantNow(tenant));
}

export const sweepDecisioning: RowSweep = {
  kind: "rows",
  id: "sweep-decisioning",
  cron: "* * * * *",
  localIntervalMs: 2_000,
  claims: "each application FOR UPDATE SKIP LOCKED in the decision's transaction; one held elsewhere is skipped as busy",
  batch: 100,
  steps: { find: "find-awaiting-decision", each: "decide" },
  find: findApplicationsAwaitingDecision,
  run: async (id) => (await decideOnItsClock(id)) === "decided",
  counts: "decided",
  countDue: countApplicationsAwaitingDecision,
  concurrency: 1,
  drain: false,
};
