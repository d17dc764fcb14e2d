// The tenant's events counted, for the partner MCP tools' metrics, and listed by the object they are about, for the
// dashboard's timelines.
import { db } from "../db";
import { tenantWhere, type Tenant } from "../tenant";

/** How many events the tenant's objects emitted since `since`. */
export function countEvents(tenant: Tenant, since: Date): Promise<number> {
  return db().event.count({ where: { ...tenantWhere(tenant), createdAt: { gte: since } } });
}

/** How many events a timeline shows at most: an application or account rarely has more in its 30 days. */
export const TIMELINE_LIMIT = 100;

/**
 * The tenant's events about one object, oldest first: those whose `data.object` is it (`id`) or names it in
 * `relatedField` (a decision's `application_id`, a payment's `account_id`). For the dashboard's timelines.
 */
export function listEventsAbout(tenant: Tenant, { objectId, relatedField, limit = TIMELINE_LIMIT }: { objectId: string; relatedField: "application_id" | "account_id"; limit?: number }) {
  return db().event.findMany({
    where: { ...tenantWhere(tenant), OR: [{ object: { path: ["id"], equals: objectId } }, { object: { path: [relatedField], equals: objectId } }] },
    orderBy: { id: "asc" },
    take: limit,
    select: { id: true, type: true, createdAt: true },
  });
}
