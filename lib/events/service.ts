// The events API (spec 4.6): history, one event, replay to endpoints, the live stream the CLI forwarder reads,
// and the 30-day retention.
import type { z } from "zod";
import { changeFeed } from "../change-feed";
import { clock } from "../clock";
import { config } from "../env";
import { db, type DatabaseClient } from "../db";
import type { Event, Prisma } from "../generated/prisma/client";
import { assertSameEnvironment, type Tenant } from "../tenant";
import { ApiError } from "../errors";
import { paginate, type PageRequest } from "../http/pagination";
import { isIdOf, newId } from "../ids";
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

/**
 * Deletes events recorded more than 30 days ago (their deliveries and attempts go with them); returns how many.
 * Timed on when they were recorded, not `created_at`: an advanced sandbox's events carry its future time.
 */
export async function pruneExpiredEvents(): Promise<number> {
  const { count } = await db().event.deleteMany({ where: { recordedAt: { lt: new Date(clock.now().getTime() - EVENT_RETENTION_MS) } } });
  return count;
}

/** While the change feed is not listening (starting, or reconnecting), streams read at this pace instead. */
const STREAM_FALLBACK_POLL_MS = 500;
/** A comment line keeps proxies from closing an idle stream; each one also reads, should a wake-up go missing. */
const STREAM_HEARTBEAT_MS = 15_000;
const STREAM_PAGE = 100;

/** What the open event streams of this process are doing, for operators (GET /healthz/internal). */
const streamActivity = { open: 0, reads: 0 };

export function eventStreamActivity(): { open: number; reads: number } {
  return { ...streamActivity };
}

/**
 * Server-sent events of the caller's new events, oldest first, from now (or after `Last-Event-ID`): each frame
 * is `id: evt_…`, `event: <type>`, `data: <the body a webhook would carry>`. For the CLI forwarder. The opening
 * block carries the starting cursor as `id:`, so a client that reconnects before any event resumes from there.
 * A stream reads when its project records an event (the change feed wakes it), not on a timer, and closes after
 * STREAM_MAX_SECONDS; the client reconnects with Last-Event-ID.
 */
export async function streamEvents(options: { tenant: Tenant; types?: EventType[]; lastEventId: string | null; signal: AbortSignal }): Promise<ReadableStream<Uint8Array>> {
  const { tenant } = options;
  const scope = { projectId: tenant.projectId, environment: tenant.environment };
  const wakeKey = `${tenant.projectId}:${tenant.environment}`;
  let cursor = options.lastEventId;
  if (!cursor) cursor = (await db().event.findFirst({ where: scope, orderBy: { id: "desc" }, select: { id: true } }))?.id ?? "evt_";
  const maxSeconds = config().STREAM_MAX_SECONDS;
  const encoder = new TextEncoder();
  const timers: NodeJS.Timeout[] = [];
  let unsubscribe: () => void = () => undefined;
  let closed = false;
  let reading = false;
  let readAgain = false;
  let output!: ReadableStreamDefaultController<Uint8Array>;

  const send = (text: string) => {
    if (!closed) output.enqueue(encoder.encode(text));
  };
  const stop = () => {
    if (closed) return;
    closed = true;
    for (const timer of timers) clearInterval(timer);
    unsubscribe();
    streamActivity.open -= 1;
  };
  const read = async (): Promise<void> => {
    if (closed) return;
    if (reading) {
      readAgain = true;
      return;
    }
    reading = true;
    try {
      do {
        readAgain = false;
        streamActivity.reads += 1;
        const events = await db().event.findMany({
          where: { ...scope, id: { gt: cursor! }, ...(options.types ? { type: { in: options.types } } : {}) },
          orderBy: { id: "asc" },
          take: STREAM_PAGE,
        });
        for (const event of events) {
          send(`id: ${event.id}\nevent: ${event.type}\ndata: ${renderEventBody(event)}\n\n`);
          cursor = event.id;
        }
        if (events.length === STREAM_PAGE) readAgain = true;
      } while (readAgain && !closed);
    } catch (error) {
      if (!closed) output.error(error);
      stop();
    } finally {
      reading = false;
    }
  };

  options.signal.addEventListener("abort", stop);
  return new ReadableStream<Uint8Array>({
    start(controller) {
      output = controller;
      streamActivity.open += 1;
      const opening = isIdOf("event", cursor!) ? `id: ${cursor}\n` : "";
      send(`: streaming events of ${tenant.projectId} (${tenant.environment})\nretry: 1000\n${opening}\n`);
      unsubscribe = changeFeed().subscribe("events", (changed) => {
        if (changed === null || changed === wakeKey) void read();
      });
      timers.push(
        setInterval(() => {
          if (!changeFeed().isListening()) void read();
        }, STREAM_FALLBACK_POLL_MS),
        setInterval(() => {
          send(": heartbeat\n\n");
          void read();
        }, STREAM_HEARTBEAT_MS),
        setTimeout(() => {
          send(`: closing after ${maxSeconds} s; reconnect with Last-Event-ID to resume\n\n`);
          if (!closed) output.close();
          stop();
        }, maxSeconds * 1000),
      );
      void read();
    },
    cancel: stop,
  });
}
