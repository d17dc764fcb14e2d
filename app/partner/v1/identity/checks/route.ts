// POST /partner/v1/identity/checks — check an application's directors and PSCs (spec 4.4; docs/identity.md).
import { deferredTransaction } from "@/lib/deferred-transaction";
import { created, defineRoute, endpoint } from "@/lib/http/route";
import { createIdentityCheckBodySchema, verificationSchema } from "@/lib/identity/schemas";
import { runIdentityCheck } from "@/lib/identity/service";
import { SUB_LIMITS } from "@/lib/ratelimit/policies";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/identity/checks", {
  POST: endpoint({
    summary: "Run an identity check of an application's directors and people with significant control",
    responses: { 201: verificationSchema },
    errors: ["resource_not_found", "environment_mismatch", "conflict", "rate_limited", "service_unavailable"],
    auth: { kind: "bearer", scope: "identity:write", capability: "white_label" },
    rateLimit: SUB_LIMITS.identityChecks,
    body: createIdentityCheckBodySchema,
    idempotent: true,
    // Opened once the provider has answered: its call (up to 4 s) holds no transaction.
    transactionKind: deferredTransaction,
    handler: async ({ tenant, now, body, transaction }) =>
      created(await runIdentityCheck({ tenant, now, applicationId: body.application_id, people: body.people, transaction })),
  }),
});
