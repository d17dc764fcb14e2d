// POST /public/v1/consent — record a cookie-consent snapshot (spec 4.8): fail-open, always 202 `{recorded}`.
import { CONSENT_BODY_LIMIT_BYTES, recordConsentBodySchema, recordConsentQuerySchema } from "@/lib/consent/schemas";
import { recordConsent } from "@/lib/consent/service";
import { defineRoute, endpoint, reply } from "@/lib/http/route";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("public", "/consent", {
  POST: endpoint({
    query: recordConsentQuerySchema,
    body: recordConsentBodySchema.nullable(),
    bodyLimitBytes: CONSENT_BODY_LIMIT_BYTES,
    bodyFailsOpen: true,
    handler: async ({ body }) => reply(202, await recordConsent({ snapshot: body })),
  }),
});
