// Discovery documents: RFC 8414 authorization-server metadata and RFC 9728 protected-resource metadata.
import { config } from "../env";
import { GRANTABLE_SCOPES } from "./scopes";

export const DISCOVERY_CACHE_CONTROL = "public, max-age=300";

export function authorizationServerMetadata() {
  const { HUB_URL, BASE_URL } = config();
  return {
    issuer: HUB_URL,
    token_endpoint: `${HUB_URL}/partner/v1/oauth/token`,
    jwks_uri: `${HUB_URL}/partner/v1/oauth/jwks`,
    introspection_endpoint: `${HUB_URL}/partner/v1/oauth/introspect`,
    grant_types_supported: ["client_credentials"],
    response_types_supported: [],
    scopes_supported: [...GRANTABLE_SCOPES],
    token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
    introspection_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
    id_token_signing_alg_values_supported: ["EdDSA"],
    token_endpoint_auth_signing_alg_values_supported: ["EdDSA"],
    service_documentation: `${BASE_URL}/docs/api`,
  };
}

export function protectedResourceMetadata() {
  const { HUB_URL, PARTNER_API_URL, BASE_URL } = config();
  return {
    resource: `${PARTNER_API_URL}/partner/v1`,
    authorization_servers: [HUB_URL],
    scopes_supported: [...GRANTABLE_SCOPES],
    bearer_methods_supported: ["header"],
    resource_signing_alg_values_supported: ["EdDSA"],
    resource_documentation: `${BASE_URL}/docs/api`,
  };
}
