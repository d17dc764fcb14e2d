// POST /partner/v1/keys/{id}/roll — a successor key, with an overlap during which both work (spec 4.5, 3.6).
import { created, defineRoute, endpoint } from "@/lib/http/route";
import { keyIdParamsSchema, rollKeyBodySchema } from "@/lib/keys/schemas";
import { rollKey } from "@/lib/keys/service";
import { rolledApiKeySchema } from "@/lib/keys/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/keys/{id}/roll", {
  POST: endpoint({
    summary: "Roll an API key",
    description: "Issues a successor with a new secret; the old key keeps working for `overlap_hours` (default 24, at most 168).",
    responses: { 201: rolledApiKeySchema },
    errors: ["conflict"],
    auth: { kind: "bearer", scope: "partner:manage" },
    params: keyIdParamsSchema,
    body: rollKeyBodySchema,
    idempotent: true,
    secretFields: ["secret"],
    handler: async ({ tenant, params, body, transaction }) => created(await rollKey({ tenant, id: params.id, overlapHours: body.overlap_hours, transaction })),
  }),
});
