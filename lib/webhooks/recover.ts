// Recovering an endpoint's failed deliveries since a time (the dashboard's "Recover failed since", and
// POST /partner/v1/webhook_endpoints/{id}/recover): each is queued again as a replay would be, a new delivery
// with a fresh attempt series that the delivery sweep sends and signs as usual (lib/webhooks/deliver.ts).
import { clock } from "../clock";
import { db, inTransaction, type DatabaseClient } from "../db";
import { EVENT_RETENTION_MS } from "../events/service";
import { ApiError, notFound } from "../errors";
import type { WebhookDeliveryStatus } from "../generated/prisma/client";
import { newId } from "../ids";
import type { Tenant } from "../tenant";
import { lockWebhookEndpoint } from "./endpoint-transition";
import { getOwnWebhookEndpointOrThrow } from "./service";

/**
 * The delivery states that never reached the receiver (lib/webhooks/delivery-state-machine.ts): `failed` used
 * its nine attempts; `abandoned` was stopped when its endpoint was disabled, which is the usual reason to recover.
 */
export const RECOVERABLE_DELIVERY_STATUSES: readonly WebhookDeliveryStatus[] = ["failed", "abandoned"];

function invalidSince(reason: string, message: string): ApiError {
  return new ApiError("validation_failed", { message, detail: [{ field: "since", reason, message }] });
}

/** `since` on the platform's clock, as deliveries are dated: not ahead of it, and within the events' retention. */
function assertRecoverableSince(since: Date, now: Date): void {
  if (since.getTime() > now.getTime()) throw invalidSince("in_the_future", "since must not be in the future.");
  if (since.getTime() < now.getTime() - EVENT_RETENTION_MS) {
    throw invalidSince("beyond_retention", "since must be within the last 30 days: older events and their deliveries are no longer kept.");
  }
}

/**
 * Queues again every delivery to the endpoint that failed or was abandoned and was created at or after `since`:
 * one new delivery per event (an event that failed twice is sent once more, not twice), none for an event already
 * waiting to be sent to it or since delivered to it (by a replay or an earlier recovery). Answers how many were queued. A disabled endpoint is refused: it would send nothing.
 */
export async function recoverFailedDeliveries(options: { tenant: Tenant; endpointId: string; since: Date; transaction?: DatabaseClient }) {
  const { tenant, endpointId, since, transaction: database = db() } = options;
  const now = clock.now();
  assertRecoverableSince(since, now);
  await getOwnWebhookEndpointOrThrow(tenant, endpointId);
  const count = await inTransaction(database, async (transaction) => {
    // Locked as an attempt locks it, so the endpoint cannot be disabled between the check and the queueing.
    const endpoint = await lockWebhookEndpoint(transaction, endpointId);
    if (!endpoint) throw notFound("webhook endpoint", endpointId);
    if (endpoint.status !== "enabled") {
      throw new ApiError("conflict", { message: `Webhook endpoint ${endpointId} is disabled; enable it before recovering its failed deliveries.` });
    }
    const failed = await transaction.webhookDelivery.findMany({
      where: { endpointId, status: { in: [...RECOVERABLE_DELIVERY_STATUSES] }, createdAt: { gte: since } },
      select: { eventId: true },
      distinct: ["eventId"],
      orderBy: { eventId: "asc" },
    });
    const sentOrWaiting = await transaction.webhookDelivery.findMany({
      where: { endpointId, status: { in: ["pending", "succeeded"] }, eventId: { in: failed.map((delivery) => delivery.eventId) } },
      select: { eventId: true },
    });
    const needNoRecovery = new Set(sentOrWaiting.map((delivery) => delivery.eventId));
    const deliveries = failed
      .filter((delivery) => !needNoRecovery.has(delivery.eventId))
      .map((delivery) => ({
        id: newId("webhookDelivery"),
        endpointId,
        eventId: delivery.eventId,
        projectId: tenant.projectId,
        replay: true,
        nextAttemptAt: now,
        createdAt: now,
        updatedAt: now,
      }));
    if (deliveries.length > 0) await transaction.webhookDelivery.createMany({ data: deliveries });
    return deliveries.length;
  });
  return { object: "webhook_recovery" as const, endpoint: endpointId, since: since.toISOString(), count };
}
