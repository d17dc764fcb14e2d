// Token introspection (RFC 7662). The caller authenticates as a client and may introspect only its own
// project's tokens of its own environment (a sandbox key learns nothing of live tokens): anything else, like
// anything expired, revoked, tampered or foreign, is `{active: false}`.
import { z } from "zod";
import { requestString } from "../wire/request-string";
import { readProjectState, isRevokedByProject } from "../projects/project-state";
import { AUDIENCES, TokenRejectedError, verifyAccessToken, type AccessTokenClaims } from "./access-tokens";
import { oauthFormSchema, type AuthenticatedClient } from "./client-authentication";
import { ApiError } from "../errors";

export const introspectionRequestSchema = oauthFormSchema({
  token: requestString().optional(),
  token_type_hint: requestString().optional(),
});

async function verifyForAnyAudience(token: string): Promise<AccessTokenClaims | null> {
  for (const audience of AUDIENCES) {
    try {
      return await verifyAccessToken(token, audience);
    } catch (error) {
      if (!(error instanceof TokenRejectedError) || error.reason !== "wrong_audience") return null;
    }
  }
  return null;
}

/** Describes a token to an authenticated client: only its own project's tokens, in its own environment. */
export async function introspectToken({ client, request: form }: { client: AuthenticatedClient; request: z.output<typeof introspectionRequestSchema> }) {
  if (!form.token) throw new ApiError("invalid_request", { message: "token is required." });
  const inactive = { active: false as const };
  const claims = await verifyForAnyAudience(form.token);
  if (!claims || claims.sub !== client.projectId || claims.livemode !== (client.environment === "live")) return inactive;
  const project = await readProjectState(claims.sub);
  if (!project || project.status !== "active") return inactive;
  if (isRevokedByProject(project, claims.livemode ? "live" : "sandbox", claims.iat)) return inactive;
  return {
    active: true as const,
    scope: claims.scope,
    client_id: claims.client_id,
    token_type: "Bearer",
    exp: claims.exp,
    iat: claims.iat,
    sub: claims.sub,
    aud: claims.aud,
    iss: claims.iss,
    jti: claims.jti,
    livemode: claims.livemode,
  };
}
