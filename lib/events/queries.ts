// The tenant's events counted, for the partner MCP tools' metrics.
import { db } from "../db";
import { tenantWhere, type Tenant } from "../tenant";

/** How many events the tenant's objects emitted since `since`. */
export function countEvents(tenant: Tenant, since: Date): Promise<number> {
  return db().event.count({ where: { ...tenantWhere(tenant), createdAt: { gte: since } } });
}
