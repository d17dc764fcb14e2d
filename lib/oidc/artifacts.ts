// The table behind oidc-provider's models (sessions, interactions, codes, tokens, grants), read without
// oidc-provider: the adapter (lib/oidc/adapter.ts) writes it, and the pages and the accounts API read it here.
// Codes and tokens are stored under a SHA-256 of their value, and their payload keeps no copy of it, so a read
// of the table never yields a usable token.
import { createHash } from "node:crypto";
import { clock } from "../clock";
import { db } from "../db";

/** The kinds whose id is itself a bearer credential. */
export const HASHED_KINDS = new Set(["AuthorizationCode", "AccessToken", "RefreshToken"]);

export function storedArtifactId(kind: string, id: string): string {
  return HASHED_KINDS.has(kind) ? createHash("sha256").update(id, "utf8").digest("base64url") : id;
}

export interface SignInAccessToken {
  userId: string;
  scopes: string[];
  clientId: string;
  expiresAt: Date;
}

/**
 * The user, scopes, client and expiry of a sign-in access token presented as a bearer, or null when it is unknown,
 * expired or revoked (a revoked grant's tokens are deleted). For resource servers such as the accounts API.
 */
export async function findSignInAccessToken(presented: string): Promise<SignInAccessToken | null> {
  const row = await db().oidcArtifact.findUnique({ where: { kind_id: { kind: "AccessToken", id: storedArtifactId("AccessToken", presented) } } });
  if (!row) return null;
  const payload = row.payload as { accountId?: string; scope?: string; clientId?: string; exp?: number };
  if (!payload.accountId || !payload.clientId || typeof payload.exp !== "number") return null;
  const expiresAt = new Date(payload.exp * 1000);
  if (expiresAt.getTime() <= clock.now().getTime()) return null;
  return { userId: payload.accountId, scopes: (payload.scope ?? "").split(" ").filter(Boolean), clientId: payload.clientId, expiresAt };
}

export interface InteractionRecord {
  uid: string;
  /** What oidc-provider asks of the person: `login` or `consent`. */
  prompt: string;
  clientId: string;
  scopes: string[];
  redirectUri: string;
  expiresAt: Date;
}

/** The sign-in interaction `uid` (the spec's SSO session ticket), expired or not, or null when there is none. */
export async function findInteraction(uid: string): Promise<InteractionRecord | null> {
  const row = await db().oidcArtifact.findUnique({ where: { kind_id: { kind: "Interaction", id: uid } } });
  if (!row) return null;
  const payload = row.payload as { exp?: number; prompt?: { name?: string }; params?: Record<string, unknown> };
  const params = payload.params ?? {};
  if (typeof payload.exp !== "number" || typeof params.client_id !== "string") return null;
  return {
    uid,
    prompt: payload.prompt?.name ?? "login",
    clientId: params.client_id,
    scopes: typeof params.scope === "string" ? params.scope.split(" ").filter(Boolean) : [],
    redirectUri: typeof params.redirect_uri === "string" ? params.redirect_uri : "",
    expiresAt: new Date(payload.exp * 1000),
  };
}

/**
 * Rows of the provider's table that expired more than a day ago (hourly maintenance). A day's grace keeps an
 * expired ticket answering "took too long" rather than "not valid" for a person who comes back to it late.
 */
export async function pruneExpiredSignInArtifacts(): Promise<number> {
  const { count } = await db().oidcArtifact.deleteMany({ where: { expiresAt: { lt: new Date(clock.now().getTime() - EXPIRED_ARTIFACT_GRACE_MS) } } });
  return count;
}

const EXPIRED_ARTIFACT_GRACE_MS = 24 * 60 * 60 * 1000;

export function interactionExpired(interaction: InteractionRecord): boolean {
  return interaction.expiresAt.getTime() <= clock.now().getTime();
}
