// GET /partner/v1/applications/{id} — one application, with its decision once decided (spec 4.2).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { applicationIdParamsSchema } from "@/lib/applications/schemas";
import { retrieveApplication } from "@/lib/applications/queries";
import { applicationSchema } from "@/lib/applications/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/applications/{id}", {
  GET: endpoint({
    summary: "Retrieve an application",
    responses: { 200: applicationSchema },
    auth: { kind: "bearer", scope: "applications:read" },
    params: applicationIdParamsSchema,
    handler: async ({ tenant, params }) => ok(await retrieveApplication({ tenant, id: params.id })),
  }),
});
