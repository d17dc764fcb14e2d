// GET /partner/v1/sub-accounts/{id} — one sub-account (beta; spec 2.5; docs/beta.md).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { subAccountIdParamsSchema, subAccountSchema } from "@/lib/revenue-share/schemas";
import { retrieveSubAccount } from "@/lib/revenue-share/sub-accounts";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/sub-accounts/{id}", {
  GET: endpoint({
    summary: "Retrieve a sub-account (beta)",
    responses: { 200: subAccountSchema },
    errors: ["not_found", "environment_mismatch"],
    auth: { kind: "bearer", scope: "accounts.read", capability: "beta" },
    params: subAccountIdParamsSchema,
    handler: async ({ tenant, params }) => ok(await retrieveSubAccount({ tenant, id: params.id })),
  }),
});
