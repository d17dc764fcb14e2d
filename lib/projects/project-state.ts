// The little a request needs to know about its project beyond the token: whether it is suspended, whether
// its outstanding tokens were revoked, which capabilities it has and how far its sandbox test clock has been
// advanced; and, for the token endpoint, its client id and granted scopes. Cached
// per process so bearer checks stay off the database on the hot path; a change to the project drops every
// process's copy as it commits (lib/change-feed.ts).
import { changeFeed, ListenedCache } from "../change-feed";
import { db } from "../db";
import type { ProjectStatus, ProjectTier } from "../generated/prisma/client";
import type { ProjectLimitSettings } from "../ratelimit/policies";
import type { TenantEnvironment } from "../tenant";

const TTL_MS = 5_000;

export interface ProjectState {
  id: string;
  clientId: string;
  scopes: string[];
  /** Features the platform switched on for the project (lib/projects/capabilities.ts). */
  capabilities: string[];
  internalAudience: boolean;
  status: "active" | "suspended";
  tokensNotBefore: Record<TenantEnvironment, Date | null>;
  limitSettings: ProjectLimitSettings;
  /** Days the project's sandbox test clock is ahead of real time (lib/tenant-clock.ts); 0 until first advanced. */
  sandboxClockOffsetDays: number;
}

interface ProjectStateRow {
  id: string;
  client_id: string;
  scopes: string[];
  capabilities: string[];
  internal_audience: boolean;
  status: ProjectStatus;
  tier: ProjectTier;
  sandbox_tokens_not_before: Date | null;
  live_tokens_not_before: Date | null;
  rate_limit_per_second: number | null;
  rate_limit_burst: number | null;
  rate_limit_concurrent: number | null;
  sandbox_clock_offset_days: number;
}

const cache = new ListenedCache<ProjectState | null>("projects", { ttlMs: TTL_MS, maxEntries: 10_000 });

export async function readProjectState(projectId: string): Promise<ProjectState | null> {
  return (await cache.read(projectId, () => loadProjectState(projectId))) ?? null;
}

// One statement, the clock joined in: Prisma would read a relation with a second query.
async function loadProjectState(projectId: string): Promise<ProjectState | null> {
  const [row] = await db().$queryRaw<ProjectStateRow[]>`SELECT project.id, project.client_id, project.scopes, project.capabilities,
      project.internal_audience, project.status::text AS status, project.tier::text AS tier, project.sandbox_tokens_not_before,
      project.live_tokens_not_before, project.rate_limit_per_second, project.rate_limit_burst, project.rate_limit_concurrent,
      COALESCE(clock.offset_days, 0) AS sandbox_clock_offset_days
    FROM projects project LEFT JOIN sandbox_clocks clock ON clock.project_id = project.id
    WHERE project.id = ${projectId}`;
  return row
    ? {
        id: row.id,
        clientId: row.client_id,
        scopes: row.scopes,
        capabilities: row.capabilities,
        internalAudience: row.internal_audience,
        status: row.status,
        tokensNotBefore: { sandbox: row.sandbox_tokens_not_before, live: row.live_tokens_not_before },
        limitSettings: {
          tier: row.tier,
          platform: { ratePerSecond: row.rate_limit_per_second, burst: row.rate_limit_burst, concurrent: row.rate_limit_concurrent },
        },
        sandboxClockOffsetDays: row.sandbox_clock_offset_days,
      }
    : null;
}

/** Drops this process's copy at once, ahead of the change notification. */
export function forgetProjectState(projectId: string): void {
  changeFeed().announce("projects", projectId);
}

/** Whether a token issued at `issuedAtSeconds` predates a "revoke outstanding tokens" action. */
export function isRevokedByProject(state: ProjectState, environment: TenantEnvironment, issuedAtSeconds: number): boolean {
  const notBefore = state.tokensNotBefore[environment];
  // Token times are whole seconds: a token minted in the same second as the revocation is revoked too.
  return notBefore !== null && issuedAtSeconds <= Math.floor(notBefore.getTime() / 1000);
}
