// GET /public/v1/config/pricing — the authoritative pricing configuration, with its version (spec 4.8).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { pricingConfiguration } from "@/lib/pricing/public-service";
import { pricingConfigurationSchema } from "@/lib/pricing/schemas";

const CACHEABLE = { "Cache-Control": "public, max-age=60" };

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("public", "/config/pricing", {
  GET: endpoint({
    summary: "The pricing configuration",
    responses: { 200: pricingConfigurationSchema },
    auth: { kind: "none" },
    handler: async () => ok(await pricingConfiguration(), CACHEABLE),
  }),
});
