// The tenant's webhook endpoints and deliveries, listed and counted for the partner MCP tools' queue, metrics
// and configuration snapshot.
import { db } from "../db";
import type { WebhookDeliveryStatus, WebhookEndpoint } from "../generated/prisma/client";
import { tenantWhere, type Tenant } from "../tenant";

/** Every endpoint of the tenant, oldest first. */
export function listAllWebhookEndpoints(tenant: Tenant): Promise<WebhookEndpoint[]> {
  return db().webhookEndpoint.findMany({ where: tenantWhere(tenant), orderBy: { id: "asc" } });
}

/** How many of the tenant's endpoints are disabled. */
export function countDisabledWebhookEndpoints(tenant: Tenant): Promise<number> {
  return db().webhookEndpoint.count({ where: { ...tenantWhere(tenant), status: "disabled" } });
}

/** How many deliveries to the tenant's endpoints are still to be made. */
export function countPendingWebhookDeliveries(tenant: Tenant): Promise<number> {
  return db().webhookDelivery.count({ where: { status: "pending", endpoint: tenantWhere(tenant) } });
}

/** Deliveries to the tenant's endpoints created since `since` (real time, as deliveries are), counted by status. */
export async function countWebhookDeliveriesByStatus(tenant: Tenant, since: Date): Promise<Partial<Record<WebhookDeliveryStatus, number>>> {
  const groups = await db().webhookDelivery.groupBy({ by: ["status"], where: { createdAt: { gte: since }, endpoint: tenantWhere(tenant) }, _count: { _all: true } });
  return Object.fromEntries(groups.map((group) => [group.status, group._count._all]));
}
