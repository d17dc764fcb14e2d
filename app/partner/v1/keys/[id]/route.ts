// GET, DELETE /partner/v1/keys/{id} — read one key; revoke it, irreversibly (spec 4.5, 3.6).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { keyIdParamsSchema } from "@/lib/keys/schemas";
import { retrieveKey, revokeKey } from "@/lib/keys/service";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/keys/{id}", {
  GET: endpoint({
    scope: "partner:manage",
    params: keyIdParamsSchema,
    handler: async ({ tenant, params }) => ok(await retrieveKey({ tenant, id: params.id })),
  }),
  DELETE: endpoint({
    scope: "partner:manage",
    params: keyIdParamsSchema,
    handler: async ({ tenant, params }) => ok(await revokeKey({ tenant, id: params.id })),
  }),
});
