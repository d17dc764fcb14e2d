// The time a tenant's objects and events carry (docs/sandbox.md, "Test clock"): real time in live; in the
// sandbox, real time plus the project's test-clock offset (0 until the project first advances it). Lending
// objects (applications, decisions, accounts, instalments, ledger rows, payments, identity checks) and their
// events are stamped by it, and background work decides what is due on it. Ids, webhook deliveries and their
// retries, tokens, rate limits and every retention period stay on real time (lib/clock.ts).
import { ListenedCache } from "./change-feed";
import { clock, DAY_MS, offsetClock, type Clock } from "./clock";
import { db } from "./db";
import type { Tenant } from "./tenant";

// A change to a clock's offset is announced as a change to its project (the `projects` channel), which drops the
// entry here as it drops the project's cached state (lib/projects/project-state.ts, which the admission reads).
const offsets = new ListenedCache<number>("projects", { ttlMs: 5_000, maxEntries: 10_000 });

/** Days the project's sandbox test clock is ahead of real time; 0 until first advanced. */
async function readSandboxOffsetDays(projectId: string): Promise<number> {
  const offset = await offsets.read(projectId, async () => {
    const [row] = await db().$queryRaw<{ offset_days: number }[]>`SELECT offset_days FROM sandbox_clocks WHERE project_id = ${projectId}`;
    return row?.offset_days ?? 0;
  });
  return offset ?? 0;
}

/** The clock of `tenant`'s objects; an application or account row serves as its own tenant. */
export async function tenantClock(tenant: Pick<Tenant, "projectId" | "environment" | "sandboxClockOffsetDays">): Promise<Clock> {
  if (tenant.environment === "live") return clock;
  return offsetClock(await tenantClockOffsetMs(tenant));
}

/** How far `tenant`'s clock runs ahead of real time: 0 in live. */
export async function tenantClockOffsetMs(tenant: Pick<Tenant, "projectId" | "environment" | "sandboxClockOffsetDays">): Promise<number> {
  if (tenant.environment === "live") return 0;
  const offsetDays = tenant.sandboxClockOffsetDays ?? (await readSandboxOffsetDays(tenant.projectId));
  return offsetDays * DAY_MS;
}

/** The tenant's time now: `(await tenantClock(tenant)).now()`. */
export async function tenantNow(tenant: Pick<Tenant, "projectId" | "environment" | "sandboxClockOffsetDays">): Promise<Date> {
  return (await tenantClock(tenant)).now();
}
