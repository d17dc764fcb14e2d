// POST /partner/v1/test_helpers/applications/{id}/expire — sandbox test helper: expires a created application now.
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { applicationIdParamsSchema } from "@/lib/applications/schemas";
import { expireNow } from "@/lib/applications/test-helpers";
import { applicationSchema } from "@/lib/applications/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/test_helpers/applications/{id}/expire", {
  POST: endpoint({
    summary: "Expire an application now (sandbox)",
    responses: { 200: applicationSchema },
    errors: ["conflict"],
    auth: { kind: "bearer", scope: "applications:write", sandboxOnly: true },
    params: applicationIdParamsSchema,
    handler: async ({ tenant, now, params }) => ok(await expireNow({ tenant, now, id: params.id })),
  }),
});
