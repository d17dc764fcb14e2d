// GET, POST /partner/v1/applications — list and create applications (spec 4.2, 2.2).
import { created, defineRoute, endpoint, ok } from "@/lib/http/route";
import { createApplicationBodySchema, listApplicationsQuerySchema } from "@/lib/applications/schemas";
import { createApplication, listApplications } from "@/lib/applications/service";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/applications", {
  GET: endpoint({
    query: listApplicationsQuerySchema,
    handler: async ({ principal, query, context }) => ok(await listApplications({ principal, query, url: context.url.pathname })),
  }),
  POST: endpoint({
    body: createApplicationBodySchema,
    idempotent: true,
    batchedWrites: true,
    handler: async ({ principal, body, statements }) => created(await createApplication(principal, body, statements)),
  }),
});
