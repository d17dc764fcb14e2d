// POST /partner/v1/oauth/introspect — RFC 7662 token introspection (spec 4.7).
import { defineRoute } from "@/lib/http/route";
import { introspectionEndpoint } from "@/app/_endpoints/oauth";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/oauth/introspect", { POST: introspectionEndpoint });
