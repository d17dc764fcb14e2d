// GET, POST /partner/v1/applications — list and create applications (spec 4.2, 2.2).
import { created, defineRoute, endpoint, ok } from "@/lib/http/route";
import { createApplicationBodySchema, listApplicationsQuerySchema } from "@/lib/applications/schemas";
import { batchedTransaction } from "@/lib/applications/batched-transaction";
import { createApplication } from "@/lib/applications/create";
import { listApplications } from "@/lib/applications/queries";
import { SUB_LIMITS } from "@/lib/ratelimit/policies";
import { applicationListSchema, applicationSchema } from "@/lib/applications/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/applications", {
  GET: endpoint({
    summary: "List applications",
    description: "Newest first, filtered by `status`, `reference` or `created_after`; page with `starting_after` or `ending_before`.",
    responses: { 200: applicationListSchema },
    auth: { kind: "bearer", scope: "applications:read" },
    query: listApplicationsQuerySchema,
    handler: async ({ tenant, query, context }) => ok(await listApplications({ tenant, query, url: context.url.pathname })),
  }),
  POST: endpoint({
    summary: "Create an application",
    description:
      "Starts an application for a UK limited company or LLP: £1,000 to £250,000 (`amount_pence` 100000 to 25000000) over 3 to 60 months. " +
      "The company is looked up at Companies House. Send the applicant to `handoff_url` to complete the hosted journey.",
    responses: { 201: applicationSchema },
    errors: ["service_unavailable"],
    auth: { kind: "bearer", scope: "apply:write" },
    rateLimit: SUB_LIMITS.applicationsCreate,
    body: createApplicationBodySchema,
    idempotent: true,
    transactionKind: batchedTransaction,
    handler: async ({ tenant, now, body, transaction }) => created(await createApplication({ tenant, now, input: body, transaction })),
  }),
});
