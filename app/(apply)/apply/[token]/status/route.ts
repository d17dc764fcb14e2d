// GET /apply/{token}/status — where a hosted journey's application stands, for its waiting page to move on by
// itself when the decision lands (docs/hosted-journey.md). Only the step: nothing about the applicant.
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { journeyStatus } from "@/lib/journey/journey";
import { journeyStatusSchema, journeyTokenParamsSchema } from "@/lib/journey/schemas";
import { JOURNEY_STATUS_LIMIT } from "@/lib/ratelimit/policies";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/apply/{token}/status", {
  GET: endpoint({
    summary: "Where a hosted journey's application stands",
    params: journeyTokenParamsSchema,
    auth: { kind: "none", addressLimit: JOURNEY_STATUS_LIMIT },
    responses: { 200: journeyStatusSchema },
    errors: ["not_found"],
    errorFormat: "site",
    handler: async ({ params }) => ok(await journeyStatus(params.token), { "Cache-Control": "no-store" }),
  }),
});
