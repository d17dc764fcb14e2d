// GET /public/v1/quote/onetime — a representative Business Loan quote in pounds (docs/public-api.md).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { oneTimeQuote, oneTimeQuoteQuerySchema } from "@/lib/pricing/public-service";

const CACHEABLE = { "Cache-Control": "public, max-age=60" };

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("public", "/quote/onetime", {
  GET: endpoint({
    query: oneTimeQuoteQuerySchema,
    handler: async ({ query }) => ok(await oneTimeQuote(query), CACHEABLE),
  }),
});
