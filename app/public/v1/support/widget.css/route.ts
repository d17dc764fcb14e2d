// GET /public/v1/support/widget.css — the support widget's stylesheet (spec 4.8); 304 on a matching ETag.
import { defineRoute, endpoint } from "@/lib/http/route";
import { staticAssetQuerySchema, staticAssetSchema } from "@/lib/wire/static-asset";
import { WIDGET_ASSETS, widgetAssetResponse } from "@/lib/support/widget-assets";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("public", "/support/widget.css", {
  GET: endpoint({
    summary: "The support widget's stylesheet",
    description: "Cacheable; answers 304 to a matching `If-None-Match`.",
    responses: { 200: staticAssetSchema("text/css") },
    auth: { kind: "none" },
    query: staticAssetQuerySchema,
    handler: ({ request }) => widgetAssetResponse(request, WIDGET_ASSETS.stylesheet),
  }),
});
