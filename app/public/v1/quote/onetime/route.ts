// GET /public/v1/quote/onetime — a representative Business Loan quote in pounds (docs/public-api.md).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { oneTimeQuote, oneTimeQuoteQuerySchema } from "@/lib/pricing/public-service";
import { oneTimeQuoteSchema } from "@/lib/pricing/schemas";

const CACHEABLE = { "Cache-Control": "public, max-age=60" };

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("public", "/quote/onetime", {
  GET: endpoint({
    summary: "Quote a Business Loan",
    description:
      "The public ring's Business Loan: `amount` in whole pounds (£50 to £500), `term` in days (14 to 84), a daily rate. " +
      "Partner applications are a different scale (£1,000 to £250,000 over 3 to 60 months, an APR): see the partner API.",
    responses: { 200: oneTimeQuoteSchema },
    auth: { kind: "none" },
    query: oneTimeQuoteQuerySchema,
    handler: async ({ query }) => ok(await oneTimeQuote(query), CACHEABLE),
  }),
});
