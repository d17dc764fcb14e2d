// The OAuth endpoints, declared once and mounted at both addresses the spec gives them (4.1 and 4.7):
// /partner/v1/oauth/* on the hub and /oauth/* on the site.
import { z } from "zod";
import { createClientSecret } from "../keys/service";
import { created, endpoint, ok } from "../http/route";
import { enforceLimit, meterAnonymousPartnerRequest } from "../http/metering";
import { INTROSPECTION_LIMIT, TOKEN_ENDPOINT_LIMIT } from "../ratelimit/policies";
import { authenticateClient, oauthFormSchema, presentedClientId } from "./client-authentication";
import { OAuthError } from "./errors";
import { introspectionRequestSchema, introspectToken } from "./introspection";
import { DISCOVERY_CACHE_CONTROL } from "./metadata";
import { signingKeys } from "./signing-keys";
import { grantClientCredentials, tokenRequestSchema } from "./token-grant";

const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

export const tokenEndpoint = endpoint({
  bodyFormat: "form",
  errorFormat: "oauth",
  body: tokenRequestSchema,
  handler: async ({ request, context, body }) => {
    await enforceLimit(context, TOKEN_ENDPOINT_LIMIT, presentedClientId(request, body));
    return ok(await grantClientCredentials(request, body), NO_STORE);
  },
});

export const introspectionEndpoint = endpoint({
  bodyFormat: "form",
  errorFormat: "oauth",
  body: introspectionRequestSchema,
  handler: async ({ request, context, body }) => {
    await enforceLimit(context, INTROSPECTION_LIMIT, presentedClientId(request, body));
    return ok(await introspectToken(request, body), NO_STORE);
  },
});

export const jwksEndpoint = endpoint({
  handler: async ({ request, context }) => {
    await meterAnonymousPartnerRequest(request, context);
    return ok({ keys: (await signingKeys()).publicJwks }, { "Cache-Control": DISCOVERY_CACHE_CONTROL });
  },
});

/** POST /oauth/clients/{id}/secrets: a second secret for the client, authenticated with a current one. */
export const clientSecretsEndpoint = endpoint({
  bodyFormat: "form",
  errorFormat: "oauth",
  params: z.strictObject({ id: z.string() }),
  body: oauthFormSchema({}),
  handler: async ({ request, params, body }) => {
    const client = await authenticateClient(request, body);
    if (client.clientId !== params.id) {
      throw new OAuthError("invalid_client", "The credentials do not belong to this client.");
    }
    return created(await createClientSecret(client), NO_STORE);
  },
});
