// The tenant's webhook endpoints and deliveries, listed and counted for the partner MCP tools' queue, metrics
// and configuration snapshot, and an event's deliveries for the dashboard.
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

/** The deliveries of one of the tenant's events, oldest first, each with its endpoint's address and its latest attempt. */
export async function listEventDeliveries(tenant: Tenant, eventId: string) {
  const deliveries = await db().webhookDelivery.findMany({
    where: { eventId, endpoint: tenantWhere(tenant) },
    orderBy: { id: "asc" },
    include: { endpoint: { select: { id: true, url: true } }, attempts: { orderBy: { number: "desc" }, take: 1 } },
  });
  return deliveries.map((delivery) => ({
    id: delivery.id,
    endpointId: delivery.endpoint.id,
    endpointUrl: delivery.endpoint.url,
    status: delivery.status,
    attempts: delivery.attemptCount,
    replay: delivery.replay,
    nextAttemptAt: delivery.nextAttemptAt,
    lastAttempt: delivery.attempts[0] ? { at: delivery.attempts[0].attemptedAt, responseStatus: delivery.attempts[0].responseStatus, error: delivery.attempts[0].error } : null,
  }));
}
