// GET, POST /partner/v1/applications — list and create applications (spec 4.2, 2.2).
import { created, defineRoute, endpoint, ok } from "@/lib/http/route";
import { createApplicationBodySchema, listApplicationsQuerySchema } from "@/lib/applications/schemas";
import { batchedTransaction } from "@/lib/applications/batched-transaction";
import { createApplication } from "@/lib/applications/create";
import { listApplications } from "@/lib/applications/queries";
import { SUB_LIMITS } from "@/lib/ratelimit/policies";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/applications", {
  GET: endpoint({
    scope: "applications:read",
    query: listApplicationsQuerySchema,
    handler: async ({ tenant, query, context }) => ok(await listApplications({ tenant, query, url: context.url.pathname })),
  }),
  POST: endpoint({
    scope: "apply:write",
    rateLimit: SUB_LIMITS.applicationsCreate,
    body: createApplicationBodySchema,
    idempotent: true,
    transactionKind: batchedTransaction,
    handler: async ({ tenant, body, transaction }) => created(await createApplication({ tenant, input: body, transaction })),
  }),
});
