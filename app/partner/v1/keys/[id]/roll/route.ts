// POST /partner/v1/keys/{id}/roll — a successor key, with an overlap during which both work (spec 4.5, 3.6).
import { created, defineRoute, endpoint } from "@/lib/http/route";
import { keyIdParamsSchema, rollKeyBodySchema } from "@/lib/keys/schemas";
import { rollKey } from "@/lib/keys/service";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/keys/{id}/roll", {
  POST: endpoint({
    scope: "partner:manage",
    params: keyIdParamsSchema,
    body: rollKeyBodySchema,
    idempotent: true,
    secretFields: ["secret"],
    handler: async ({ tenant, params, body, transaction }) => created(await rollKey({ tenant, id: params.id, overlapHours: body.overlap_hours, transaction })),
  }),
});
