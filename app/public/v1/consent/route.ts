// POST /public/v1/consent — record a cookie-consent snapshot (spec 4.8): fail-open, always 202 `{recorded}`.
import { recordConsentQuerySchema } from "@/lib/consent/schemas";
import { recordConsent } from "@/lib/consent/service";
import { defineRoute, endpoint, reply } from "@/lib/http/route";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("public", "/consent", {
  POST: endpoint({
    rawBody: true,
    query: recordConsentQuerySchema,
    handler: async ({ request, database }) => reply(202, await recordConsent({ request, database })),
  }),
});
