// GET, DELETE /partner/v1/keys/{id} — read one key; revoke it, irreversibly (spec 4.5, 3.6).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { keyIdParamsSchema } from "@/lib/keys/schemas";
import { retrieveKey, revokeKey } from "@/lib/keys/service";
import { apiKeySchema } from "@/lib/keys/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/keys/{id}", {
  GET: endpoint({
    summary: "Retrieve an API key",
    responses: { 200: apiKeySchema },
    auth: { kind: "bearer", scope: "partner:manage" },
    params: keyIdParamsSchema,
    handler: async ({ tenant, params }) => ok(await retrieveKey({ tenant, id: params.id })),
  }),
  DELETE: endpoint({
    summary: "Revoke an API key",
    description: "Irreversible: the key stops authenticating at once.",
    responses: { 200: apiKeySchema },
    auth: { kind: "bearer", scope: "partner:manage" },
    params: keyIdParamsSchema,
    handler: async ({ tenant, params }) => ok(await revokeKey({ tenant, id: params.id })),
  }),
});
