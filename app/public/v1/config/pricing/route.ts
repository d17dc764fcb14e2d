// GET /public/v1/config/pricing — the authoritative pricing configuration, with its version (spec 4.8).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { pricingConfiguration } from "@/lib/pricing/public-service";

const CACHEABLE = { "Cache-Control": "public, max-age=60" };

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("public", "/config/pricing", {
  GET: endpoint({
    handler: async () => ok(await pricingConfiguration(), CACHEABLE),
  }),
});
