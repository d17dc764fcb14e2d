// Scheduling webhook deliveries: a pending row per (event, subscribed enabled endpoint), written in the
// transaction that records the event, due at once. The background driver sends them (lib/webhooks/deliver.ts).
import type { Prisma } from "../generated/prisma/client";
import { newId } from "../ids";

/** Whether an endpoint subscribed to `enabledEvents` receives events of `type`. */
export function subscribesTo(enabledEvents: readonly string[], type: string): boolean {
  return enabledEvents.includes("*") || enabledEvents.includes(type);
}

interface RecordedEvent {
  id: string;
  projectId: string | null;
  environment: "sandbox" | "live";
  type: string;
  createdAt: Date;
}

export async function scheduleDeliveries(transaction: Prisma.TransactionClient, events: readonly RecordedEvent[]): Promise<number> {
  const first = events[0];
  if (!first?.projectId) return 0;
  const endpoints = await transaction.webhookEndpoint.findMany({
    where: { projectId: first.projectId, environment: first.environment, status: "enabled" },
    select: { id: true, enabledEvents: true },
  });
  const rows = events.flatMap((event) =>
    endpoints
      .filter((endpoint) => subscribesTo(endpoint.enabledEvents, event.type))
      .map((endpoint) => ({
        id: newId("webhookDelivery"),
        endpointId: endpoint.id,
        eventId: event.id,
        projectId: first.projectId!,
        nextAttemptAt: event.createdAt,
        createdAt: event.createdAt,
        updatedAt: event.createdAt,
      })),
  );
  if (rows.length > 0) await transaction.webhookDelivery.createMany({ data: rows });
  return rows.length;
}
