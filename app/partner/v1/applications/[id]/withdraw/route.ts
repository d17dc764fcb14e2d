// POST /partner/v1/applications/{id}/withdraw — withdraw before funding (spec 4.2, 3.1); returns the application.
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { applicationIdParamsSchema, withdrawApplicationBodySchema } from "@/lib/applications/schemas";
import { withdrawApplication } from "@/lib/applications/service";
import { applicationSchema } from "@/lib/applications/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/applications/{id}/withdraw", {
  POST: endpoint({
    summary: "Withdraw an application",
    description: "Possible until the application is funded; a withdrawn application cannot be reopened.",
    responses: { 200: applicationSchema },
    errors: ["conflict"],
    auth: { kind: "bearer", scope: "applications:write" },
    params: applicationIdParamsSchema,
    body: withdrawApplicationBodySchema,
    handler: async ({ tenant, now, params, body }) => ok(await withdrawApplication({ tenant, now, id: params.id, reason: body?.reason })),
  }),
});
