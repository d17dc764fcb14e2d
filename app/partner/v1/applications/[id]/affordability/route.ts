// POST /partner/v1/applications/{id}/affordability — record twelve months of open-banking turnover (white-label; docs/white-label.md).
import { affordabilitySchema, recordAffordabilityBodySchema } from "@/lib/affordability/schemas";
import { recordAffordability } from "@/lib/affordability/service";
import { applicationIdParamsSchema } from "@/lib/applications/schemas";
import { created, defineRoute, endpoint } from "@/lib/http/route";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/applications/{id}/affordability", {
  POST: endpoint({
    summary: "Record the company's open-banking turnover",
    description:
      "Twelve months of turnover in pence, oldest first, from your open-banking provider; or, in the sandbox, `{\"source\": \"sandbox_bank\"}` for the simulated bank's figures. The newest record is the one decisioning weighs.",
    responses: { 201: affordabilitySchema },
    errors: ["not_found", "environment_mismatch", "conflict"],
    auth: { kind: "bearer", scope: "applications:write", capability: "white_label" },
    params: applicationIdParamsSchema,
    body: recordAffordabilityBodySchema,
    idempotent: true,
    handler: async ({ tenant, now, params, body, transaction }) => created(await recordAffordability({ tenant, now, applicationId: params.id, input: body, transaction })),
  }),
});
