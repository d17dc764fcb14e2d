// Reply schemas of the OAuth server (RFC 6749, 7662, 7517, 8414, 9728) for the API reference.
import { z } from "zod";
import { absoluteUrl, text } from "../wire/response-schema";

export const tokenResponseSchema = z
  .strictObject({
    access_token: text().meta({ description: "A signed JWT; send it as `Authorization: Bearer <token>`." }),
    token_type: z.literal("Bearer"),
    expires_in: z.int().meta({ description: "Seconds until the token expires." }),
    scope: text().meta({ description: "The granted scopes, space-separated." }),
  })
  .meta({ id: "TokenResponse", description: "An access token (RFC 6749 §5.1)." });

export const introspectionResponseSchema = z
  .union([
    z.strictObject({
      active: z.literal(true),
      scope: text(),
      client_id: text(),
      token_type: z.literal("Bearer"),
      exp: z.int(),
      iat: z.int(),
      sub: text(),
      aud: z.union([text(), z.array(text())]),
      iss: text(),
      jti: text(),
      livemode: z.boolean(),
    }),
    z.strictObject({ active: z.literal(false) }),
  ])
  .meta({ id: "Introspection", description: "RFC 7662: a token of your own project and environment that is valid, or `{active: false}`." });

export const jwksSchema = z
  .strictObject({
    keys: z.array(z.strictObject({ kty: z.literal("OKP"), crv: z.literal("Ed25519"), x: text(), kid: text(), alg: z.literal("EdDSA"), use: z.literal("sig") })),
  })
  .meta({ id: "Jwks", description: "The public keys that verify access tokens (RFC 7517)." });

export const authorizationServerMetadataSchema = z
  .strictObject({
    issuer: absoluteUrl(),
    token_endpoint: absoluteUrl(),
    jwks_uri: absoluteUrl(),
    introspection_endpoint: absoluteUrl(),
    grant_types_supported: z.array(text()),
    response_types_supported: z.array(text()),
    scopes_supported: z.array(text()),
    token_endpoint_auth_methods_supported: z.array(text()),
    introspection_endpoint_auth_methods_supported: z.array(text()),
    id_token_signing_alg_values_supported: z.array(text()),
    token_endpoint_auth_signing_alg_values_supported: z.array(text()),
    service_documentation: absoluteUrl(),
  })
  .meta({ id: "AuthorizationServerMetadata", description: "RFC 8414 metadata." });

export const protectedResourceMetadataSchema = z
  .strictObject({
    resource: absoluteUrl(),
    authorization_servers: z.array(absoluteUrl()),
    scopes_supported: z.array(text()),
    bearer_methods_supported: z.array(text()),
    resource_signing_alg_values_supported: z.array(text()),
    resource_documentation: absoluteUrl(),
  })
  .meta({ id: "ProtectedResourceMetadata", description: "RFC 9728 metadata for the partner API." });
