// Scheduling webhook deliveries: a pending row per (event, subscribed enabled endpoint), written in the
// transaction that records the event, due at once: on real time, even for an event a sandbox project's test
// clock dated ahead (lib/tenant-clock.ts). The background driver sends them (lib/webhooks/deliver.ts).
import { clock } from "../clock";
import type { Prisma } from "../generated/prisma/client";
import { newId } from "../ids";
import type { TenantEnvironment } from "../tenant";

/** Whether an endpoint subscribed to `enabledEvents` receives events of `type`. */
export function subscribesTo(enabledEvents: readonly string[], type: string): boolean {
  return enabledEvents.includes("*") || enabledEvents.includes(type);
}

/** What scheduling reads of a recorded event (lib/events/events.ts records them and calls it). */
export interface RecordedEvent {
  id: string;
  projectId: string | null;
  environment: TenantEnvironment;
  type: string;
}

interface SubscribedEndpoint {
  id: string;
  enabledEvents: string[];
}

export interface DeliveryRow {
  id: string;
  endpointId: string;
  eventId: string;
  projectId: string;
  nextAttemptAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

/** The deliveries of `events` to the project's enabled `endpoints`, due at `scheduledAt`: what `scheduleDeliveries` writes. */
export function deliveryRows(events: readonly RecordedEvent[], endpoints: readonly SubscribedEndpoint[], scheduledAt: Date): DeliveryRow[] {
  return events.flatMap((event) =>
    !event.projectId ? [] : endpoints
      .filter((endpoint) => subscribesTo(endpoint.enabledEvents, event.type))
      .map((endpoint) => ({
        id: newId("webhookDelivery"),
        endpointId: endpoint.id,
        eventId: event.id,
        projectId: event.projectId!,
        nextAttemptAt: scheduledAt,
        createdAt: scheduledAt,
        updatedAt: scheduledAt,
      })),
  );
}

/** Events recorded together belong to one project and environment: the first names them. */
function subscribersWhere(events: readonly RecordedEvent[]): Prisma.WebhookEndpointWhereInput | null {
  const first = events[0];
  if (!first?.projectId) return null;
  return { projectId: first.projectId, environment: first.environment, status: "enabled" };
}

export async function scheduleDeliveries(transaction: Prisma.TransactionClient, events: readonly RecordedEvent[]): Promise<number> {
  const where = subscribersWhere(events);
  if (!where) return 0;
  const endpoints = await transaction.webhookEndpoint.findMany({ where, select: { id: true, enabledEvents: true } });
  const rows = deliveryRows(events, endpoints, clock.now());
  if (rows.length > 0) await transaction.webhookDelivery.createMany({ data: rows });
  return rows.length;
}
