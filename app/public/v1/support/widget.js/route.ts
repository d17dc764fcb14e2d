// GET /public/v1/support/widget.js — the support widget's self-contained script (spec 4.8); 304 on a matching ETag.
import { defineRoute, endpoint } from "@/lib/http/route";
import { staticAssetQuerySchema, staticAssetSchema } from "@/lib/wire/static-asset";
import { WIDGET_ASSETS, widgetAssetResponse } from "@/lib/support/widget-assets";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("public", "/support/widget.js", {
  GET: endpoint({
    summary: "The support widget's script",
    description: "Cacheable; answers 304 to a matching `If-None-Match`.",
    responses: { 200: staticAssetSchema("text/javascript") },
    auth: { kind: "none" },
    query: staticAssetQuerySchema,
    handler: ({ request }) => widgetAssetResponse(request, WIDGET_ASSETS.script),
  }),
});
