// GET /oauth/jwks — the site address of the JWKS (spec 4.1).
import { defineRoute } from "@/lib/http/route";
import { jwksEndpoint } from "@/app/_endpoints/oauth";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/oauth/jwks", { GET: jwksEndpoint });
