// POST /partner/v1/applications/{id}/accept — the borrower signs and accepts the offer; the loan is funded (white-label; docs/white-label.md).
import { acceptOffer } from "@/lib/applications/applicant-actions";
import { acceptOfferBodySchema, applicationIdParamsSchema, applicationSchema } from "@/lib/applications/schemas";
import { defineRoute, endpoint, ok } from "@/lib/http/route";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/applications/{id}/accept", {
  POST: endpoint({
    summary: "Accept an approved application's offer",
    description: "The signatory's typed name signs the offer. The application is funded at once and returned with its `account_id`.",
    responses: { 200: applicationSchema },
    errors: ["not_found", "environment_mismatch", "conflict"],
    auth: { kind: "bearer", scope: "applications:write", capability: "white_label" },
    params: applicationIdParamsSchema,
    body: acceptOfferBodySchema,
    idempotent: true,
    handler: async ({ tenant, now, params, body, transaction }) =>
      ok(await acceptOffer({ tenant, now, id: params.id, signatoryName: body.signatory_name, transaction })),
  }),
});
