// POST /oauth/clients/{id}/secrets — a second client secret, authenticated with a current one (spec 4.7, 5.1).
import { defineRoute } from "@/lib/http/route";
import { clientSecretsEndpoint } from "@/app/_endpoints/oauth";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/oauth/clients/{id}/secrets", { POST: clientSecretsEndpoint });
