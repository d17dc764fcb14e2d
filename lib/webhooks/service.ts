// The webhook endpoints API (spec 4.6, 2.7, 3.5): register, list, read, update, enable, roll the secret, delete.
import type { z } from "zod";
import { clock } from "../clock";
import { db, inTransaction, type DatabaseClient } from "../db";
import { EVENT_TYPES } from "../events/events";
import type { Prisma, WebhookEndpoint } from "../generated/prisma/client";
import { tenantObjectOrThrow, tenantWhere, type Tenant } from "../tenant";
import { ApiError, notFound } from "../errors";
import { paginate, type PageRequest } from "../wire/pagination";
import { newId, randomToken } from "../ids";
import { lockRow } from "../row-lock";
import { mayTargetPrivateAddresses } from "./deliver";
import { checkWebhookUrl, isHttpsUrl, type UrlProblem } from "./outbound";
import {
  WEBHOOK_ENDPOINTS_PER_PROJECT,
  type createWebhookEndpointBodySchema,
  type listWebhookEndpointsQuerySchema,
  type updateWebhookEndpointBodySchema,
} from "./schemas";
import { abandonPendingDeliveries } from "./delivery-transition";
import { endpointState, lockWebhookEndpoint, transitionWebhookEndpoint } from "./endpoint-transition";
import { serializeWebhookEndpoint } from "./serialize";

const HOUR_MS = 3_600_000;

/** Where a developer whose receiver runs on their own machine should go instead: the forwarder, as the README runs it. */
const LOCAL_RECEIVER_HINT = "For a receiver on your own machine, run the forwarder: npm run --silent cli -- listen --forward-to http://localhost:4242/webhooks";

const MUST_BE_HTTPS = `Webhook URLs must use https. ${LOCAL_RECEIVER_HINT}`;

const URL_PROBLEMS: Record<Exclude<UrlProblem, "not_https">, string> = {
  not_a_url: "The url is not an absolute URL.",
  has_credentials: "The url must not carry a user name or password.",
  has_fragment: "The url must not have a #fragment.",
  private_address: `The url resolves to a loopback, private, link-local or metadata address. ${LOCAL_RECEIVER_HINT}`,
  unresolvable: "The url's host name could not be resolved: DNS gave no address for it, or no answer in time.",
};

function mustBeHttps(): ApiError {
  return new ApiError("validation_failed", { message: MUST_BE_HTTPS, detail: [{ field: "url", reason: "must_be_https", message: MUST_BE_HTTPS }] });
}

export function newWebhookSecret(): string {
  return `whsec_${randomToken(40)}`;
}

/** https always (spec 4.6); public addresses, or in the sandbox with WEBHOOK_ALLOW_PRIVATE_TARGETS private ones too. */
async function assertAcceptableUrl(url: string, environment: Tenant["environment"]): Promise<void> {
  const problem = await checkWebhookUrl(url, { allowPrivate: mayTargetPrivateAddresses(environment) });
  if (problem === null) return;
  if (problem === "not_https") throw mustBeHttps();
  throw new ApiError("webhook_endpoint_url_invalid", { message: URL_PROBLEMS[problem], detail: [{ field: "url", reason: problem, message: URL_PROBLEMS[problem] }] });
}

function assertKnownEvents(enabledEvents: readonly string[]): string[] {
  if (enabledEvents[0] === "*") return ["*"];
  const unknown = enabledEvents.filter((type) => !(EVENT_TYPES as readonly string[]).includes(type));
  if (unknown.length > 0) {
    throw new ApiError("webhook_event_unknown", {
      message: `Unknown event type(s): ${unknown.join(", ")}.`,
      detail: unknown.map((type) => ({ field: `enabled_events.${enabledEvents.indexOf(type)}`, reason: "unknown_event_type", message: `${type} is not an event type.` })),
    });
  }
  return [...new Set(enabledEvents)];
}

export async function createWebhookEndpoint(options: { tenant: Tenant; input: z.output<typeof createWebhookEndpointBodySchema>; transaction?: DatabaseClient }) {
  const { tenant, input, transaction: database = db() } = options;
  const enabledEvents = assertKnownEvents(input.enabled_events);
  await assertAcceptableUrl(input.url, tenant.environment);
  const now = clock.now();
  const secret = newWebhookSecret();
  return inTransaction(database, async (transaction) => {
    // Serialise creations per project so two concurrent ones cannot both pass the limit.
    await lockRow(transaction, "projects", tenant.projectId);
    const existing = await transaction.webhookEndpoint.count({ where: tenantWhere(tenant) });
    if (existing >= WEBHOOK_ENDPOINTS_PER_PROJECT) {
      throw new ApiError("webhook_endpoint_limit", { message: `A project has at most ${WEBHOOK_ENDPOINTS_PER_PROJECT} webhook endpoints per environment.` });
    }
    const endpoint = await transaction.webhookEndpoint.create({
      data: {
        id: newId("webhookEndpoint"),
        projectId: tenant.projectId,
        environment: tenant.environment,
        url: input.url,
        enabledEvents,
        description: input.description ?? null,
        apiVersion: input.api_version ?? null,
        metadata: input.metadata ?? {},
        secret,
        createdAt: now,
        updatedAt: now,
      },
    });
    return { ...serializeWebhookEndpoint(endpoint), secret };
  });
}

/** The caller's endpoint: another project's is 404, the other environment's 401 `environment_mismatch`. */
export async function getOwnWebhookEndpointOrThrow(tenant: Tenant, id: string): Promise<WebhookEndpoint> {
  const endpoint = await db().webhookEndpoint.findFirst({ where: { id, projectId: tenant.projectId } });
  return tenantObjectOrThrow(tenant, endpoint, () => notFound("webhook endpoint", id));
}

export async function retrieveWebhookEndpoint({ tenant, id }: { tenant: Tenant; id: string }) {
  return serializeWebhookEndpoint(await getOwnWebhookEndpointOrThrow(tenant, id));
}

export async function listWebhookEndpoints(options: { tenant: Tenant; query: z.output<typeof listWebhookEndpointsQuerySchema>; url: string }) {
  const where = tenantWhere(options.tenant);
  return paginate({
    kind: "webhookEndpoint",
    page: options.query satisfies PageRequest,
    url: options.url,
    fetch: (window) => db().webhookEndpoint.findMany({ where: { AND: [where, window.id ? { id: window.id } : {}] }, orderBy: window.orderBy, take: window.take }),
    exists: async (id) => (await db().webhookEndpoint.count({ where: { ...where, id } })) === 1,
    serialize: serializeWebhookEndpoint,
  });
}

/**
 * Disabled by its owner, or enabled again: a move of the lifecycle unless the endpoint is already there. An endpoint
 * whose URL is not https (registered before https was required) is enabled only together with an https URL.
 * Disabling stops its pending deliveries at once (`abandoned`, as the automatic disable does), so they can be
 * recovered as soon as it is enabled again rather than only after each one's next attempt comes round.
 */
async function moveByOwner(transaction: Prisma.TransactionClient, endpoint: WebhookEndpoint, disabled: boolean, now: Date): Promise<WebhookEndpoint> {
  const state = endpointState(endpoint);
  if (disabled ? state === "disabled_manual" : state === "enabled") return endpoint;
  if (!disabled && !isHttpsUrl(endpoint.url)) throw mustBeHttps();
  const moved = await transitionWebhookEndpoint(transaction, endpoint, disabled ? "disable" : "enable", { now });
  if (disabled) await abandonPendingDeliveries(transaction, endpoint.id, now);
  return moved;
}

export async function updateWebhookEndpoint({ tenant, id, input }: { tenant: Tenant; id: string; input: z.output<typeof updateWebhookEndpointBodySchema> }) {
  await getOwnWebhookEndpointOrThrow(tenant, id);
  const enabledEvents = input.enabled_events ? assertKnownEvents(input.enabled_events) : undefined;
  if (input.url !== undefined) await assertAcceptableUrl(input.url, tenant.environment);
  const now = clock.now();
  return db().$transaction(async (transaction) => {
    const endpoint = await lockWebhookEndpoint(transaction, id);
    if (!endpoint) throw notFound("webhook endpoint", id);
    const edited = await transaction.webhookEndpoint.update({
      where: { id },
      data: {
        ...(input.url !== undefined ? { url: input.url } : {}),
        ...(enabledEvents ? { enabledEvents } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.metadata !== undefined ? { metadata: input.metadata } : {}),
        updatedAt: now,
      },
    });
    const moved = input.disabled === undefined ? edited : await moveByOwner(transaction, edited, input.disabled, now);
    return serializeWebhookEndpoint(moved);
  });
}

/** Re-enables a disabled endpoint (spec 3.5). Deliveries stopped while it was disabled are not resent: replay them. */
export async function enableWebhookEndpoint({ tenant, id }: { tenant: Tenant; id: string }) {
  await getOwnWebhookEndpointOrThrow(tenant, id);
  return db().$transaction(async (transaction) => {
    const endpoint = await lockWebhookEndpoint(transaction, id);
    if (!endpoint) throw notFound("webhook endpoint", id);
    return serializeWebhookEndpoint(await moveByOwner(transaction, endpoint, false, clock.now()));
  });
}

/**
 * A new secret; the old one keeps signing (a second `v1`) for `overlapHours`, so receivers can switch over. The
 * row is locked first so concurrent rolls take turns: each keeps the secret the one before it returned.
 */
export async function rollWebhookSecret({ tenant, id, overlapHours }: { tenant: Tenant; id: string; overlapHours: number }) {
  await getOwnWebhookEndpointOrThrow(tenant, id);
  const now = clock.now();
  const secret = newWebhookSecret();
  return db().$transaction(async (transaction) => {
    const endpoint = await lockWebhookEndpoint(transaction, id);
    if (!endpoint) throw notFound("webhook endpoint", id);
    const updated = await transaction.webhookEndpoint.update({
      where: { id },
      data: {
        secret,
        previousSecret: overlapHours > 0 ? endpoint.secret : null,
        previousSecretExpiresAt: overlapHours > 0 ? new Date(now.getTime() + overlapHours * HOUR_MS) : null,
        updatedAt: now,
      },
    });
    return { ...serializeWebhookEndpoint(updated), secret };
  });
}

export async function deleteWebhookEndpoint({ tenant, id }: { tenant: Tenant; id: string }) {
  await getOwnWebhookEndpointOrThrow(tenant, id);
  await db().webhookEndpoint.delete({ where: { id } });
  return { id, object: "webhook_endpoint" as const, deleted: true };
}
