// GET /public/v1/loyalty/tiers — the loyalty ladder and its cooldown (spec 2.10).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { loyaltyLadder } from "@/lib/loyalty/tiers";

const CACHEABLE = { "Cache-Control": "public, max-age=60" };

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("public", "/loyalty/tiers", {
  GET: endpoint({
    handler: async () => ok(await loyaltyLadder(), CACHEABLE),
  }),
});
