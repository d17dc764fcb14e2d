// GET /partner/v1/oauth/jwks — the public keys that verify access tokens (spec 4.7, RFC 7517).
import { defineRoute } from "@/lib/http/route";
import { jwksEndpoint } from "@/app/_endpoints/oauth";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/oauth/jwks", { GET: jwksEndpoint });
