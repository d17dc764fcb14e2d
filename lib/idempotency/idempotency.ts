// Idempotency-Key for create-type partner POSTs (spec 4.12). A key is scoped to project + environment and
// remembers its first request's fingerprint (method, path, body) and outcome for 24 hours.
//
// The key is claimed in its own short transaction, so a concurrent duplicate is told at once that the first is
// still running (409 idempotency_key_in_progress) instead of queueing behind it. The outcome is stored in the
// same transaction as the write it protects, so a created object never exists without its record, or the
// reverse. A 5xx releases the key so a retry can run; a claim whose process died is taken over after a minute.
//
// The database cannot tell a dead first request from a slow one, so a takeover may meet a first request that is
// still running. Rather than trust a timer, every claim is fenced by the moment it was taken (`locked_at`,
// which a takeover moves on): recording the outcome, recording a final failure and releasing the key each
// act only while `locked_at` is still the claimant's. The outcome is recorded in the write's own transaction,
// and fails it when the claim was taken over (complete_idempotency_key raises), so the slow first request
// commits nothing and only the retry takes effect; a takeover counts only while the record is still in
// progress, so a first request that completes at that moment is replayed, not run again.
import { createHash } from "node:crypto";
import { clock } from "../clock";
import { db, sqlState } from "../db";
import { execute } from "../fast-lane";
import { Prisma } from "../generated/prisma/client";
import { ApiError } from "../errors";
import { newId } from "../ids";
import type { TenantEnvironment } from "../tenant";

export const IDEMPOTENCY_HEADER = "idempotency-key";
export const IDEMPOTENCY_RETENTION_MS = 24 * 3600_000;
/** A first request still "in progress" after this long is presumed dead and its key may be claimed again. */
export const IN_PROGRESS_STALE_MS = 60_000;
/** The wait a request told `idempotency_key_in_progress` is given (Retry-After). */
const IN_PROGRESS_RETRY_AFTER_MS = 1_000;
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

export interface KeyScope {
  projectId: string;
  environment: TenantEnvironment;
}

/** A claim a request holds: its record, and the moment it claimed it (its fence: a takeover moves it on). */
export interface HeldClaim {
  recordId: string;
  claimedAt: Date;
}

export type Claim = ({ kind: "claimed" } & HeldClaim) | { kind: "replay"; status: number; body: unknown };

/** The error complete_idempotency_key raises when the claim is no longer the caller's. */
const CLAIM_TAKEN_OVER_SQLSTATE = "IK001";

/** Whether `error` says that this request's claim was taken over by a retry, so it did and recorded nothing. */
export function isClaimTakenOver(error: unknown): boolean {
  return sqlState(error) === CLAIM_TAKEN_OVER_SQLSTATE;
}

/** The answer to a request whose claim was taken over: the retry that holds it now has the outcome. */
export function claimTakenOverError(): ApiError {
  return new ApiError("idempotency_key_in_progress", {
    message: "A retry with this Idempotency-Key took over after this request ran for more than a minute; this request changed nothing. Retry to get the outcome.",
    retryAfterMs: IN_PROGRESS_RETRY_AFTER_MS,
  });
}

/** The request's key, null when absent; 400 idempotency_key_malformed unless 1-255 printable ASCII characters. */
export function readIdempotencyKey(request: Request): string | null {
  const key = request.headers.get(IDEMPOTENCY_HEADER);
  if (key === null) return null;
  if (!KEY_PATTERN.test(key)) throw new ApiError("idempotency_key_malformed");
  return key;
}

function canonicalJson(value: unknown): string {
  // A parsed body may hold dates (a timestamp field its schema turns into a Date), which have no own fields.
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** Same method, path and body (field order and whitespace aside) give the same fingerprint. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash("sha256").update(`${method} ${path}\n${canonicalJson(body)}`).digest("hex");
}

// The claim and the outcome are written on every create, so they are hand-written statements: Prisma's ORM
// calls cost several times a raw statement's CPU (docs/performance.md). The claim runs on the fast lane; the
// outcome in the handler's transaction.
async function insertClaim(scope: KeyScope, key: string, fingerprint: string, now: Date): Promise<string | null> {
  const recordId = newId("idempotencyKey");
  const inserted = await execute(Prisma.sql`INSERT INTO idempotency_keys (id, project_id, environment, key, fingerprint,
    status, locked_at, created_at, expires_at) VALUES (${recordId}, ${scope.projectId}, ${scope.environment}::"Environment",
    ${key}, ${fingerprint}, 'in_progress', ${now}, ${now}, ${new Date(now.getTime() + IDEMPOTENCY_RETENTION_MS)})
    ON CONFLICT (project_id, environment, key) DO NOTHING`);
  return inserted === 1 ? recordId : null;
}

export async function claimIdempotencyKey(scope: KeyScope, key: string, fingerprint: string): Promise<Claim> {
  const now = clock.now();
  const where = { projectId_environment_key: { projectId: scope.projectId, environment: scope.environment, key } };
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const recordId = await insertClaim(scope, key, fingerprint, now);
    if (recordId) return { kind: "claimed", recordId, claimedAt: now };
    const existing = await db().idempotencyKey.findUnique({ where });
    if (!existing) continue; // released between our insert and read: try again
    if (existing.expiresAt <= now) {
      await db().idempotencyKey.deleteMany({ where: { id: existing.id, expiresAt: { lte: now } } });
      continue;
    }
    if (existing.fingerprint !== fingerprint) throw new ApiError("idempotency_key_reused");
    if (existing.status === "completed") return { kind: "replay", status: existing.responseStatus!, body: existing.responseBody };
    if (existing.lockedAt.getTime() <= now.getTime() - IN_PROGRESS_STALE_MS) {
      const taken = await db().idempotencyKey.updateMany({
        where: { id: existing.id, status: "in_progress", lockedAt: existing.lockedAt },
        data: { lockedAt: now },
      });
      if (taken.count === 1) return { kind: "claimed", recordId: existing.id, claimedAt: now };
      continue; // completed meanwhile (replay it) or taken over by another retry (in progress)
    }
    throw new ApiError("idempotency_key_in_progress", { retryAfterMs: IN_PROGRESS_RETRY_AFTER_MS });
  }
  throw new ApiError("idempotency_key_in_progress", { retryAfterMs: IN_PROGRESS_RETRY_AFTER_MS });
}

/**
 * The statement that records the outcome: run it inside the transaction of the write the key protects. It fails
 * that transaction when the claim was taken over (see `isClaimTakenOver`).
 */
export function idempotencyOutcomeStatement(claim: HeldClaim, status: number, body: unknown): Prisma.Sql {
  // `response_body` is json (not jsonb): the stored text is exactly this serialisation, replayed as is.
  return Prisma.sql`SELECT complete_idempotency_key(${claim.recordId}, ${claim.claimedAt}, ${status}, ${JSON.stringify(body)}::json)`;
}

/**
 * Records a final failure's outcome (a 4xx the same request would meet again), outside any transaction. False
 * when the claim was taken over: the retry holding it records its own outcome.
 */
export async function completeIdempotencyKey(claim: HeldClaim, status: number, body: unknown): Promise<boolean> {
  try {
    await db().$executeRaw(idempotencyOutcomeStatement(claim, status, body));
    return true;
  } catch (error) {
    if (isClaimTakenOver(error)) return false;
    throw error;
  }
}

/** Gives the key back after a fault (5xx), so the client's retry can run the request; a claim taken over is not ours to give. */
export async function releaseIdempotencyKey(claim: HeldClaim): Promise<void> {
  await db().idempotencyKey.deleteMany({ where: { id: claim.recordId, status: "in_progress", lockedAt: claim.claimedAt } });
}

/** Deletes keys past their 24-hour retention; returns how many. */
export async function pruneExpiredIdempotencyKeys(): Promise<number> {
  const { count } = await db().idempotencyKey.deleteMany({ where: { expiresAt: { lte: clock.now() } } });
  return count;
}
