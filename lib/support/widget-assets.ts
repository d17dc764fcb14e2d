// Serves the support widget's script and stylesheet (spec 4.8): cacheable for an hour, revalidated by ETag
// (lib/wire/static-asset.ts).
import { staticAsset, staticAssetResponse, type StaticAsset } from "../wire/static-asset";
import { WIDGET_SCRIPT, WIDGET_STYLESHEET, WIDGET_VERSION } from "./widget-source";

export const WIDGET_ASSETS = {
  script: staticAsset(WIDGET_SCRIPT, "text/javascript; charset=utf-8"),
  stylesheet: staticAsset(WIDGET_STYLESHEET, "text/css; charset=utf-8"),
} as const;

export function widgetAssetResponse(request: Request, widgetAsset: StaticAsset): Response {
  return staticAssetResponse(request, widgetAsset, { maxAgeSeconds: 3600, headers: { "X-Widget-Version": WIDGET_VERSION } });
}
