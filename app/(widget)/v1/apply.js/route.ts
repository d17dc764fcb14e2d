// GET /v1/apply.js on JS_URL — the apply.js widget's script (docs/apply-js.md); 304 on a matching ETag.
import { APPLY_JS_VERSION, applyScriptAsset } from "@/lib/apply-widget/script";
import { defineRoute, endpoint } from "@/lib/http/route";
import { staticAssetQuerySchema, staticAssetResponse, staticAssetSchema } from "@/lib/wire/static-asset";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/v1/apply.js", {
  GET: endpoint({
    summary: "The apply.js widget's script",
    description: "`LendingApply.open(...)` starts an application with a publishable key and opens its hosted journey. Cacheable for five minutes; answers 304 to a matching `If-None-Match`.",
    responses: { 200: staticAssetSchema("text/javascript") },
    auth: { kind: "none" },
    query: staticAssetQuerySchema,
    handler: ({ request }) =>
      staticAssetResponse(request, applyScriptAsset(), {
        maxAgeSeconds: 300,
        // Loadable by a page that requires its subresources to opt in to being embedded (COEP require-corp).
        headers: { "X-Apply-Js-Version": APPLY_JS_VERSION, "Cross-Origin-Resource-Policy": "cross-origin" },
      }),
  }),
});
