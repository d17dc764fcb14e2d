// The events API (spec 4.6): history, one event, replay to endpoints, the live stream the CLI forwarder reads,
// and the 30-day retention.
import type { z } from "zod";
import { changeFeed } from "../change-feed";
import { clock, timers } from "../clock";
import { config } from "../env";
import { db, type DatabaseClient } from "../db";
import type { Event, Prisma } from "../generated/prisma/client";
import { tenantObjectOrThrow, tenantWhere, type Tenant } from "../tenant";
import { ApiError, notFound } from "../errors";
import { log } from "../log";
import { paginate, type PageRequest } from "../wire/pagination";
import { isIdOf, newId } from "../ids";
import { subscribesTo } from "../webhooks/deliveries";
import type { listEventsQuerySchema } from "./schemas";
import { renderEventBody, serializeEvent, type EventType } from "./events";

export const EVENT_RETENTION_MS = 30 * 24 * 3_600_000;

export async function listEvents(options: { tenant: Tenant; query: z.output<typeof listEventsQuerySchema>; url: string }) {
  const { tenant, query } = options;
  const where: Prisma.EventWhereInput = {
    ...tenantWhere(tenant),
    ...(query.type ? { type: query.type } : {}),
    ...(query.created_after || query.created_before ? { createdAt: { gt: query.created_after, lt: query.created_before } } : {}),
  };
  return paginate({
    kind: "event",
    page: query satisfies PageRequest,
    url: options.url,
    fetch: (window) => db().event.findMany({ where: { AND: [where, window.id ? { id: window.id } : {}] }, orderBy: window.orderBy, take: window.take }),
    exists: async (id) => (await db().event.count({ where: { id, ...tenantWhere(tenant) } })) === 1,
    serialize: (event) => serializeEvent(event),
  });
}

async function getOwnEventOrThrow(tenant: Tenant, id: string): Promise<Event> {
  const event = await db().event.findFirst({ where: { id, projectId: tenant.projectId } });
  return tenantObjectOrThrow(tenant, event, () => notFound("event", id));
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
    where: { ...tenantWhere(tenant), ...(endpointId ? { id: endpointId } : { status: "enabled" }) },
  });
  if (endpointId) {
    const [endpoint] = endpoints;
    if (!endpoint) throw notFound("webhook endpoint", endpointId, { field: "endpoint_id" });
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
/** Events read and handed over at a time: with one page queued, the most of a project's events a stream holds. */
const STREAM_PAGE = 100;
/**
 * A client that has taken nothing the stream offered for this long (platform clock) has fallen behind: its
 * socket is full and a page waits behind it. The stream is cut off; the client resumes with Last-Event-ID.
 */
export const STREAM_STALL_SECONDS = 30;

/** What the open event streams of this process are doing, for operators (GET /healthz/internal). */
const streamActivity = { open: 0, reads: 0 };

export function eventStreamActivity(): { open: number; reads: number } {
  return { ...streamActivity };
}

/**
 * Server-sent events of the caller's new events, oldest first, from now (or after `Last-Event-ID`): each frame
 * is `id: evt_…`, `event: <type>`, `data: <the body a webhook would carry>`. For the CLI forwarder. The opening
 * block carries the starting cursor as `id:`, so a client that reconnects before any event resumes from there.
 *
 * A pull source: the next page is read only when the client has taken the last one, so a client that stops
 * reading holds a page of events in memory, not every event recorded meanwhile, and one that takes nothing for
 * STREAM_STALL_SECONDS is cut off. It reads when its project records an event (the change feed wakes it), not
 * on a timer, and closes after STREAM_MAX_SECONDS; the client reconnects with Last-Event-ID.
 */
export async function streamEvents(options: { tenant: Tenant; types?: EventType[]; lastEventId: string | null; signal: AbortSignal }): Promise<ReadableStream<Uint8Array>> {
  const { tenant } = options;
  const scope = tenantWhere(tenant);
  const wakeKey = `${tenant.projectId}:${tenant.environment}`;
  let cursor = options.lastEventId;
  if (!cursor) cursor = (await db().event.findFirst({ where: scope, orderBy: { id: "desc" }, select: { id: true } }))?.id ?? "evt_";
  const maxSeconds = config().STREAM_MAX_SECONDS;
  const encoder = new TextEncoder();
  const cancelTimers: Array<() => void> = [];
  let unsubscribe: () => void = () => undefined;
  let closed = false;
  /** Whether events may wait unread: a wake-up came, or the last read filled a page. */
  let readNeeded = true;
  let heartbeatDue = false;
  let expired = false;
  /** Wakes a pull that waits for something to send; null when no pull waits. */
  let wakePull: (() => void) | null = null;
  /** When the stream offered what its client has not yet taken (ms, platform clock); null while it is taken. */
  let offeredAt: number | null = null;
  let output!: ReadableStreamDefaultController<Uint8Array>;

  const stop = () => {
    if (closed) return;
    closed = true;
    for (const cancel of cancelTimers) cancel();
    unsubscribe();
    streamActivity.open -= 1;
    wakePull?.();
  };
  const cutOffIfStalled = () => {
    if (closed || offeredAt === null || clock.now().getTime() - offeredAt <= STREAM_STALL_SECONDS * 1000) return;
    log.info("event stream cut off: its client took nothing for too long", { project_id: tenant.projectId, stall_seconds: STREAM_STALL_SECONDS });
    // An abort, not a fault: the server ends the response without logging it as a failure.
    output.error(new DOMException(`The client took nothing for ${STREAM_STALL_SECONDS} s; reconnect with Last-Event-ID.`, "AbortError"));
    stop();
  };
  /** Something may be worth sending: wake the waiting pull, or, when none waits, see whether the client is stuck. */
  const nudge = () => (wakePull ? wakePull() : cutOffIfStalled());
  const readPage = () => {
    streamActivity.reads += 1;
    return db().event.findMany({
      where: { ...scope, id: { gt: cursor! }, ...(options.types ? { type: { in: options.types } } : {}) },
      orderBy: { id: "asc" },
      take: STREAM_PAGE,
    });
  };
  /** The next thing to send: a page of events, a heartbeat or the closing comment; waits while there is none. */
  const pull = async (controller: ReadableStreamDefaultController<Uint8Array>) => {
    offeredAt = null;
    try {
      while (!closed) {
        if (expired) {
          controller.enqueue(encoder.encode(`: closing after ${maxSeconds} s; reconnect with Last-Event-ID to resume\n\n`));
          controller.close();
          stop();
          return;
        }
        if (readNeeded) {
          readNeeded = false;
          const events = await readPage();
          if (closed) return;
          if (events.length === STREAM_PAGE) readNeeded = true;
          if (events.length > 0) {
            cursor = events.at(-1)!.id;
            heartbeatDue = false;
            controller.enqueue(encoder.encode(events.map((event) => `id: ${event.id}\nevent: ${event.type}\ndata: ${renderEventBody(event)}\n\n`).join("")));
            break;
          }
          continue;
        }
        if (heartbeatDue) {
          heartbeatDue = false;
          controller.enqueue(encoder.encode(": heartbeat\n\n"));
          break;
        }
        await new Promise<void>((resolve) => (wakePull = resolve));
        wakePull = null;
      }
      offeredAt = clock.now().getTime();
    } catch (error) {
      stop();
      throw error;
    }
  };

  options.signal.addEventListener("abort", stop);
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        output = controller;
        streamActivity.open += 1;
        const opening = isIdOf("event", cursor!) ? `id: ${cursor}\n` : "";
        controller.enqueue(encoder.encode(`: streaming events of ${tenant.projectId} (${tenant.environment})\nretry: 1000\n${opening}\n`));
        offeredAt = clock.now().getTime();
        unsubscribe = changeFeed().subscribe("events", (changed) => {
          if (changed !== null && changed !== wakeKey) return;
          readNeeded = true;
          nudge();
        });
        cancelTimers.push(
          timers.every(STREAM_FALLBACK_POLL_MS, () => {
            if (changeFeed().isListening()) return;
            readNeeded = true;
            nudge();
          }),
          timers.every(STREAM_HEARTBEAT_MS, () => {
            heartbeatDue = true;
            readNeeded = true;
            nudge();
          }),
          timers.after(maxSeconds * 1000, () => {
            expired = true;
            nudge();
          }),
        );
      },
      pull,
      cancel: stop,
    },
    // One chunk queued at most: a page, the opening block, a heartbeat or the closing comment.
    new CountQueuingStrategy({ highWaterMark: 1 }),
  );
}
