// GET /.well-known/oauth-authorization-server — RFC 8414 metadata (spec 4.7).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { authorizationServerMetadata, DISCOVERY_CACHE_CONTROL } from "@/lib/oauth/metadata";
import { authorizationServerMetadataSchema } from "@/lib/oauth/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/.well-known/oauth-authorization-server", {
  GET: endpoint({ summary: "OAuth authorization-server metadata (RFC 8414)", responses: { 200: authorizationServerMetadataSchema }, auth: { kind: "none" }, handler: () => ok(authorizationServerMetadata(), { "Cache-Control": DISCOVERY_CACHE_CONTROL }) }),
});
