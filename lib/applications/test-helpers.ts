// Sandbox test helpers (docs/sandbox.md): they drive an application through the moves an applicant, an
// underwriter or a borrower would make, through the same services and state machine, so they fire the same
// events as the real paths. Their routes are `sandboxOnly`: a live token never reaches them.
import { getOwnDecisionOrThrow, resolveReferral } from "../decisions/service";
import type { DeclineReason } from "../decisions/engine";
import type { Tenant } from "../tenant";
import { fundApplication } from "../accounts/funding";
import { expireApplicationNow, getOwnApplicationOrThrow, submitApplication } from "./service";

interface OwnApplication {
  tenant: Tenant;
  id: string;
}

export async function submitAsApplicant({ tenant, id, declaredAnnualTurnoverPence }: OwnApplication & { declaredAnnualTurnoverPence?: number }) {
  await getOwnApplicationOrThrow(tenant, id);
  return submitApplication({ tenant, id, declaredAnnualTurnoverPence });
}

export async function expireNow({ tenant, id }: OwnApplication) {
  await getOwnApplicationOrThrow(tenant, id);
  return expireApplicationNow({ tenant, id });
}

export async function acceptOfferAndFund({ tenant, id }: OwnApplication) {
  await getOwnApplicationOrThrow(tenant, id);
  return (await fundApplication({ tenant, applicationId: id })).application;
}

export async function resolveReferralAsUnderwriter(options: { tenant: Tenant; decisionId: string; outcome: "approved" | "declined"; reason?: DeclineReason }) {
  const { tenant, ...resolution } = options;
  await getOwnDecisionOrThrow(tenant, resolution.decisionId);
  return resolveReferral({ tenant, ...resolution });
}
