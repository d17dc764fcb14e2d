// Client authentication for the OAuth endpoints (RFC 6749 §2.3): `client_secret_basic` or
// `client_secret_post`, never both. The client id is the project's `svc_client_...`; the client secret is one
// of its secret keys (`sk_sandbox_...` or `sk_live_...`), whose prefix selects the environment.
import { z } from "zod";
import { requestString } from "../wire/request-string";
import { ListenedCache } from "../change-feed";
import { clock } from "../clock";
import { readRows } from "../fast-lane";
import { Prisma, type ApiKey } from "../generated/prisma/client";
import { isIdOf } from "../ids";
import { hashSecret, parseKeyPrefix, secretsMatch } from "../keys/secrets";
import { readProjectState } from "../projects/project-state";
import { ApiError } from "../errors";
import type { TenantEnvironment } from "../tenant";

export interface ClientCredentialsInput {
  client_id?: string;
  client_secret?: string;
}

/** What a client presents: the request's Authorization header (client_secret_basic) and its form (client_secret_post). */
export interface PresentedClient {
  authorization: string | null;
  form: ClientCredentialsInput;
}

/**
 * The form body of an OAuth endpoint: its own fields plus `client_secret_post` credentials. Not strict:
 * RFC 6749 §3.2 says unrecognised parameters are ignored. An empty body is an empty form.
 */
export function oauthFormSchema<F extends z.ZodRawShape>(fields: F) {
  const form = z.object({ ...fields, client_id: requestString().optional(), client_secret: requestString().optional() });
  // Every field of an OAuth form is optional (presence is checked with an OAuth error), so {} is a valid form.
  return form.optional().transform((value) => value ?? ({} as z.output<typeof form>));
}

export interface AuthenticatedClient {
  projectId: string;
  clientId: string;
  keyId: string;
  environment: TenantEnvironment;
  grantedScopes: string[];
  internalAudience: boolean;
}

const UNKNOWN_CLIENT = "Unknown client or wrong client secret.";

function decodeBasic(header: string | null): { clientId: string; secret: string } | null {
  if (!header) return null;
  const [scheme, value] = header.split(" ", 2);
  if (scheme?.toLowerCase() !== "basic") return null;
  const decoded = Buffer.from(value ?? "", "base64").toString("utf8");
  const separator = decoded.indexOf(":");
  if (!value || separator < 0) throw new ApiError("invalid_request", { message: "The Basic authorization header is malformed." });
  try {
    // RFC 6749 §2.3.1: both parts are form-urlencoded before being joined.
    return {
      clientId: decodeURIComponent(decoded.slice(0, separator).replace(/\+/g, " ")),
      secret: decodeURIComponent(decoded.slice(separator + 1).replace(/\+/g, " ")),
    };
  } catch {
    throw new ApiError("invalid_request", { message: "The Basic authorization header is malformed." });
  }
}

/** The credentials a request presents; a client id that cannot be one of ours is an unknown client at once. */
function presentedCredentials(presented: PresentedClient): { clientId: string; secret: string } {
  const credentials = readCredentials(presented);
  if (!isIdOf("oauthClient", credentials.clientId)) throw new ApiError("invalid_client", { message: UNKNOWN_CLIENT });
  return credentials;
}

function readCredentials({ authorization, form }: PresentedClient): { clientId: string; secret: string } {
  const basic = decodeBasic(authorization);
  if (basic) {
    if (form.client_secret !== undefined) {
      throw new ApiError("invalid_request", { message: "Use one client authentication method: Basic or client_secret in the body, not both." });
    }
    if (form.client_id !== undefined && form.client_id !== basic.clientId) {
      throw new ApiError("invalid_request", { message: "client_id in the body differs from the Basic credentials." });
    }
    return basic;
  }
  if (!form.client_id || !form.client_secret) {
    throw new ApiError("invalid_client", { message: "Client authentication is required: client_secret_basic or client_secret_post." });
  }
  return { clientId: form.client_id, secret: form.client_secret };
}

type PresentedKey = Pick<ApiKey, "id" | "projectId" | "type" | "environment" | "secretHash" | "status" | "expiresAt">;

// Keys by secret hash, so a token request costs no query. A revoked or rolled key still fails at once: any
// change to a key drops it from every process's cache as it commits (lib/change-feed.ts), and a rolled key's
// expiry is checked on every use.
const presentedKeys = new ListenedCache<PresentedKey>("api_keys", { ttlMs: 5_000, maxEntries: 10_000, rowIdOf: (key) => key.id });

/** The key whose secret was presented, on the fast lane. */
function findKeyBySecret(secret: string): Promise<PresentedKey | undefined> {
  const secretHash = hashSecret(secret);
  return presentedKeys.read(secretHash, async () => {
    const [key] = await readRows<PresentedKey>(Prisma.sql`SELECT id, project_id AS "projectId", type::text AS type,
      environment::text AS environment, secret_hash AS "secretHash", status::text AS status, expires_at AS "expiresAt"
      FROM api_keys WHERE secret_hash = ${secretHash}`);
    return key;
  });
}

export async function authenticateClient(presented: PresentedClient): Promise<AuthenticatedClient> {
  const { clientId, secret } = presentedCredentials(presented);
  const kind = parseKeyPrefix(secret);
  if (!kind) throw new ApiError("invalid_client", { message: UNKNOWN_CLIENT });
  if (kind.type === "publishable") {
    throw new ApiError("invalid_client", { message: "A publishable key cannot authenticate a client; use a secret key (sk_...)." });
  }
  // Its project comes from the project cache that bearer checks use.
  const found = await findKeyBySecret(secret);
  const project = found ? await readProjectState(found.projectId) : null;
  const key = found && project ? { ...found, project } : null;
  if (!key || key.project.clientId !== clientId || key.type !== "secret" || !secretsMatch(secret, key.secretHash)) {
    throw new ApiError("invalid_client", { message: UNKNOWN_CLIENT });
  }
  if (key.status === "revoked") throw new ApiError("key_revoked", { message: "This secret key has been revoked." });
  if (key.expiresAt && key.expiresAt <= clock.now()) {
    throw new ApiError("key_revoked", { message: "This secret key was rolled and its overlap window has ended." });
  }
  if (key.project.status === "suspended") throw new ApiError("account_suspended", { message: "The partner account is suspended." });
  return {
    projectId: key.projectId,
    clientId,
    keyId: key.id,
    environment: key.environment,
    grantedScopes: key.project.scopes,
    internalAudience: key.project.internalAudience,
  };
}
