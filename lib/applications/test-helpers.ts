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
  /** The request's time on the tenant's clock. */
  now: Date;
  id: string;
}

export async function submitAsApplicant({ tenant, now, id, declaredAnnualTurnoverPence }: OwnApplication & { declaredAnnualTurnoverPence?: number }) {
  await getOwnApplicationOrThrow(tenant, id);
  return submitApplication({ tenant, now, id, declaredAnnualTurnoverPence });
}

export async function expireNow({ tenant, now, id }: OwnApplication) {
  await getOwnApplicationOrThrow(tenant, id);
  return expireApplicationNow({ tenant, now, id });
}

export async function acceptOfferAndFund({ tenant, now, id }: OwnApplication) {
  await getOwnApplicationOrThrow(tenant, id);
  return (await fundApplication({ tenant, now, applicationId: id })).application;
}

export async function resolveReferralAsUnderwriter(options: { tenant: Tenant; now: Date; decisionId: string; outcome: "approved" | "declined"; reason?: DeclineReason }) {
  const { tenant, ...resolution } = options;
  await getOwnDecisionOrThrow(tenant, resolution.decisionId);
  return resolveReferral({ tenant, ...resolution });
}
