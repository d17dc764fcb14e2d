// GET /public/v1/loyalty/tiers — the loyalty ladder and its cooldown (spec 2.10).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { loyaltyLadder } from "@/lib/loyalty/tiers";
import { loyaltyLadderSchema } from "@/lib/loyalty/schemas";

const CACHEABLE = { "Cache-Control": "public, max-age=60" };

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("public", "/loyalty/tiers", {
  GET: endpoint({
    summary: "The loyalty tiers",
    responses: { 200: loyaltyLadderSchema },
    auth: { kind: "none" },
    handler: async () => ok(await loyaltyLadder(), CACHEABLE),
  }),
});
