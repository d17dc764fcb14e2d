// Sub-accounts (beta, spec 2.5, 4.3; docs/beta.md): the distributors a partner originates applications through.
// A sub-account earns its `revenue_share_bps` of the principal funded through its introductions; it defaults to
// the project's master rate, which is also the most it may be.
import { clock } from "../clock";
import { db, type DatabaseClient } from "../db";
import { ApiError, notFound } from "../errors";
import type { SubAccount } from "../generated/prisma/client";
import { newId } from "../ids";
import { assertCapability } from "../projects/capabilities";
import { tenantObjectOrThrow, tenantWhere, type Tenant } from "../tenant";
import { paginate, type PageRequest } from "../wire/pagination";
import type { CreateSubAccountInput } from "./schemas";
import { serializeSubAccount } from "./serialize";

/** The project's master revenue-share rate (`cli project set-revenue-share`). */
export async function masterRevenueShareBps(projectId: string, database: DatabaseClient = db()): Promise<number> {
  const project = await database.project.findUnique({ where: { id: projectId }, select: { revenueShareBps: true } });
  if (!project) throw notFound("project", projectId);
  return project.revenueShareBps;
}

export async function createSubAccount(options: { tenant: Tenant; now: Date; input: CreateSubAccountInput; transaction?: DatabaseClient }) {
  const { tenant, now, input } = options;
  const database = options.transaction ?? db();
  const masterBps = await masterRevenueShareBps(tenant.projectId, database);
  const revenueShareBps = input.revenue_share_bps ?? masterBps;
  if (revenueShareBps > masterBps) {
    const message = `revenue_share_bps may be at most the project's master rate, ${masterBps}; leave it out to use that rate.`;
    throw new ApiError("validation_failed", { detail: [{ field: "revenue_share_bps", reason: "above_master_rate", message }] });
  }
  const subAccount = await database.subAccount.create({
    data: { id: newId("subAccount"), ...tenantWhere(tenant), name: input.name, revenueShareBps, createdAt: now, updatedAt: now },
  });
  return serializeSubAccount(subAccount);
}

export async function listSubAccounts(options: { tenant: Tenant; query: PageRequest; url: string }) {
  const where = tenantWhere(options.tenant);
  return paginate({
    kind: "subAccount",
    page: options.query,
    url: options.url,
    fetch: (window) => db().subAccount.findMany({ where: { ...where, ...(window.id ? { id: window.id } : {}) }, orderBy: window.orderBy, take: window.take }),
    exists: async (id) => (await db().subAccount.count({ where: { ...where, id } })) === 1,
    serialize: serializeSubAccount,
  });
}

/** The names of the tenant's sub-accounts among `ids`, by id (pages that list their payouts and introductions). */
export async function subAccountNames({ tenant, ids }: { tenant: Tenant; ids: readonly string[] }): Promise<Map<string, string>> {
  const rows = await db().subAccount.findMany({ where: { ...tenantWhere(tenant), id: { in: [...new Set(ids)] } }, select: { id: true, name: true } });
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** The caller's sub-account: another project's is 404, the other environment's 401 `environment_mismatch`. */
export async function getOwnSubAccountOrThrow(tenant: Tenant, id: string, options: { field?: string } = {}): Promise<SubAccount> {
  const subAccount = await db().subAccount.findFirst({ where: { id, projectId: tenant.projectId } });
  return tenantObjectOrThrow(tenant, subAccount, () => notFound("sub-account", id, options));
}

export async function retrieveSubAccount({ tenant, id }: { tenant: Tenant; id: string }) {
  return serializeSubAccount(await getOwnSubAccountOrThrow(tenant, id));
}

/**
 * The sub-account an application is being originated through: the project must have the beta capability (403
 * `capability_denied`) and the sub-account must be its own, in the same environment (404 `resource_not_found`).
 */
export async function subAccountForOrigination(tenant: Tenant, id: string): Promise<SubAccount> {
  await assertCapability(tenant.projectId, "beta");
  return getOwnSubAccountOrThrow(tenant, id, { field: "sub_account_id" });
}

/** The master rate a project's new sub-accounts default to and may not exceed (the admin CLI sets it). */
export async function setMasterRevenueShare(database: DatabaseClient, projectId: string, bps: number): Promise<number> {
  const updated = await database.project.updateMany({ where: { id: projectId }, data: { revenueShareBps: bps, updatedAt: clock.now() } });
  if (updated.count === 0) throw notFound("project", projectId);
  return bps;
}
