// Sandbox test helpers (docs/test-helpers.md): they drive an application through the moves an applicant, an
// underwriter or a borrower would make, through the same services and state machine, so they fire the same
// events as the real paths. Their routes are `sandboxOnly`: a live token never reaches them.
import type { Principal } from "../http/auth";
import { getOwnDecisionOrThrow, resolveReferral } from "../decisions/service";
import type { DeclineReason } from "../decisions/engine";
import { expireApplicationNow, fundApplication, getOwnApplicationOrThrow, submitApplication } from "./service";

export async function submitAsApplicant(principal: Principal, id: string, input: { declared_annual_turnover_pence?: number } | undefined) {
  await getOwnApplicationOrThrow(principal, id);
  return submitApplication({ projectId: principal.projectId, id, declaredAnnualTurnoverPence: input?.declared_annual_turnover_pence });
}

export async function expireNow(principal: Principal, id: string) {
  await getOwnApplicationOrThrow(principal, id);
  return expireApplicationNow(principal.projectId, id);
}

export async function acceptOfferAndFund(principal: Principal, id: string) {
  await getOwnApplicationOrThrow(principal, id);
  return fundApplication(principal.projectId, id);
}

export async function resolveReferralAsUnderwriter(principal: Principal, decisionId: string, input: { outcome: "approved" | "declined"; reason?: DeclineReason }) {
  await getOwnDecisionOrThrow(principal, decisionId);
  return resolveReferral({ decisionId, projectId: principal.projectId, ...input });
}
