// The tenant's events counted, for the partner MCP tools' metrics.
import { db } from "../db";
import type { Tenant } from "../tenant";

/** How many events the tenant's objects emitted since `since`. */
export function countEvents(tenant: Tenant, since: Date): Promise<number> {
  return db().event.count({ where: { projectId: tenant.projectId, environment: tenant.environment, createdAt: { gte: since } } });
}
