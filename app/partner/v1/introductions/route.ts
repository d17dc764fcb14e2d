// GET /partner/v1/introductions — the applications originated through sub-accounts and their stages (beta; spec 2.5, 3.3, 4.3).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { listIntroductions } from "@/lib/revenue-share/introductions";
import { introductionListSchema, listIntroductionsQuerySchema } from "@/lib/revenue-share/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/introductions", {
  GET: endpoint({
    summary: "List introductions (beta)",
    description: "Newest first, filtered by `stage` or `sub_account_id`.",
    responses: { 200: introductionListSchema },
    auth: { kind: "bearer", scope: "accounts.read", capability: "beta" },
    query: listIntroductionsQuerySchema,
    handler: async ({ tenant, query, context }) => ok(await listIntroductions({ tenant, query, url: context.url.pathname })),
  }),
});
