// GET, POST /partner/v1/keys — list and create API keys (spec 4.5, 2.8). Scope: partner:manage.
import { created, defineRoute, endpoint, ok } from "@/lib/http/route";
import { createKeyBodySchema, listKeysQuerySchema } from "@/lib/keys/schemas";
import { createKey, listKeys } from "@/lib/keys/service";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/keys", {
  GET: endpoint({
    scope: "partner:manage",
    query: listKeysQuerySchema,
    handler: async ({ tenant, query, context }) => ok(await listKeys({ tenant, query, url: context.url.pathname })),
  }),
  POST: endpoint({
    scope: "partner:manage",
    body: createKeyBodySchema,
    idempotent: true,
    secretFields: ["secret"],
    handler: async ({ tenant, body, transaction }) => created(await createKey({ tenant, input: body, transaction })),
  }),
});
