// The scope each partner route requires (spec 4.2-4.7, 5.2), in one table. `defineRoute` refuses a partner
// route that is missing here, so no route can forget its check. `null` marks the OAuth endpoints, which
// authenticate the client themselves or are public. Paths are relative to /partner/v1.
import type { PartnerScope } from "./scopes";

export const PARTNER_ROUTE_SCOPES: Readonly<Record<string, PartnerScope | null>> = {
  "POST /oauth/token": null,
  "POST /oauth/introspect": null,
  "GET /oauth/jwks": null,

  "POST /applications": "apply:write",
  "GET /applications": "applications:read",
  "GET /applications/{id}": "applications:read",
  "POST /applications/{id}/withdraw": "applications:write",

  "GET /decisions/{id}": "decisions:read",
  "POST /decisions/{id}/refresh": "applications:write",

  // Sandbox test helpers (docs/test-helpers.md): refused with a live token.
  "POST /test_helpers/applications/{id}/submit": "applications:write",
  "POST /test_helpers/applications/{id}/expire": "applications:write",
  "POST /test_helpers/applications/{id}/fund": "applications:write",
  "POST /test_helpers/decisions/{id}/resolve_referral": "applications:write",

  "GET /events": "events:read",
  "GET /events/stream": "events:read",
  "GET /events/{id}": "events:read",
  "POST /events/{id}/replay": "webhooks:manage",

  "GET /webhook_endpoints": "webhooks:manage",
  "POST /webhook_endpoints": "webhooks:manage",
  "GET /webhook_endpoints/{id}": "webhooks:manage",
  "POST /webhook_endpoints/{id}": "webhooks:manage",
  "DELETE /webhook_endpoints/{id}": "webhooks:manage",
  "POST /webhook_endpoints/{id}/enable": "webhooks:manage",
  "POST /webhook_endpoints/{id}/roll_secret": "webhooks:manage",

  "GET /keys": "partner:manage",
  "POST /keys": "partner:manage",
  "GET /keys/{id}": "partner:manage",
  "DELETE /keys/{id}": "partner:manage",
  "POST /keys/{id}/roll": "partner:manage",
};
