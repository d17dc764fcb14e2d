// GET /oauth/jwks — the site address of the JWKS (spec 4.1).
import { defineRoute } from "@/lib/http/route";
import { jwksEndpoint } from "@/lib/oauth/endpoints";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/oauth/jwks", { GET: jwksEndpoint });
