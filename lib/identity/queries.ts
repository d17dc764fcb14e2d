// The tenant's identity checks counted, for the partner MCP tools' queue and metrics.
import { db } from "../db";
import type { IdentityCheckStatus } from "../generated/prisma/client";
import { tenantWhere, type Tenant } from "../tenant";

/** How many of the tenant's identity checks are in `status`. */
export function countIdentityChecks(tenant: Tenant, status: IdentityCheckStatus): Promise<number> {
  return db().identityCheck.count({ where: { ...tenantWhere(tenant), status } });
}

/** The tenant's identity checks made since `since`, counted by status. */
export async function countIdentityChecksByStatus(tenant: Tenant, since: Date): Promise<Partial<Record<IdentityCheckStatus, number>>> {
  const groups = await db().identityCheck.groupBy({ by: ["status"], where: { ...tenantWhere(tenant), createdAt: { gte: since } }, _count: { _all: true } });
  return Object.fromEntries(groups.map((group) => [group.status, group._count._all]));
}
