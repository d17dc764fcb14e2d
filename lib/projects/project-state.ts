// The little a request needs to know about its project beyond the token: whether it is suspended and whether
// its outstanding tokens were revoked; and, for the token endpoint, its client id and granted scopes. Cached per process for a few seconds so bearer checks stay off the
// database on the hot path; writes here invalidate this process's copy immediately, others within the TTL.
import { db } from "../db";
import type { KeyEnvironment } from "../keys/secrets";
import type { ProjectLimitSettings } from "../ratelimit/policies";

const TTL_MS = 5_000;

export interface ProjectState {
  id: string;
  clientId: string;
  scopes: string[];
  internalAudience: boolean;
  status: "active" | "suspended";
  tokensNotBefore: Record<KeyEnvironment, Date | null>;
  limitSettings: ProjectLimitSettings;
}

const cache = new Map<string, { state: ProjectState | null; expiresAt: number }>();

export async function readProjectState(projectId: string): Promise<ProjectState | null> {
  const hit = cache.get(projectId);
  if (hit && hit.expiresAt > performance.now()) return hit.state;
  const row = await db().project.findUnique({
    where: { id: projectId },
    select: {
      id: true,
      clientId: true,
      scopes: true,
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
  const state: ProjectState | null = row
    ? {
        id: row.id,
        clientId: row.clientId,
        scopes: row.scopes,
        internalAudience: row.internalAudience,
        status: row.status,
        tokensNotBefore: { sandbox: row.sandboxTokensNotBefore, live: row.liveTokensNotBefore },
        limitSettings: {
          tier: row.tier,
          platform: { ratePerSecond: row.rateLimitPerSecond, burst: row.rateLimitBurst, concurrent: row.rateLimitConcurrent },
        },
      }
    : null;
  cache.set(projectId, { state, expiresAt: performance.now() + TTL_MS });
  return state;
}

export function forgetProjectState(projectId: string): void {
  cache.delete(projectId);
}

/** Whether a token issued at `issuedAtSeconds` predates a "revoke outstanding tokens" action. */
export function isRevokedByProject(state: ProjectState, environment: KeyEnvironment, issuedAtSeconds: number): boolean {
  const notBefore = state.tokensNotBefore[environment];
  // Token times are whole seconds: a token minted in the same second as the revocation is revoked too.
  return notBefore !== null && issuedAtSeconds <= Math.floor(notBefore.getTime() / 1000);
}
