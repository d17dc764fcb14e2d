// GET, POST /partner/v1/keys — list and create API keys (spec 4.5, 2.8). Scope: partner:manage.
import { created, defineRoute, endpoint, ok } from "@/lib/http/route";
import { createKeyBodySchema, listKeysQuerySchema } from "@/lib/keys/schemas";
import { createKey, listKeys } from "@/lib/keys/service";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/keys", {
  GET: endpoint({
    query: listKeysQuerySchema,
    handler: async ({ principal, query, context }) => ok(await listKeys({ principal, query, url: context.url.pathname })),
  }),
  POST: endpoint({
    body: createKeyBodySchema,
    idempotent: true,
    handler: async ({ principal, body, database }) => created(await createKey(principal, body, database)),
  }),
});
