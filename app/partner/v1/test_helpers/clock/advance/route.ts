// POST /partner/v1/test_helpers/clock/advance — sandbox test helper: moves the project's sandbox clock on by
// `days`, running everything due on the way: 200 when done within a few seconds, else 202 while it goes on
// (docs/sandbox.md, "Test clock").
import { advanceTestClockRunningDueWork } from "@/lib/background/catalogue";
import { defineRoute, endpoint, reply } from "@/lib/http/route";
import { advanceClockBodySchema, testClockSchema } from "@/lib/sandbox-clock/schemas";
import { advanceOutcome } from "@/lib/sandbox-clock/service";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/test_helpers/clock/advance", {
  POST: endpoint({
    summary: "Advance the project's sandbox test clock, running what falls due (sandbox)",
    responses: { 200: testClockSchema, 202: testClockSchema },
    errors: ["conflict"],
    auth: { kind: "bearer", scope: "applications:write", sandboxOnly: true },
    body: advanceClockBodySchema,
    // Advancing is not idempotent by nature: with an Idempotency-Key, a retried advance replays the first answer.
    idempotent: true,
    transactionKind: advanceOutcome,
    handler: async ({ tenant, body }) => {
      const advanced = await advanceTestClockRunningDueWork({ tenant, days: body.days });
      return reply(advanced.status === "ready" ? 200 : 202, advanced);
    },
  }),
});
