// The dashboard's read sections (docs/dashboard.md, "Events, applications and accounts") read through the partner
// API's own services with the member's tenant; this is what they need besides: the objects the fast lane renders
// as JSON text, read back, and the one action, releasing a locked decision, audited like every dashboard action.
import type { AccountObject, serializeTransaction } from "../accounts/serialize";
import type { ApplicationObject } from "../applications/serialize";
import { readOwnApplicationWithDecision } from "../applications/queries";
import { db, inTransaction } from "../db";
import { releaseDecision } from "../decisions/service";
import { ApiError } from "../errors";
import { recordAudit } from "../team/audit";
import type { ListEnvelope } from "../wire/pagination";
import type { RenderedJson } from "../wire/rendered-json";
import type { DashboardMember } from "./access";
import { auditedBy } from "./keys";

export type TransactionObject = ReturnType<typeof serializeTransaction>;

/** What the fast lane rendered (the application and account reads, their lists, the ledger), as the object it is. */
export function readRendered<T extends ApplicationObject | AccountObject | ListEnvelope<ApplicationObject> | ListEnvelope<TransactionObject>>(rendered: RenderedJson): T {
  return JSON.parse(rendered.text) as T;
}

/** Releases the lock on the application's decision with the service the CLI uses, and audits who did. */
export async function releaseDecisionFromDashboard({ member, applicationId }: { member: DashboardMember; applicationId: string }) {
  const application = await readOwnApplicationWithDecision(member.tenant, applicationId);
  if (!application.decision) throw new ApiError("conflict", { message: `Application ${applicationId} has no decision yet.` });
  const decisionId = application.decision.id;
  return inTransaction(db(), async (transaction) => {
    const released = await releaseDecision(decisionId, { tenant: member.tenant, transaction });
    await recordAudit(transaction, { ...auditedBy(member), action: "decision.released", objectId: decisionId });
    return released;
  });
}
