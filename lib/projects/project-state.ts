// The little a request needs to know about its project beyond the token: whether it is suspended, whether
// its outstanding tokens were revoked and which capabilities it has; and, for the token endpoint, its client id
// and granted scopes. Cached
// per process so bearer checks stay off the database on the hot path; a change to the project drops every
// process's copy as it commits (lib/change-feed.ts).
import { changeFeed, ListenedCache } from "../change-feed";
import { db } from "../db";
import type { KeyEnvironment } from "../keys/secrets";
import type { ProjectLimitSettings } from "../ratelimit/policies";

const TTL_MS = 5_000;

export interface ProjectState {
  id: string;
  clientId: string;
  scopes: string[];
  /** Features the platform switched on for the project (lib/projects/capabilities.ts). */
  capabilities: string[];
  internalAudience: boolean;
  status: "active" | "suspended";
  tokensNotBefore: Record<KeyEnvironment, Date | null>;
  limitSettings: ProjectLimitSettings;
}

const cache = new ListenedCache<ProjectState | null>("projects", { ttlMs: TTL_MS, maxEntries: 10_000 });

export async function readProjectState(projectId: string): Promise<ProjectState | null> {
  return (await cache.read(projectId, () => loadProjectState(projectId))) ?? null;
}

async function loadProjectState(projectId: string): Promise<ProjectState | null> {
  const row = await db().project.findUnique({
    where: { id: projectId },
    select: {
      id: true,
      clientId: true,
      scopes: true,
      capabilities: true,
      internalAudience: true,
      status: true,
      tier: true,
      sandboxTokensNotBefore: true,
      liveTokensNotBefore: true,
      rateLimitPerSecond: true,
      rateLimitBurst: true,
      rateLimitConcurrent: true,
    },
  });
  return row
    ? {
        id: row.id,
        clientId: row.clientId,
        scopes: row.scopes,
        capabilities: row.capabilities,
        internalAudience: row.internalAudience,
        status: row.status,
        tokensNotBefore: { sandbox: row.sandboxTokensNotBefore, live: row.liveTokensNotBefore },
        limitSettings: {
          tier: row.tier,
          platform: { ratePerSecond: row.rateLimitPerSecond, burst: row.rateLimitBurst, concurrent: row.rateLimitConcurrent },
        },
      }
    : null;
}

/** Drops this process's copy at once, ahead of the change notification. */
export function forgetProjectState(projectId: string): void {
  changeFeed().announce("projects", projectId);
}

/** Whether a token issued at `issuedAtSeconds` predates a "revoke outstanding tokens" action. */
export function isRevokedByProject(state: ProjectState, environment: KeyEnvironment, issuedAtSeconds: number): boolean {
  const notBefore = state.tokensNotBefore[environment];
  // Token times are whole seconds: a token minted in the same second as the revocation is revoked too.
  return notBefore !== null && issuedAtSeconds <= Math.floor(notBefore.getTime() / 1000);
}
