// POST /partner/v1/test_helpers/applications/{id}/fund — sandbox test helper: accepts the offer and funds an approved application.
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { applicationIdParamsSchema } from "@/lib/applications/schemas";
import { acceptOfferAndFund } from "@/lib/applications/test-helpers";
import { applicationSchema } from "@/lib/applications/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/test_helpers/applications/{id}/fund", {
  POST: endpoint({
    summary: "Accept the offer and fund an approved application (sandbox)",
    responses: { 200: applicationSchema },
    errors: ["conflict"],
    auth: { kind: "bearer", scope: "applications:write", sandboxOnly: true },
    params: applicationIdParamsSchema,
    handler: async ({ tenant, now, params }) => ok(await acceptOfferAndFund({ tenant, now, id: params.id })),
  }),
});
