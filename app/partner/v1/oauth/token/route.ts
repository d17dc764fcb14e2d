// POST /partner/v1/oauth/token — client-credentials access tokens (spec 4.7, 5.2).
import { defineRoute } from "@/lib/http/route";
import { tokenEndpoint } from "@/app/_endpoints/oauth";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/oauth/token", { POST: tokenEndpoint });
