// The client-credentials grant (RFC 6749 §4.4, spec 4.7 and 5.2).
import { z } from "zod";
import { requestString } from "../wire/request-string";
import { markKeyUsed } from "../keys/service";
import { AUDIENCES, mintAccessToken, PARTNER_AUDIENCE, type Audience } from "./access-tokens";
import { oauthFormSchema, type AuthenticatedClient } from "./client-authentication";
import { ApiError } from "../errors";

export const tokenRequestSchema = oauthFormSchema({
  grant_type: requestString().optional(),
  scope: requestString().optional(),
  audience: requestString().optional(),
});

export type TokenRequest = z.output<typeof tokenRequestSchema>;

function grantedScopes(client: AuthenticatedClient, requested: string | undefined): string[] {
  if (requested === undefined || requested.trim() === "") return client.grantedScopes;
  const scopes = [...new Set(requested.trim().split(/\s+/))];
  const missing = scopes.filter((scope) => !client.grantedScopes.includes(scope));
  if (missing.length > 0) throw new ApiError("invalid_scope", { message: `Scope not granted to this client: ${missing.join(" ")}.` });
  return scopes;
}

/**
 * `internal/v1` is refused with `invalid_request` (not `invalid_scope`) unless the project is provisioned
 * for it: the audience names a resource, not a permission.
 */
function requestedAudience(client: AuthenticatedClient, audience: string | undefined): Audience {
  if (audience === undefined || audience === "") return PARTNER_AUDIENCE;
  if (!(AUDIENCES as readonly string[]).includes(audience)) {
    throw new ApiError("invalid_request", { message: `Unknown audience "${audience}"; use ${PARTNER_AUDIENCE}.` });
  }
  if (audience !== PARTNER_AUDIENCE && !client.internalAudience) {
    throw new ApiError("invalid_request", { message: `This client is not provisioned for the ${audience} audience.` });
  }
  return audience as Audience;
}

/** Grants a token to a client that has authenticated (RFC 6749 §4.4.2). */
export async function grantClientCredentials({ client, request: form }: { client: AuthenticatedClient; request: TokenRequest }) {
  if (!form.grant_type) throw new ApiError("invalid_request", { message: "grant_type is required." });
  if (form.grant_type !== "client_credentials") {
    throw new ApiError("unsupported_grant_type", { message: "Only the client_credentials grant is supported." });
  }
  const scopes = grantedScopes(client, form.scope);
  const audience = requestedAudience(client, form.audience);
  const minted = await mintAccessToken({
    projectId: client.projectId,
    clientId: client.clientId,
    environment: client.environment,
    scopes,
    audience,
  });
  await markKeyUsed(client.keyId);
  return {
    access_token: minted.accessToken,
    token_type: "Bearer",
    expires_in: minted.expiresIn,
    scope: minted.claims.scope,
  };
}
