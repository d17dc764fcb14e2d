// The OAuth endpoints, declared once and mounted at both addresses the spec gives them (4.1 and 4.7):
// /partner/v1/oauth/* on the hub and /oauth/* on the site.
// Endpoint configs belong with the routes, not in the domain (lib/oauth never imports the route builder);
// `_endpoints` is a private folder, which Next does not route.
import { z } from "zod";
import { requestString } from "@/lib/wire/request-string";
import { createClientSecret } from "@/lib/keys/service";
import { created, endpoint, ok } from "@/lib/http/route";
import { SUB_LIMITS } from "@/lib/ratelimit/policies";
import { oauthFormSchema } from "@/lib/oauth/client-authentication";
import { ApiError } from "@/lib/errors";
import { introspectionRequestSchema, introspectToken } from "@/lib/oauth/introspection";
import { DISCOVERY_CACHE_CONTROL } from "@/lib/oauth/metadata";
import { signingKeys } from "@/lib/oauth/signing-keys";
import { grantClientCredentials, tokenRequestSchema } from "@/lib/oauth/token-grant";
import { introspectionResponseSchema, jwksSchema, tokenResponseSchema } from "@/lib/oauth/schemas";
import { clientSecretSchema } from "@/lib/keys/schemas";

const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

export const tokenEndpoint = endpoint({
  summary: "Get an access token (client credentials)",
  description:
    "Exchange your client id and a secret key for an access token: `grant_type=client_credentials`, optionally `scope` " +
    "(space-separated, a subset of your project's scopes). The key's environment (sandbox or live) is the token's.",
  responses: { 200: tokenResponseSchema },
  errors: ["invalid_scope", "unsupported_grant_type", "key_revoked", "account_suspended"],
  auth: { kind: "client" },
  rateLimit: SUB_LIMITS.oauthToken,
  bodyFormat: "form",
  errorFormat: "oauth",
  body: tokenRequestSchema,
  handler: async ({ client, body }) => ok(await grantClientCredentials({ client, request: body }), NO_STORE),
});

export const introspectionEndpoint = endpoint({
  summary: "Introspect an access token (RFC 7662)",
  description: "Tells whether a token of your own project and environment is active, and what it carries.",
  responses: { 200: introspectionResponseSchema },
  errors: ["key_revoked", "account_suspended"],
  auth: { kind: "client" },
  rateLimit: SUB_LIMITS.oauthIntrospect,
  bodyFormat: "form",
  errorFormat: "oauth",
  body: introspectionRequestSchema,
  handler: async ({ client, body }) => ok(await introspectToken({ client, request: body }), NO_STORE),
});

export const jwksEndpoint = endpoint({
  summary: "The public keys that verify access tokens (JWKS)",
  responses: { 200: jwksSchema },
  auth: { kind: "none" },
  rateLimit: SUB_LIMITS.oauthJwks,
  handler: async () => ok({ keys: (await signingKeys()).publicJwks }, { "Cache-Control": DISCOVERY_CACHE_CONTROL }),
});

/** POST /oauth/clients/{id}/secrets: a second secret for the client, authenticated with a current one. */
export const clientSecretsEndpoint = endpoint({
  summary: "Create a second client secret",
  description: "Authenticated with a current secret of the client; the new secret is a secret key of the same environment, shown once.",
  responses: { 201: clientSecretSchema },
  errors: ["key_revoked", "account_suspended"],
  auth: { kind: "client" },
  rateLimit: SUB_LIMITS.oauthClientSecrets,
  bodyFormat: "form",
  errorFormat: "oauth",
  params: z.strictObject({ id: requestString() }),
  body: oauthFormSchema({}),
  handler: async ({ client, params }) => {
    if (client.clientId !== params.id) {
      throw new ApiError("invalid_client", { message: "The credentials do not belong to this client." });
    }
    return created(await createClientSecret({ tenant: { projectId: client.projectId, environment: client.environment }, clientId: client.clientId }), NO_STORE);
  },
});
