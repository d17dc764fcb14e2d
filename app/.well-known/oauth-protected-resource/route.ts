// GET /.well-known/oauth-protected-resource — RFC 9728 metadata for the partner API (spec 4.7).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { DISCOVERY_CACHE_CONTROL, protectedResourceMetadata } from "@/lib/oauth/metadata";
import { protectedResourceMetadataSchema } from "@/lib/oauth/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/.well-known/oauth-protected-resource", {
  GET: endpoint({ summary: "Protected-resource metadata for the partner API (RFC 9728)", responses: { 200: protectedResourceMetadataSchema }, auth: { kind: "none" }, handler: () => ok(protectedResourceMetadata(), { "Cache-Control": DISCOVERY_CACHE_CONTROL }) }),
});
