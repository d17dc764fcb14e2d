// POST /oauth/introspect — the site address of token introspection (spec 4.1).
import { defineRoute } from "@/lib/http/route";
import { introspectionEndpoint } from "@/app/_endpoints/oauth";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/oauth/introspect", { POST: introspectionEndpoint });
