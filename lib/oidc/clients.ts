// The sign-in provider's relying parties. A confidential client's secret is shown once, at creation, and kept
// only as a SHA-256 hash (a 238-bit random secret needs no slow hash); the provider compares a presented secret
// with it in constant time (lib/oidc/provider.ts).
import { clock } from "../clock";
import { db, type Database } from "../db";
import { newId, randomToken } from "../ids";
import { hashSecret, secretsMatch } from "../keys/secrets";
import { createSignInClientInputSchema, type CreateSignInClientInput } from "./schemas";

const SECRET_PREFIX = "sso_secret_";

export interface CreatedSignInClient {
  client_id: string;
  /** Absent for a public client. */
  client_secret?: string;
}

export async function createSignInClient(database: Database, input: CreateSignInClientInput): Promise<CreatedSignInClient> {
  const parsed = createSignInClientInputSchema.parse(input);
  const id = newId("signInClient");
  const secret = parsed.public ? undefined : SECRET_PREFIX + randomToken(40);
  await database.oidcClient.create({
    data: {
      id,
      name: parsed.name,
      secretHash: secret === undefined ? null : hashSecret(secret),
      redirectUris: parsed.redirectUris,
      postLogoutRedirectUris: parsed.postLogoutRedirectUris,
      public: parsed.public,
      createdAt: clock.now(),
    },
  });
  return { client_id: id, ...(secret === undefined ? {} : { client_secret: secret }) };
}

export async function setSignInClientDisabled(database: Database, clientId: string, disabled: boolean): Promise<void> {
  await database.oidcClient.update({ where: { id: clientId }, data: { disabled } });
}

/** A stand-in for the secret in the metadata oidc-provider validates: it never compares against it. */
export const HASHED_SECRET_PLACEHOLDER = "stored-as-a-hash";

/**
 * A client as oidc-provider's metadata, or undefined when unknown or disabled (to the provider the same:
 * `invalid_client`, spec 7.4).
 */
export async function signInClientMetadata(clientId: string): Promise<Record<string, unknown> | undefined> {
  const client = await db().oidcClient.findUnique({ where: { id: clientId } });
  if (!client || client.disabled) return undefined;
  return {
    client_id: client.id,
    client_name: client.name,
    redirect_uris: client.redirectUris,
    post_logout_redirect_uris: client.postLogoutRedirectUris,
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: client.public ? "none" : "client_secret_basic",
    // Every ID token says when the person signed in (OIDC Core 2), not only when max_age asks for it.
    require_auth_time: true,
    ...(client.public ? {} : { client_secret: HASHED_SECRET_PLACEHOLDER }),
  };
}

/** Whether `presented` is the client's secret: its hash against the stored one, in constant time. */
export async function signInClientSecretMatches(clientId: string, presented: string): Promise<boolean> {
  const client = await db().oidcClient.findUnique({ where: { id: clientId }, select: { secretHash: true, disabled: true } });
  if (!client?.secretHash || client.disabled) return false;
  return secretsMatch(presented, client.secretHash);
}

/** What the pages show of a client: its name and where its redirects go. */
export async function signInClientSummary(clientId: string): Promise<{ name: string; redirectOrigins: string[] } | null> {
  const client = await db().oidcClient.findUnique({ where: { id: clientId }, select: { name: true, redirectUris: true } });
  if (!client) return null;
  return { name: client.name, redirectOrigins: [...new Set(client.redirectUris.map((uri) => new URL(uri).origin))] };
}
