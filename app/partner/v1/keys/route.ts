// GET, POST /partner/v1/keys — list and create API keys (spec 4.5, 2.8). Scope: partner:manage.
import { created, defineRoute, endpoint, ok } from "@/lib/http/route";
import { createKeyBodySchema, listKeysQuerySchema } from "@/lib/keys/schemas";
import { createKey, listKeys } from "@/lib/keys/service";
import { apiKeyListSchema, newApiKeySchema } from "@/lib/keys/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/keys", {
  GET: endpoint({
    summary: "List API keys",
    responses: { 200: apiKeyListSchema },
    auth: { kind: "bearer", scope: "partner:manage" },
    query: listKeysQuerySchema,
    handler: async ({ tenant, query, context }) => ok(await listKeys({ tenant, query, url: context.url.pathname })),
  }),
  POST: endpoint({
    summary: "Create an API key",
    description:
      "A secret (`sk_…`) or publishable (`pk_…`) key of the token's environment; the secret is shown once. A publishable key may list " +
      "`allowed_origins`, the only pages that may start applications with it (docs/apply-js.md).",
    responses: { 201: newApiKeySchema },
    errors: ["environment_mismatch"],
    auth: { kind: "bearer", scope: "partner:manage" },
    body: createKeyBodySchema,
    idempotent: true,
    secretFields: ["secret"],
    handler: async ({ tenant, body, transaction }) => created(await createKey({ tenant, input: body, transaction })),
  }),
});
