// POST /partner/v1/identity/checks — check an application's directors and PSCs (spec 4.4; docs/identity.md).
import { created, defineRoute, endpoint } from "@/lib/http/route";
import { createIdentityCheckBodySchema } from "@/lib/identity/schemas";
import { verificationSchema } from "@/lib/identity/serialize";
import { runIdentityCheck } from "@/lib/identity/service";
import { SUB_LIMITS } from "@/lib/ratelimit/policies";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/identity/checks", {
  POST: endpoint({
    summary: "Run an identity check of an application's directors and people with significant control",
    responses: { 201: verificationSchema },
    errors: ["resource_not_found", "environment_mismatch", "conflict", "service_unavailable"],
    scope: "identity:write",
    capability: "white_label",
    rateLimit: SUB_LIMITS.identityChecks,
    body: createIdentityCheckBodySchema,
    idempotent: true,
    handler: async ({ tenant, body, transaction }) =>
      created(await runIdentityCheck({ tenant, applicationId: body.application_id, people: body.people, transaction })),
  }),
});
