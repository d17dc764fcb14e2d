// GET /partner/v1/applications/{id} — one application, with its decision once decided (spec 4.2).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { applicationIdParamsSchema } from "@/lib/applications/schemas";
import { retrieveApplication } from "@/lib/applications/service";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/applications/{id}", {
  GET: endpoint({
    params: applicationIdParamsSchema,
    handler: async ({ principal, params }) => ok(await retrieveApplication(principal, params.id)),
  }),
});
