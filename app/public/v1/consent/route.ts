// POST /public/v1/consent — record a cookie-consent snapshot (spec 4.8): fail-open, always 202 `{recorded}`.
import { CONSENT_BODY_LIMIT_BYTES, recordConsentBodySchema, recordConsentQuerySchema } from "@/lib/consent/schemas";
import { recordConsent } from "@/lib/consent/service";
import { defineRoute, endpoint, reply } from "@/lib/http/route";
import { consentRecordedSchema } from "@/lib/consent/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("public", "/consent", {
  POST: endpoint({
    summary: "Record a cookie-consent snapshot",
    description: "Fail-open: always 202, with `recorded` false when the body is unusable or the snapshot could not be kept.",
    responses: { 202: consentRecordedSchema },
    auth: { kind: "none" },
    query: recordConsentQuerySchema,
    body: recordConsentBodySchema.nullable(),
    bodyLimitBytes: CONSENT_BODY_LIMIT_BYTES,
    bodyFailsOpen: true,
    handler: async ({ body }) => reply(202, await recordConsent({ snapshot: body })),
  }),
});
