// POST /pay/{token}/bank — the payment page's simulated bank (sandbox): Approve or Fail, as an HTML form post
// that works without JavaScript, answered with a redirect back to the page, which shows the outcome. A person's
// browser shows what it answers, so a refusal is a page (lib/errors.ts), and each address has a bucket of posts.
import { defineRoute, endpoint } from "@/lib/http/route";
import { answerAtSandboxBank, assertFormOrigin } from "@/lib/accounts/payment-links";
import { bankResponseFormSchema, paymentLinkTokenParamsSchema } from "@/lib/payments/schemas";
import { PAYMENT_BANK_LIMIT } from "@/lib/ratelimit/policies";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/pay/{token}/bank", {
  POST: endpoint({
    summary: "Answer a sandbox payment link at the simulated bank",
    params: paymentLinkTokenParamsSchema,
    body: bankResponseFormSchema,
    bodyFormat: "form",
    errorFormat: "page",
    auth: { kind: "none", addressLimit: PAYMENT_BANK_LIMIT },
    responses: { 303: null },
    errors: ["not_found", "csrf_token_invalid"],
    handler: async ({ request, params, body }) => {
      assertFormOrigin(request.headers.get("origin"), request.headers.get("host"));
      await answerAtSandboxBank({ linkToken: params.token, formToken: body.form_token, decision: body.decision });
      return new Response(null, { status: 303, headers: { location: `/pay/${params.token}` } });
    },
  }),
});
