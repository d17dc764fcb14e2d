// POST /partner/v1/test_helpers/clock/advance — sandbox test helper: moves the project's sandbox clock on by
// `days` and runs everything due on the way before answering (docs/sandbox.md, "Test clock").
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { advanceClockBodySchema } from "@/lib/sandbox-clock/schemas";
import { advanceTestClock, advanceTransaction } from "@/lib/sandbox-clock/service";
import { testClockSchema } from "@/lib/sandbox-clock/serialize";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/test_helpers/clock/advance", {
  POST: endpoint({
    summary: "Advance the project's sandbox test clock, running what falls due (sandbox)",
    responses: { 200: testClockSchema },
    scope: "applications:write",
    sandboxOnly: true,
    body: advanceClockBodySchema,
    // Advancing is not idempotent by nature: with an Idempotency-Key, a retried advance replays the first answer.
    idempotent: true,
    transactionKind: advanceTransaction,
    handler: async ({ tenant, body, transaction }) => ok(await advanceTestClock({ tenant, days: body.days, transaction })),
  }),
});
