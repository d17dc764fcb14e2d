// Sending webhook deliveries (spec 6.4): at-least-once, success is any 2xx within 10 seconds, anything else is
// retried on the schedule below with ±10% jitter. Every attempt is stored. An endpoint that has had no
// successful delivery for 72 hours is disabled at its next failure (spec 3.5) and its team notified.
//
// The spec's schedule (attempts 6 to 9 "about 6 h each") ends about 26.5 hours after the first attempt, while
// disabling follows "about 72 hours of continuous failure": the two are kept apart. A delivery gives up after
// its ninth attempt; the endpoint is disabled once failures have run for 72 hours without a success, whichever
// deliveries they belonged to.
import { clock } from "../clock";
import { db } from "../db";
import { config } from "../env";
import { renderEventBody } from "../events/events";
import type { Prisma, WebhookEndpoint } from "../generated/prisma/client";
import { newId } from "../ids";
import { recordNotification } from "../notifications/notifications";
import { abandonPendingDeliveries, transitionWebhookDelivery } from "./delivery-transition";
import { endpointState, lockWebhookEndpoint, transitionWebhookEndpoint } from "./endpoint-transition";
import { disableInsecureEndpoint } from "./insecure-endpoints";
import { isHttpsUrl, postWebhook, type DeliveryOutcome } from "./outbound";
import { SIGNATURE_HEADER, signWebhookPayload } from "./signature";
import type { TenantEnvironment } from "../tenant";

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** Delay before attempt n+1 after attempt n failed (n = 1..8). */
export const RETRY_DELAYS_MS: readonly number[] = [MINUTE_MS, 5 * MINUTE_MS, 30 * MINUTE_MS, 2 * HOUR_MS, 6 * HOUR_MS, 6 * HOUR_MS, 6 * HOUR_MS, 6 * HOUR_MS];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
export const RETRY_JITTER_RATIO = 0.1;
export const DISABLE_AFTER_FAILING_MS = 72 * HOUR_MS;
export const DELIVERY_TIMEOUT_MS = 10_000;
/**
 * How long a claimed delivery is reserved for its worker (WEBHOOK_CLAIM_SECONDS, 60 by default). Each attempt claims
 * its own delivery just before sending, so a claim covers one attempt (at most DELIVERY_TIMEOUT_MS and its
 * bookkeeping), never a batch.
 */
const claimMs = () => config().WEBHOOK_CLAIM_SECONDS * 1000;
/** The deliveries this process has claimed and not yet finished: what it gives back as it stops. */
const heldClaims = new Set<string>();
/** Attempts in flight at once to one endpoint: a hanging receiver holds at most this many workers. */
export const MAX_IN_FLIGHT_PER_ENDPOINT = 4;

/** The wait after failed attempt `attemptsMade`, jittered so retries from one outage do not arrive together. */
export function retryDelayMs(attemptsMade: number, random: () => number = Math.random): number {
  const base = RETRY_DELAYS_MS[attemptsMade - 1];
  if (base === undefined) throw new RangeError(`no retry after attempt ${attemptsMade}`);
  return Math.round(base * (1 + RETRY_JITTER_RATIO * (2 * random() - 1)));
}

function succeeded(outcome: DeliveryOutcome): boolean {
  return outcome.kind === "response" && outcome.status >= 200 && outcome.status < 300;
}

/** Sandbox endpoints may reach private addresses when WEBHOOK_ALLOW_PRIVATE_TARGETS is on; live ones never. */
export function mayTargetPrivateAddresses(environment: TenantEnvironment): boolean {
  return environment === "sandbox" && config().WEBHOOK_ALLOW_PRIVATE_TARGETS;
}

/** Secrets that sign right now: the current one, and a rolled predecessor during its overlap. */
export function signingSecrets(endpoint: { secret: string; previousSecret: string | null; previousSecretExpiresAt: Date | null }, now: Date): string[] {
  const overlapping = endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now;
  return overlapping ? [endpoint.secret, endpoint.previousSecret!] : [endpoint.secret];
}

/**
 * Up to `limit` due deliveries, chosen fairly: each endpoint offers its oldest due deliveries up to its free
 * in-flight places (MAX_IN_FLIGHT_PER_ENDPOINT less those being attempted), and projects take turns, oldest
 * first within a turn, so one project's backlog or dead endpoints cannot hold back another's. Nothing is
 * claimed here: each attempt claims its delivery as it starts (`attemptDelivery`).
 */
export async function findDueDeliveries(limit: number): Promise<string[]> {
  const now = clock.now();
  const rows = await db().$queryRaw<{ id: string }[]>`
    WITH offered AS (
      SELECT endpoint.project_id, due.id, due.next_attempt_at
      FROM webhook_endpoints endpoint
      CROSS JOIN LATERAL (
        SELECT delivery.id, delivery.next_attempt_at FROM webhook_deliveries delivery
        WHERE delivery.endpoint_id = endpoint.id AND delivery.status = 'pending' AND delivery.next_attempt_at <= ${now}
          AND (delivery.locked_until IS NULL OR delivery.locked_until <= ${now})
        ORDER BY delivery.next_attempt_at
        LIMIT GREATEST(0, ${MAX_IN_FLIGHT_PER_ENDPOINT} - (
          SELECT count(*) FROM webhook_deliveries busy
          WHERE busy.endpoint_id = endpoint.id AND busy.status = 'pending' AND busy.locked_until > ${now}))
      ) due
    )
    SELECT id FROM (
      SELECT id, next_attempt_at, row_number() OVER (PARTITION BY project_id ORDER BY next_attempt_at, id) AS turn FROM offered
    ) ranked
    ORDER BY turn, next_attempt_at, id
    LIMIT ${limit}`;
  return rows.map((row) => row.id);
}

export async function countPendingDeliveries(): Promise<number> {
  return db().webhookDelivery.count({ where: { status: "pending", nextAttemptAt: { lte: clock.now() } } });
}

export type AttemptResult = "succeeded" | "retry_scheduled" | "failed" | "abandoned" | "not_claimed";

export interface AttemptOptions {
  timeoutMs?: number;
  random?: () => number;
}

/**
 * Claims one due delivery for this worker, unless another holds it or its endpoint already has
 * MAX_IN_FLIGHT_PER_ENDPOINT attempts in flight. The endpoint's row lock makes the count and the claim one step
 * for every worker.
 */
async function claimOne(deliveryId: string, now: Date): Promise<boolean> {
  const until = new Date(now.getTime() + claimMs());
  return db().$transaction(async (transaction) => {
    const [delivery] = await transaction.$queryRaw<{ endpoint_id: string }[]>`SELECT endpoint_id FROM webhook_deliveries WHERE id = ${deliveryId}`;
    if (!delivery || !(await lockWebhookEndpoint(transaction, delivery.endpoint_id))) return false;
    const count = await transaction.$executeRaw`
      UPDATE webhook_deliveries SET locked_until = ${until}
      WHERE id = ${deliveryId} AND status = 'pending' AND next_attempt_at <= ${now} AND (locked_until IS NULL OR locked_until <= ${now})
        AND (SELECT count(*) FROM webhook_deliveries busy
             WHERE busy.endpoint_id = ${delivery.endpoint_id} AND busy.status = 'pending' AND busy.locked_until > ${now}) < ${MAX_IN_FLIGHT_PER_ENDPOINT}`;
    return count === 1;
  });
}

/**
 * Makes the next attempt of one delivery, if it is due, nobody else holds it and its endpoint has room in
 * flight. Idempotent in the sense the background drivers need: a delivery that is not due, finished, claimed
 * elsewhere or waiting for its endpoint is left alone.
 */
export async function attemptDelivery(deliveryId: string, options: AttemptOptions = {}): Promise<AttemptResult> {
  const attemptedAt = clock.now();
  if (!(await claimOne(deliveryId, attemptedAt))) return "not_claimed";
  heldClaims.add(deliveryId);
  try {
    return await attemptClaimed(deliveryId, attemptedAt, options);
  } finally {
    heldClaims.delete(deliveryId);
  }
}

/**
 * Gives back the claims of the attempts still in flight in this process, for a process that is stopping: another
 * process may make those attempts at once rather than when the claims lapse. An attempt given back here may still
 * reach its receiver from this process as it exits, so the receiver can see it twice (at-least-once delivery; the
 * Service-Event-Id header lets it tell). Answers how many it gave back.
 */
export async function releaseHeldDeliveryClaims(): Promise<number> {
  if (heldClaims.size === 0) return 0;
  const ids = [...heldClaims];
  heldClaims.clear();
  return db().$executeRaw`UPDATE webhook_deliveries SET locked_until = NULL WHERE id = ANY(${ids}) AND status = 'pending'`;
}

async function attemptClaimed(deliveryId: string, attemptedAt: Date, options: AttemptOptions): Promise<AttemptResult> {
  const delivery = await db().webhookDelivery.findUnique({ where: { id: deliveryId }, include: { endpoint: true, event: true } });
  if (!delivery || delivery.status !== "pending") return "not_claimed";
  const { endpoint, event } = delivery;
  if (endpoint.status !== "enabled") {
    await transitionWebhookDelivery(db(), deliveryId, "abandon", { now: attemptedAt });
    return "abandoned";
  }
  // Registration refuses anything but https; an older row that is not reaches no network at all.
  if (!isHttpsUrl(endpoint.url)) {
    await db().$transaction(async (transaction) => {
      const current = (await lockWebhookEndpoint(transaction, endpoint.id))!;
      if (endpointState(current) === "enabled") await disableInsecureEndpoint(transaction, current, attemptedAt);
      else await transitionWebhookDelivery(transaction, deliveryId, "abandon", { now: attemptedAt });
    });
    return "abandoned";
  }

  const body = renderEventBody(event, endpoint.apiVersion);
  const signature = signWebhookPayload(body, signingSecrets(endpoint, attemptedAt), Math.floor(attemptedAt.getTime() / 1000));
  const outcome = await postWebhook({
    url: endpoint.url,
    body,
    headers: { "Content-Type": "application/json", [SIGNATURE_HEADER]: signature, "Service-Event-Id": event.id },
    allowPrivate: mayTargetPrivateAddresses(endpoint.environment),
    timeoutMs: options.timeoutMs ?? DELIVERY_TIMEOUT_MS,
  });
  const number = delivery.attemptCount + 1;
  const ok = succeeded(outcome);

  return db().$transaction(async (transaction) => {
    // The endpoint first, then the delivery rows: the order every attempt takes, so disabling an endpoint
    // (which moves all its pending deliveries) never deadlocks with another attempt's bookkeeping.
    const current = (await lockWebhookEndpoint(transaction, endpoint.id))!;
    await transaction.webhookAttempt.create({
      data: {
        id: newId("webhookAttempt"),
        deliveryId,
        endpointId: endpoint.id,
        eventId: event.id,
        number,
        attemptedAt,
        responseStatus: outcome.kind === "response" ? outcome.status : null,
        error: outcome.kind === "error" ? outcome.error : null,
        latencyMs: outcome.latencyMs,
        responseExcerpt: outcome.kind === "response" ? outcome.bodyExcerpt : outcome.message.slice(0, 1024),
        succeeded: ok,
      },
    });
    if (ok) {
      await transitionWebhookDelivery(transaction, deliveryId, "succeed", { now: attemptedAt, changes: { attemptCount: number } });
      await transaction.webhookEndpoint.update({ where: { id: endpoint.id }, data: { failingSince: null, lastSuccessAt: attemptedAt } });
      return "succeeded";
    }
    const exhausted = number >= MAX_ATTEMPTS;
    await transitionWebhookDelivery(transaction, deliveryId, exhausted ? "fail" : "schedule_retry", {
      now: attemptedAt,
      changes: { attemptCount: number, ...(exhausted ? {} : { nextAttemptAt: new Date(attemptedAt.getTime() + retryDelayMs(number, options.random)) }) },
    });
    // The failure run starts at the first failure after the last success (or at this one).
    const failingSince = current.failingSince ?? attemptedAt;
    if (!current.failingSince) await transaction.webhookEndpoint.update({ where: { id: endpoint.id }, data: { failingSince } });
    if (current.status === "enabled" && attemptedAt.getTime() - failingSince.getTime() >= DISABLE_AFTER_FAILING_MS) {
      await disableFailingEndpoint(transaction, { ...current, failingSince }, attemptedAt);
      return "abandoned";
    }
    return exhausted ? "failed" : "retry_scheduled";
  });
}

/** The lifecycle's automatic move (spec 3.5): disabled with its event, pending deliveries stopped, its team told. */
async function disableFailingEndpoint(transaction: Prisma.TransactionClient, endpoint: WebhookEndpoint, now: Date): Promise<void> {
  await transitionWebhookEndpoint(transaction, endpoint, "disable_for_failing", { now });
  await abandonPendingDeliveries(transaction, endpoint.id, now);
  await recordNotification(transaction, {
    projectId: endpoint.projectId,
    kind: "webhook_endpoint_disabled",
    subject: `Webhook endpoint ${endpoint.id} was disabled`,
    body: [
      `Deliveries to ${endpoint.url} have failed since ${(endpoint.failingSince ?? now).toISOString()} without a success for 72 hours,`,
      `so the endpoint ${endpoint.id} has been disabled and its pending deliveries stopped.`,
      `Fix the receiver, then re-enable it with POST /partner/v1/webhook_endpoints/${endpoint.id}/enable`,
      "and replay the events you missed with POST /partner/v1/events/{id}/replay.",
    ].join("\n"),
  });
}

/** One pass of the delivery sweep: finds what is due, fairly, and attempts it, a few at a time. */
export async function deliverDueWebhooks(options: { limit?: number; concurrency?: number; timeoutMs?: number } = {}): Promise<number> {
  const due = await findDueDeliveries(options.limit ?? 50);
  const concurrency = options.concurrency ?? 8;
  let next = 0;
  let attempted = 0;
  const worker = async () => {
    while (next < due.length) {
      const id = due[next++]!;
      if ((await attemptDelivery(id, { timeoutMs: options.timeoutMs })) !== "not_claimed") attempted += 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, due.length) }, worker));
  return attempted;
}
