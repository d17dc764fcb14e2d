// POST /oauth/token — the site address of the token endpoint; same behaviour as /partner/v1/oauth/token (spec 4.1).
import { defineRoute } from "@/lib/http/route";
import { tokenEndpoint } from "@/app/_endpoints/oauth";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/oauth/token", { POST: tokenEndpoint });
