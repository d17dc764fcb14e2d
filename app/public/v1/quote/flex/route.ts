// GET /public/v1/quote/flex — a representative Flex draw and its repayments (docs/public-api.md).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { flexQuote, flexQuoteQuerySchema } from "@/lib/pricing/public-service";
import { flexQuoteSchema } from "@/lib/pricing/schemas";

const CACHEABLE = { "Cache-Control": "public, max-age=60" };

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("public", "/quote/flex", {
  GET: endpoint({
    summary: "Quote a Flex draw",
    description: "`limit` and `draw` in whole pounds (draw defaults to the limit), `months` to repay (default 3).",
    responses: { 200: flexQuoteSchema },
    auth: { kind: "none" },
    query: flexQuoteQuerySchema,
    handler: async ({ query }) => ok(await flexQuote(query), CACHEABLE),
  }),
});
