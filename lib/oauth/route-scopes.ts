// The scope each partner route requires (spec 4.2-4.7, 5.2), in one table. `defineRoute` refuses a partner
// route that is missing here, so no route can forget its check. `null` marks the OAuth endpoints, which
// authenticate the client themselves or are public. Paths are relative to /partner/v1.
import type { PartnerScope } from "./scopes";

export const PARTNER_ROUTE_SCOPES: Readonly<Record<string, PartnerScope | null>> = {
  "POST /oauth/token": null,
  "POST /oauth/introspect": null,
  "GET /oauth/jwks": null,

  "GET /keys": "partner:manage",
  "POST /keys": "partner:manage",
  "GET /keys/{id}": "partner:manage",
  "DELETE /keys/{id}": "partner:manage",
  "POST /keys/{id}/roll": "partner:manage",
};
