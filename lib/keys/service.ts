// API key management for the partner API (spec 4.5, 3.6) and the OAuth client-secret endpoint (4.7).
import type { z } from "zod";
import { changeFeed } from "../change-feed";
import { clock } from "../clock";
import { db, inTransaction, type DatabaseClient } from "../db";
import { assertSameEnvironment, tenantObjectOrThrow, tenantWhere, type Tenant } from "../tenant";
import { ApiError, notFound } from "../errors";
import { paginate, type PageRequest } from "../wire/pagination";
import { transition } from "../lifecycle";
import { lockRow } from "../row-lock";
import type { ApiKey, Prisma } from "../generated/prisma/client";
import { newKeyRow } from "./secrets";
import { sandboxOnlyOriginIndex, type createKeyBodySchema, type listKeysQuerySchema } from "./schemas";
import { keyStatus, serializeKey } from "./serialize";
import { API_KEY_LIFECYCLE } from "./state-machine";

const HOUR_MS = 3_600_000;

function statusFilter(status: z.output<typeof listKeysQuerySchema>["status"], now: Date): Prisma.ApiKeyWhereInput {
  if (status === "revoked") return { status: "revoked" };
  if (status === "expired") return { status: "active", expiresAt: { lte: now } };
  if (status === "active") return { status: "active", OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] };
  return {};
}

export async function listKeys(options: { tenant: Tenant; query: z.output<typeof listKeysQuerySchema>; url: string }) {
  const { tenant, query } = options;
  const now = clock.now();
  const where: Prisma.ApiKeyWhereInput = {
    ...tenantWhere(tenant),
    ...(query.type ? { type: query.type } : {}),
    ...statusFilter(query.status, now),
  };
  return paginate({
    kind: "apiKey",
    page: query satisfies PageRequest,
    url: options.url,
    fetch: (window) => db().apiKey.findMany({ where: { AND: [where, window.id ? { id: window.id } : {}] }, orderBy: window.orderBy, take: window.take }),
    exists: async (id) => (await db().apiKey.count({ where: { AND: [where, { id }] } })) === 1,
    serialize: (key) => serializeKey(key, now),
  });
}

/** The key, if it is the caller's: another project's key is 404, the other environment's is 401. */
async function getOwnKeyOrThrow(tenant: Tenant, id: string, database: DatabaseClient = db()) {
  const key = await database.apiKey.findFirst({ where: { id, projectId: tenant.projectId } });
  return tenantObjectOrThrow(tenant, key, () => notFound("API key", id));
}

export async function retrieveKey({ tenant, id }: { tenant: Tenant; id: string }) {
  return serializeKey(await getOwnKeyOrThrow(tenant, id), clock.now());
}

export async function createKey(options: { tenant: Tenant; input: z.output<typeof createKeyBodySchema>; transaction?: DatabaseClient }) {
  const { tenant, input, transaction: database = db() } = options;
  const environment = input.environment ?? tenant.environment;
  // Minting keys for the other environment from this one would be an escalation (sandbox credentials are
  // often handled less carefully than live ones).
  assertSameEnvironment(tenant, { environment });
  assertOriginsFitEnvironment(environment, input.allowed_origins ?? []);
  const now = clock.now();
  const { secret, row } = newKeyRow({ projectId: tenant.projectId, type: input.type, environment, createdAt: now });
  const key = await database.apiKey.create({ data: { ...row, allowedOrigins: input.allowed_origins ?? [] } });
  return { ...serializeKey(key, now), secret };
}

/**
 * Issues a successor with a new secret; the predecessor keeps working until `predecessor_expires_at`
 * (`overlap_hours` from now; 0 ends it at once). Only an unrevoked, never-rolled key can be rolled (a key
 * only ever expires by being rolled).
 */
export async function rollKey(options: { tenant: Tenant; id: string; overlapHours: number; transaction?: DatabaseClient }) {
  const { tenant, id, overlapHours, transaction: database = db() } = options;
  const now = clock.now();
  const predecessorExpiresAt = new Date(now.getTime() + overlapHours * HOUR_MS);
  return inTransaction(database, async (transaction) => {
    const predecessor = await getOwnKeyOrThrow(tenant, id, transaction);
    // Lock the row so two concurrent rolls cannot both create a successor.
    await lockRow(transaction, "api_keys", id);
    const current = await transaction.apiKey.findUniqueOrThrow({ where: { id }, include: { successor: true } });
    if (current.status === "revoked") throw new ApiError("conflict", { message: "A revoked key cannot be rolled." });
    if (current.successor) throw new ApiError("conflict", { message: `This key was already rolled; roll its successor ${current.successor.id}.` });
    const { secret, row } = newKeyRow({
      projectId: tenant.projectId,
      type: predecessor.type,
      environment: predecessor.environment,
      createdAt: now,
      predecessorId: predecessor.id,
    });
    // The successor serves the same pages as its predecessor.
    const successor = await transaction.apiKey.create({ data: { ...row, allowedOrigins: predecessor.allowedOrigins } });
    await transaction.apiKey.update({ where: { id }, data: { expiresAt: predecessorExpiresAt } });
    forgetCachedKey(id);
    return { ...serializeKey(successor, now), secret, predecessor: predecessor.id, predecessor_expires_at: predecessorExpiresAt.toISOString() };
  });
}

/** Drops this process's cached copy of a key at once, ahead of the change notification to every process. */
function forgetCachedKey(id: string): void {
  changeFeed().announce("api_keys", id);
}

/** Revokes at once and for good. Tokens it already minted stay valid until they expire (spec 3.6). */
export async function revokeKey({ tenant, id }: { tenant: Tenant; id: string }) {
  const key = await getOwnKeyOrThrow(tenant, id);
  const now = clock.now();
  // Revoking a revoked key changes nothing and answers it as it is.
  if (key.status === "revoked") return serializeKey(key, now);
  const revoked = await transition(db(), API_KEY_LIFECYCLE, "revoke", {
    status: key.status,
    now,
    write: (to) => db().apiKey.update({ where: { id }, data: { status: to, revokedAt: now } }),
    object: () => ({}),
  });
  forgetCachedKey(id);
  return serializeKey(revoked, now);
}

/**
 * A live key's pages must be https: plain http://localhost is for a sandbox key, used while a page is built
 * (docs/apply-js.md). The origin is named: it is a site's address, no person's.
 */
function assertOriginsFitEnvironment(environment: ApiKey["environment"], origins: readonly string[]): void {
  const index = sandboxOnlyOriginIndex(environment, origins);
  if (index < 0) return;
  const message = `${origins[index]} may be listed on a sandbox key only: a live key's origins must be https.`;
  throw new ApiError("validation_failed", { message, detail: [{ field: `allowed_origins.${index}`, reason: "sandbox_only", message }] });
}

/**
 * Sets which origins' pages may start applications with a publishable key (allowedOriginsSchema's; empty: any in
 * the sandbox, none live), replacing its list. The API's POST /partner/v1/keys/{id} and the dashboard both call it.
 * A revoked key, or a rolled one past its overlap, starts nothing again: changing its list is a 409.
 */
export async function setAllowedOrigins(options: { tenant: Tenant; id: string; allowedOrigins: string[]; transaction?: DatabaseClient }) {
  const { tenant, id, allowedOrigins, transaction: database = db() } = options;
  return inTransaction(database, async (transaction) => {
    await getOwnKeyOrThrow(tenant, id, transaction);
    // Locked, so a revoke or a roll landing meanwhile is seen before the list is written.
    await lockRow(transaction, "api_keys", id);
    const key = await transaction.apiKey.findUniqueOrThrow({ where: { id }, include: { successor: { select: { id: true } } } });
    if (key.type !== "publishable") {
      throw new ApiError("validation_failed", {
        message: "Allowed origins apply to publishable keys only.",
        detail: [{ field: "allowed_origins", reason: "not_allowed", message: "allowed_origins applies to publishable keys only: a secret key is never used from a page." }],
      });
    }
    const now = clock.now();
    const status = keyStatus(key, now);
    if (status === "revoked") throw new ApiError("conflict", { message: "This key is revoked: it starts nothing, so its allowed origins cannot change." });
    if (status === "expired") {
      throw new ApiError("conflict", { message: `This key was rolled and its overlap has ended: set the allowed origins of its successor${key.successor ? ` ${key.successor.id}` : ""}.` });
    }
    assertOriginsFitEnvironment(key.environment, allowedOrigins);
    const updated = await transaction.apiKey.update({ where: { id }, data: { allowedOrigins } });
    return serializeKey(updated, now);
  });
}

/** The OAuth "second client secret": another secret key of the tenant, the authenticating key's project and environment. */
export async function createClientSecret({ tenant, clientId }: { tenant: Tenant; clientId: string }) {
  const now = clock.now();
  const { secret, row } = newKeyRow({ projectId: tenant.projectId, type: "secret", environment: tenant.environment, createdAt: now });
  const key = await db().apiKey.create({ data: row });
  return {
    object: "client_secret" as const,
    id: key.id,
    client_id: clientId,
    secret,
    environment: key.environment,
    livemode: key.environment === "live",
    created_at: key.createdAt.toISOString(),
  };
}

/** `last_used_at` is kept to the minute: a key minting many tokens would otherwise queue writes on one row. */
const LAST_USED_RESOLUTION_MS = 60_000;
const lastMarked = new Map<string, number>();

/** Records that a key authenticated a token request (at most once a minute per key and process). */
export async function markKeyUsed(keyId: string): Promise<void> {
  const now = clock.now();
  const previous = lastMarked.get(keyId);
  if (previous !== undefined && Math.abs(now.getTime() - previous) < LAST_USED_RESOLUTION_MS) return;
  lastMarked.set(keyId, now.getTime());
  if (lastMarked.size > 10_000) lastMarked.clear();
  await db().apiKey.update({ where: { id: keyId }, data: { lastUsedAt: now } });
}
