// The dashboard's API keys page's actions: the same services as the partner API's /keys routes (lib/keys), so the
// same validation and rules, each checked against the member's role first and audited after.
import { clock } from "../clock";
import { inTransaction, db } from "../db";
import { serializeKey } from "../keys/serialize";
import { createKey, revokeKey, rollKey, setAllowedOrigins } from "../keys/service";
import { revokeOutstandingTokens } from "../projects/manage-project";
import { tenantWhere } from "../tenant";
import { recordAudit } from "../team/audit";
import type { DashboardMember } from "./access";

export async function createKeyFromDashboard({ member, type }: { member: DashboardMember; type: "secret" | "publishable" }) {
  return inTransaction(db(), async (transaction) => {
    const created = await createKey({ tenant: member.tenant, input: { type }, transaction });
    await recordAudit(transaction, { ...auditedBy(member), action: "key.created", objectId: created.id });
    return created;
  });
}

export async function rollKeyFromDashboard({ member, id, overlapHours }: { member: DashboardMember; id: string; overlapHours: number }) {
  return inTransaction(db(), async (transaction) => {
    const rolled = await rollKey({ tenant: member.tenant, id, overlapHours, transaction });
    await recordAudit(transaction, { ...auditedBy(member), action: "key.rolled", objectId: id });
    return rolled;
  });
}

export async function revokeKeyFromDashboard({ member, id }: { member: DashboardMember; id: string }) {
  const revoked = await revokeKey({ tenant: member.tenant, id });
  await recordAudit(db(), { ...auditedBy(member), action: "key.revoked", objectId: id });
  return revoked;
}

export const auditedBy = (member: DashboardMember) => ({ projectId: member.tenant.projectId, environment: member.tenant.environment, actorId: member.userId });

export async function setAllowedOriginsFromDashboard({ member, id, allowedOrigins }: { member: DashboardMember; id: string; allowedOrigins: string[] }) {
  return inTransaction(db(), async (transaction) => {
    const updated = await setAllowedOrigins({ tenant: member.tenant, id, allowedOrigins, transaction });
    await recordAudit(transaction, { ...auditedBy(member), action: "key.origins_changed", objectId: id });
    return updated;
  });
}

/** What `cli project revoke-tokens --environment` does, for the environment of the address only. */
export async function revokeTokensFromDashboard({ member }: { member: DashboardMember }) {
  await revokeOutstandingTokens(db(), member.tenant.projectId, [member.tenant.environment]);
  await recordAudit(db(), { ...auditedBy(member), action: "tokens.revoked", objectId: member.tenant.projectId });
}

/** The tenant's keys for the keys page, newest first: revoked ones too, so the page shows what happened to each. */
export async function listKeysForDashboard({ member, limit = 100 }: { member: DashboardMember; limit?: number }) {
  const now = clock.now();
  const keys = await db().apiKey.findMany({ where: tenantWhere(member.tenant), orderBy: { id: "desc" }, take: limit });
  return keys.map((key) => serializeKey(key, now));
}
