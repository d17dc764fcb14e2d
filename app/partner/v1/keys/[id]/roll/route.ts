// POST /partner/v1/keys/{id}/roll — a successor key, with an overlap during which both work (spec 4.5, 3.6).
import { created, defineRoute, endpoint } from "@/lib/http/route";
import { keyIdParamsSchema, rollKeyBodySchema } from "@/lib/keys/schemas";
import { rollKey } from "@/lib/keys/service";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/keys/{id}/roll", {
  POST: endpoint({
    params: keyIdParamsSchema,
    body: rollKeyBodySchema,
    idempotent: true,
    handler: async ({ principal, params, body, database }) => created(await rollKey(principal, params.id, body.overlap_hours, database)),
  }),
});
