// POST /apply/{token}/{step}/form — a step's form of the hosted journey, posted as HTML forms post, without
// JavaScript: the answer, or the step's refusal shown on its page, then a redirect (303) to where the browser
// goes next (docs/hosted-journey.md). The journey's form token guards every form (CSRF). What else refuses a post
// (a wrong form token, an unknown link, the address's limit) the browser shows as it is, so it is a page.
import { defineRoute, endpoint } from "@/lib/http/route";
import { answerStep } from "@/lib/journey/journey";
import { journeyFormSchema, journeyStepParamsSchema } from "@/lib/journey/schemas";
import { JOURNEY_FORM_LIMIT } from "@/lib/ratelimit/policies";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/apply/{token}/{step}/form", {
  POST: endpoint({
    summary: "Answer a step of the hosted application journey",
    params: journeyStepParamsSchema,
    body: journeyFormSchema,
    bodyFormat: "form",
    errorFormat: "page",
    auth: { kind: "none", addressLimit: JOURNEY_FORM_LIMIT },
    responses: { 303: null },
    errors: ["not_found", "csrf_token_invalid"],
    handler: async ({ params, body }) => new Response(null, { status: 303, headers: { location: await answerStep(params.token, params.step, body) } }),
  }),
});
