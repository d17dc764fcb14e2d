// Scheduling webhook deliveries: a pending row per (event, subscribed enabled endpoint), written in the
// transaction that records the event, due at once. The background driver sends them (lib/webhooks/deliver.ts).
import { Prisma } from "../generated/prisma/client";
import { newId } from "../ids";
import type { Statements } from "../statements";

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

export async function scheduleDeliveries(statements: Statements, events: readonly RecordedEvent[]): Promise<number> {
  const first = events[0];
  if (!first?.projectId) return 0;
  // Hand-written, as the events insert is: this runs in every transaction that records an event.
  const endpoints = await statements.rows<{ id: string; enabledEvents: string[] }>(Prisma.sql`SELECT id,
    enabled_events AS "enabledEvents" FROM webhook_endpoints
    WHERE project_id = ${first.projectId} AND environment = ${first.environment}::"Environment" AND status = 'enabled'`);
  const rows = events.flatMap((event) =>
    endpoints
      .filter((endpoint) => subscribesTo(endpoint.enabledEvents, event.type))
      .map((endpoint) => Prisma.sql`(${newId("webhookDelivery")}, ${endpoint.id}, ${event.id}, ${first.projectId}, ${event.createdAt}, ${event.createdAt}, ${event.createdAt})`),
  );
  if (rows.length > 0) {
    await statements.write(Prisma.sql`INSERT INTO webhook_deliveries (id, endpoint_id, event_id, project_id, next_attempt_at,
      created_at, updated_at) VALUES ${Prisma.join(rows)}`);
  }
  return rows.length;
}
