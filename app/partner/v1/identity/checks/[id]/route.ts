// GET /partner/v1/identity/checks/{id} — one identity check with each person's result (spec 4.4; docs/identity.md).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { identityCheckIdParamsSchema, verificationSchema } from "@/lib/identity/schemas";
import { retrieveIdentityCheck } from "@/lib/identity/service";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/identity/checks/{id}", {
  GET: endpoint({
    summary: "Retrieve an identity check",
    responses: { 200: verificationSchema },
    errors: ["not_found", "environment_mismatch"],
    auth: { kind: "bearer", scope: "identity:read", capability: "white_label" },
    params: identityCheckIdParamsSchema,
    handler: async ({ tenant, params }) => ok(await retrieveIdentityCheck({ tenant, id: params.id })),
  }),
});
