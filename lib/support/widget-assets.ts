// Serves the support widget's script and stylesheet (spec 4.8): cacheable for an hour, with a strong ETag from the
// content so a browser revalidates cheaply (304 on a matching If-None-Match) and a new release is picked up.
import { createHash } from "node:crypto";
import { z } from "zod";
import { requestString } from "../http/request-string";
import { text } from "../http/response-schema";
import { WIDGET_SCRIPT, WIDGET_STYLESHEET, WIDGET_VERSION } from "./widget-source";

export interface WidgetAsset {
  body: string;
  contentType: string;
  etag: string;
}

function asset(body: string, contentType: string): WidgetAsset {
  const digest = createHash("sha256").update(body).digest("base64url").slice(0, 27);
  return { body, contentType, etag: `"${digest}"` };
}

export const WIDGET_ASSETS = {
  script: asset(WIDGET_SCRIPT, "text/javascript; charset=utf-8"),
  stylesheet: asset(WIDGET_STYLESHEET, "text/css; charset=utf-8"),
} as const;

/** An embedder may add a cache-busting `v`; it does not change the content. Anything else is 400 `unknown_field`. */
export const widgetQuerySchema = z.strictObject({ v: requestString().max(64).optional() });

/** True when If-None-Match names `etag` (weak comparison, RFC 9110 13.1.2: a W/ prefix is ignored) or is `*`. */
export function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((candidate) => {
    const tag = candidate.trim();
    return tag === "*" || tag.replace(/^W\//, "") === etag;
  });
}

export function widgetAssetResponse(request: Request, widgetAsset: WidgetAsset): Response {
  const headers = {
    "Cache-Control": "public, max-age=3600",
    ETag: widgetAsset.etag,
    "X-Widget-Version": WIDGET_VERSION,
    "X-Content-Type-Options": "nosniff",
  };
  if (matchesIfNoneMatch(request.headers.get("if-none-match"), widgetAsset.etag)) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(widgetAsset.body, { status: 200, headers: { ...headers, "Content-Type": widgetAsset.contentType } });
}

/** The reply of an asset route, for the API reference: text of the asset's type. */
export function widgetAssetSchema(contentType: "text/css" | "text/javascript") {
  return text().meta({ contentMediaType: contentType });
}
