// GET /public/v1/support/widget.js — the support widget's self-contained script (spec 4.8); 304 on a matching ETag.
import { defineRoute, endpoint } from "@/lib/http/route";
import { WIDGET_ASSETS, widgetAssetResponse, widgetQuerySchema } from "@/lib/support/widget-assets";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("public", "/support/widget.js", {
  GET: endpoint({
    query: widgetQuerySchema,
    handler: ({ request }) => widgetAssetResponse(request, WIDGET_ASSETS.script),
  }),
});
