// The dashboard's beta sections' one action (docs/dashboard.md, "Sub-accounts, introductions and payouts"): creating
// a sub-account through the API's own service (lib/revenue-share), so its rules hold (the master rate), audited in
// its transaction. A project without the `beta` capability has no such section: a post there is a 404.
import { db, inTransaction } from "../db";
import { notFound } from "../errors";
import { readProjectCapabilities } from "../projects/capabilities";
import { createSubAccount } from "../revenue-share/sub-accounts";
import { recordAudit } from "../team/audit";
import type { DashboardMember } from "./access";

export async function createSubAccountFromDashboard({ member, now, input }: { member: DashboardMember; now: Date; input: { name: string; revenue_share_bps?: number } }) {
  const { tenant } = member;
  if (!(await readProjectCapabilities(db(), tenant.projectId)).includes("beta")) throw notFound("page");
  return inTransaction(db(), async (transaction) => {
    const created = await createSubAccount({ tenant, now, input, transaction });
    await recordAudit(transaction, { projectId: tenant.projectId, environment: tenant.environment, actorId: member.userId, action: "sub_account.created", objectId: created.id });
    return created;
  });
}
