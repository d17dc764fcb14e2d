// GET /partner/v1/test_helpers/clock — sandbox test helper: the project's sandbox time (docs/sandbox.md, "Test clock").
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { retrieveTestClock } from "@/lib/sandbox-clock/service";
import { testClockSchema } from "@/lib/sandbox-clock/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/test_helpers/clock", {
  GET: endpoint({
    summary: "Read the project's sandbox test clock (sandbox)",
    responses: { 200: testClockSchema },
    auth: { kind: "bearer", scope: "applications:write", sandboxOnly: true },
    handler: async ({ tenant }) => ok(await retrieveTestClock({ tenant })),
  }),
});
