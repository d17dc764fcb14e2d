// GET, POST, DELETE /partner/v1/keys/{id} — read one key; change a publishable key's allowed origins; revoke it,
// irreversibly (spec 4.5, 3.6; docs/apply-js.md, "Which pages may use a key").
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { keyIdParamsSchema, updateKeyBodySchema } from "@/lib/keys/schemas";
import { retrieveKey, revokeKey, setAllowedOrigins } from "@/lib/keys/service";
import { apiKeySchema } from "@/lib/keys/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/keys/{id}", {
  GET: endpoint({
    summary: "Retrieve an API key",
    responses: { 200: apiKeySchema },
    auth: { kind: "bearer", scope: "partner:manage" },
    params: keyIdParamsSchema,
    handler: async ({ tenant, params }) => ok(await retrieveKey({ tenant, id: params.id })),
  }),
  POST: endpoint({
    summary: "Update a publishable key's allowed origins",
    description:
      "Replaces the origins whose pages may start applications with the key (`[]` empties the list: then a sandbox key starts them from any page, " +
      "a live key from none). A secret key has none (422); a revoked or expired key cannot change (409).",
    responses: { 200: apiKeySchema },
    errors: ["conflict"],
    auth: { kind: "bearer", scope: "partner:manage" },
    params: keyIdParamsSchema,
    body: updateKeyBodySchema,
    handler: async ({ tenant, params, body }) => ok(await setAllowedOrigins({ tenant, id: params.id, allowedOrigins: body.allowed_origins })),
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
