// POST /partner/v1/applications/{id}/consents — record the applicant's consents (white-label; docs/white-label.md).
import { applicationIdParamsSchema } from "@/lib/applications/schemas";
import { applicationConsentsSchema, recordConsentsBodySchema } from "@/lib/application-consents/schemas";
import { recordConsents } from "@/lib/application-consents/service";
import { created, defineRoute, endpoint } from "@/lib/http/route";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/applications/{id}/consents", {
  POST: endpoint({
    summary: "Record the applicant's consents",
    description: "Each consent names the version of the consent text the applicant agreed to. Recording a consent again changes nothing; each new one fires `consent.granted`.",
    responses: { 201: applicationConsentsSchema },
    errors: ["not_found", "environment_mismatch", "conflict"],
    auth: { kind: "bearer", scope: "applications:write", capability: "white_label" },
    params: applicationIdParamsSchema,
    body: recordConsentsBodySchema,
    idempotent: true,
    handler: async ({ tenant, now, params, body, transaction }) =>
      created(await recordConsents({ tenant, now, applicationId: params.id, consents: body.consents, source: "api", transaction })),
  }),
});
