// Scripts and stylesheets the platform serves for other sites to embed (the support widget, apply.js): cacheable,
// with a strong ETag from the content so a browser revalidates cheaply (304 on a matching If-None-Match) and a
// new release is picked up once the cached copy is stale.
import { createHash } from "node:crypto";
import { z } from "zod";
import { requestString } from "./request-string";
import { text } from "./response-schema";

export interface StaticAsset {
  body: string;
  contentType: string;
  etag: string;
}

export function staticAsset(body: string, contentType: string): StaticAsset {
  const digest = createHash("sha256").update(body).digest("base64url").slice(0, 27);
  return { body, contentType, etag: `"${digest}"` };
}

/** An embedder may add a cache-busting `v`; it does not change the content. Anything else is 400 `unknown_field`. */
export const staticAssetQuerySchema = z.strictObject({ v: requestString().max(64).optional() });

/** True when If-None-Match names `etag` (weak comparison, RFC 9110 13.1.2: a W/ prefix is ignored) or is `*`. */
export function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((candidate) => {
    const tag = candidate.trim();
    return tag === "*" || tag.replace(/^W\//, "") === etag;
  });
}

/** The asset, or 304 when the browser's copy is current; `headers` are the asset's own (its version, say). */
export function staticAssetResponse(request: Request, asset: StaticAsset, options: { maxAgeSeconds: number; headers?: Record<string, string> }): Response {
  const headers = { "Cache-Control": `public, max-age=${options.maxAgeSeconds}`, ETag: asset.etag, "X-Content-Type-Options": "nosniff", ...options.headers };
  if (matchesIfNoneMatch(request.headers.get("if-none-match"), asset.etag)) return new Response(null, { status: 304, headers });
  return new Response(asset.body, { status: 200, headers: { ...headers, "Content-Type": asset.contentType } });
}

/** The reply of an asset route, for the API reference: text of the asset's type. */
export function staticAssetSchema(contentType: "text/css" | "text/javascript") {
  return text().meta({ contentMediaType: contentType });
}
