// The per-project usage counter the route builder feeds: every partner-ring request whose project is known adds
// one to its project, environment and UTC day in memory, and a flush every FLUSH_INTERVAL_MS (and at shutdown)
// writes each key's sum with one upsert, so the database sees a statement per flush, never a row per request.
// A failed flush keeps its counts for the next one. The state lives on globalThis: Next loads the route handlers
// and the server's shutdown as separate module graphs, and one process must keep one tally.
import { DAY_MS, timers } from "../clock";
import { db } from "../db";
import { Prisma } from "../generated/prisma/client";
import { log } from "../log";
import type { Tenant } from "../tenant";

export const FLUSH_INTERVAL_MS = 10_000;

interface PendingUsage {
  projectId: string;
  environment: Tenant["environment"];
  /** Days since 1970-01-01, UTC. */
  dayNumber: number;
  requests: number;
  rateLimited: number;
}

interface UsageTally {
  pending: Map<string, PendingUsage>;
  stopFlushing: (() => void) | null;
}

const TALLY_KEY = Symbol.for("lending.usage-tally");

function tally(): UsageTally {
  const holder = globalThis as { [TALLY_KEY]?: UsageTally };
  return (holder[TALLY_KEY] ??= { pending: new Map(), stopFlushing: null });
}

/** Counts one answered request of `tenant` at `at` (the platform's time), a 429 or not. Synchronous and cheap. */
export function countRequest(tenant: Tenant, at: Date, rateLimited: boolean): void {
  const state = tally();
  const dayNumber = Math.floor(at.getTime() / DAY_MS);
  const key = `${tenant.projectId} ${tenant.environment} ${dayNumber}`;
  let usage = state.pending.get(key);
  if (!usage) {
    usage = { projectId: tenant.projectId, environment: tenant.environment, dayNumber, requests: 0, rateLimited: 0 };
    state.pending.set(key, usage);
  }
  usage.requests += 1;
  if (rateLimited) usage.rateLimited += 1;
  state.stopFlushing ??= timers.every(FLUSH_INTERVAL_MS, () => void flushUsage().catch((error) => log.warn("usage flush failed; its counts wait for the next", { error: String(error) })), { unref: true });
}

export function dayOf(dayNumber: number): string {
  return new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);
}

/** Writes what was counted since the last flush, one row per project, environment and day; answers how many rows. */
export async function flushUsage(): Promise<number> {
  const state = tally();
  if (state.pending.size === 0) return 0;
  const batch = [...state.pending.values()];
  state.pending = new Map();
  try {
    await db().$executeRaw`
      INSERT INTO project_usage_days (project_id, environment, day, requests, rate_limited)
      VALUES ${Prisma.join(batch.map((usage) => Prisma.sql`(${usage.projectId}, ${usage.environment}::"Environment", ${dayOf(usage.dayNumber)}::date, ${usage.requests}, ${usage.rateLimited})`))}
      ON CONFLICT (project_id, environment, day) DO UPDATE
      SET requests = project_usage_days.requests + EXCLUDED.requests, rate_limited = project_usage_days.rate_limited + EXCLUDED.rate_limited`;
  } catch (error) {
    for (const usage of batch) {
      const key = `${usage.projectId} ${usage.environment} ${usage.dayNumber}`;
      const since = state.pending.get(key);
      if (since) {
        since.requests += usage.requests;
        since.rateLimited += usage.rateLimited;
      } else state.pending.set(key, usage);
    }
    throw error;
  }
  return batch.length;
}

/** At shutdown (or in a test): stops the interval and writes what is left. The next count starts it again. */
export async function stopUsageFlushing(): Promise<number> {
  const state = tally();
  state.stopFlushing?.();
  state.stopFlushing = null;
  return flushUsage();
}
