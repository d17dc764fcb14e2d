// A project's partner API usage per UTC day (the dashboard's Usage chart, `cli usage`), from the rows the
// batched counter writes (lib/usage/counter.ts): they trail the requests by up to its flush interval.
import { DAY_MS, clock } from "../clock";
import { db } from "../db";
import type { Tenant } from "../tenant";
import { dayOf } from "./counter";

export const USAGE_RETENTION_DAYS = 90;

export interface UsageDay {
  /** YYYY-MM-DD, UTC. */
  date: string;
  requests: number;
  rate_limited: number;
}

/** The `days` UTC days ending with `now`'s, oldest first, a row for every day (zeros where there was no traffic). */
export async function usageByDay(tenant: Tenant, options: { days?: number; now: Date }): Promise<UsageDay[]> {
  const days = options.days ?? 30;
  const today = Math.floor(options.now.getTime() / DAY_MS);
  const first = today - days + 1;
  const rows = await db().projectUsageDay.findMany({
    where: { projectId: tenant.projectId, environment: tenant.environment, day: { gte: new Date(first * DAY_MS), lte: new Date(today * DAY_MS) } },
  });
  const byDay = new Map(rows.map((row) => [row.day.toISOString().slice(0, 10), row]));
  return Array.from({ length: days }, (_, index) => {
    const date = dayOf(first + index);
    const row = byDay.get(date);
    return { date, requests: row?.requests ?? 0, rate_limited: row?.rateLimited ?? 0 };
  });
}

/** Deletes the days more than USAGE_RETENTION_DAYS before today (UTC); answers how many rows. */
export async function pruneExpiredUsage(): Promise<number> {
  const today = Math.floor(clock.now().getTime() / DAY_MS);
  const { count } = await db().projectUsageDay.deleteMany({ where: { day: { lt: new Date((today - USAGE_RETENTION_DAYS + 1) * DAY_MS) } } });
  return count;
}
