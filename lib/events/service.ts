// The events API (spec 4.6): history, one event, replay to endpoints, the live stream the CLI forwarder reads,
// and the 30-day retention.
import type { z } from "zod";
import { clock } from "../clock";
import { db, type DatabaseClient } from "../db";
import type { Event, Prisma } from "../generated/prisma/client";
import { assertSameEnvironment, type Tenant } from "../tenant";
import { ApiError } from "../errors";
import { paginate, type PageRequest } from "../http/pagination";
import { newId } from "../ids";
import { subscribesTo } from "../webhooks/deliveries";
import type { listEventsQuerySchema } from "./schemas";
import { renderEventBody, serializeEvent, type EventType } from "./events";

export const EVENT_RETENTION_MS = 30 * 24 * 3_600_000;

export async function listEvents(options: { tenant: Tenant; query: z.output<typeof listEventsQuerySchema>; url: string }) {
  const { tenant, query } = options;
  const where: Prisma.EventWhereInput = {
    projectId: tenant.projectId,
    environment: tenant.environment,
    ...(query.type ? { type: query.type } : {}),
    ...(query.created_after ? { createdAt: { gt: query.created_after } } : {}),
  };
  return paginate({
    kind: "event",
    page: query satisfies PageRequest,
    url: options.url,
    fetch: (window) => db().event.findMany({ where: { AND: [where, window.id ? { id: window.id } : {}] }, orderBy: window.orderBy, take: window.take }),
    exists: async (id) => (await db().event.count({ where: { id, projectId: tenant.projectId, environment: tenant.environment } })) === 1,
    serialize: (event) => serializeEvent(event),
  });
}

async function getOwnEventOrThrow(tenant: Tenant, id: string): Promise<Event> {
  const event = await db().event.findFirst({ where: { id, projectId: tenant.projectId } });
  if (!event) throw new ApiError("not_found", { message: `No such event: ${id}.` });
  assertSameEnvironment(tenant, event);
  return event;
}

export async function retrieveEvent({ tenant, id }: { tenant: Tenant; id: string }) {
  return serializeEvent(await getOwnEventOrThrow(tenant, id));
}

/**
 * Queues the event again, with its original id and body (signed afresh at sending), to one endpoint or to
 * every enabled endpoint subscribed to its type. Answers what was queued.
 */
export async function replayEvent(options: { tenant: Tenant; id: string; endpointId?: string; transaction?: DatabaseClient }) {
  const { tenant, id, endpointId, transaction: database = db() } = options;
  const event = await getOwnEventOrThrow(tenant, id);
  const endpoints = await db().webhookEndpoint.findMany({
    where: { projectId: tenant.projectId, environment: tenant.environment, ...(endpointId ? { id: endpointId } : { status: "enabled" }) },
  });
  if (endpointId) {
    const [endpoint] = endpoints;
    if (!endpoint) throw new ApiError("resource_not_found", { message: `No such webhook endpoint: ${endpointId}.`, detail: [{ field: "endpoint_id", reason: "not_found" }] });
    if (endpoint.status !== "enabled") throw new ApiError("conflict", { message: `Webhook endpoint ${endpointId} is disabled; enable it first.` });
  }
  const targets = endpointId ? endpoints : endpoints.filter((endpoint) => subscribesTo(endpoint.enabledEvents, event.type));
  const now = clock.now();
  const deliveries = targets.map((endpoint) => ({
    id: newId("webhookDelivery"),
    endpointId: endpoint.id,
    eventId: event.id,
    projectId: tenant.projectId,
    replay: true,
    nextAttemptAt: now,
    createdAt: now,
    updatedAt: now,
  }));
  if (deliveries.length > 0) await database.webhookDelivery.createMany({ data: deliveries });
  return {
    object: "event_replay" as const,
    event: event.id,
    deliveries: deliveries.map((delivery) => ({ id: delivery.id, endpoint_id: delivery.endpointId, status: "pending" as const })),
  };
}

/** Deletes events past the 30-day retention (their deliveries and attempts go with them); returns how many. */
export async function pruneExpiredEvents(): Promise<number> {
  const { count } = await db().event.deleteMany({ where: { createdAt: { lt: new Date(clock.now().getTime() - EVENT_RETENTION_MS) } } });
  return count;
}

const STREAM_POLL_MS = 500;
const STREAM_HEARTBEAT_MS = 15_000;

/**
 * Server-sent events of the caller's new events, oldest first, from now (or after `Last-Event-ID`): each frame
 * is `id: evt_…`, `event: <type>`, `data: <the body a webhook would carry>`. For the CLI forwarder.
 */
export async function streamEvents(options: { tenant: Tenant; types?: EventType[]; lastEventId: string | null; signal: AbortSignal }): Promise<ReadableStream<Uint8Array>> {
  const { tenant } = options;
  const scope = { projectId: tenant.projectId, environment: tenant.environment };
  let cursor = options.lastEventId;
  if (!cursor) cursor = (await db().event.findFirst({ where: scope, orderBy: { id: "desc" }, select: { id: true } }))?.id ?? "evt_";
  const encoder = new TextEncoder();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const stop = () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
  options.signal.addEventListener("abort", stop);
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`: streaming events of ${tenant.projectId} (${tenant.environment})\nretry: 1000\n\n`));
      let sinceHeartbeat = 0;
      const poll = async () => {
        if (stopped) return;
        try {
          const events = await db().event.findMany({
            where: { ...scope, id: { gt: cursor! }, ...(options.types ? { type: { in: options.types } } : {}) },
            orderBy: { id: "asc" },
            take: 100,
          });
          for (const event of events) {
            controller.enqueue(encoder.encode(`id: ${event.id}\nevent: ${event.type}\ndata: ${renderEventBody(event)}\n\n`));
            cursor = event.id;
          }
          sinceHeartbeat += STREAM_POLL_MS;
          if (sinceHeartbeat >= STREAM_HEARTBEAT_MS) {
            controller.enqueue(encoder.encode(": heartbeat\n\n"));
            sinceHeartbeat = 0;
          }
        } catch (error) {
          stop();
          controller.error(error);
          return;
        }
        if (!stopped) timer = setTimeout(() => void poll(), STREAM_POLL_MS);
      };
      void poll();
    },
    cancel: stop,
  });
}
