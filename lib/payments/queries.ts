// The tenant's payments counted and listed for the partner MCP tools' digests and metrics.
import { db } from "../db";
import type { Payment, PaymentStatus } from "../generated/prisma/client";
import { tenantWhere, type Tenant } from "../tenant";

/** The tenant's account's collections that settled or failed, oldest first. */
export function listFinishedCollections(tenant: Tenant, accountId: string): Promise<Payment[]> {
  return db().payment.findMany({ where: { ...tenantWhere(tenant), accountId, type: "collection", status: { in: ["settled", "failed"] } }, orderBy: { id: "asc" } });
}

/** How many of the tenant's payments are in `status`. */
export function countPayments(tenant: Tenant, status: PaymentStatus): Promise<number> {
  return db().payment.count({ where: { ...tenantWhere(tenant), status } });
}

/** The tenant's collections made since `since`, counted by status. */
export async function countCollectionsByStatus(tenant: Tenant, since: Date): Promise<Partial<Record<PaymentStatus, number>>> {
  const groups = await db().payment.groupBy({ by: ["status"], where: { ...tenantWhere(tenant), type: "collection", createdAt: { gte: since } }, _count: { _all: true } });
  return Object.fromEntries(groups.map((group) => [group.status, group._count._all]));
}
