// GET /public/v1/support/widget.js — the support widget's self-contained script (spec 4.8); 304 on a matching ETag.
import { defineRoute, endpoint } from "@/lib/http/route";
import { WIDGET_ASSETS, widgetAssetResponse, widgetQuerySchema } from "@/lib/support/widget-assets";
import { widgetAssetSchema } from "@/lib/support/widget-assets";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("public", "/support/widget.js", {
  GET: endpoint({
    summary: "The support widget's script",
    description: "Cacheable; answers 304 to a matching `If-None-Match`.",
    responses: { 200: widgetAssetSchema("text/javascript") },
    query: widgetQuerySchema,
    handler: ({ request }) => widgetAssetResponse(request, WIDGET_ASSETS.script),
  }),
});
