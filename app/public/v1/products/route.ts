// GET /public/v1/products — the product catalogue (spec 2.10), from the pricing configuration.
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { productCatalogue } from "@/lib/pricing/public-service";
import { productCatalogueSchema } from "@/lib/pricing/schemas";

const CACHEABLE = { "Cache-Control": "public, max-age=60" };

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("public", "/products", {
  GET: endpoint({
    summary: "The product catalogue",
    responses: { 200: productCatalogueSchema },
    auth: { kind: "none" },
    handler: async () => ok(await productCatalogue(), CACHEABLE),
  }),
});
