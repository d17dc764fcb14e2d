// The reference page's renderer: Scalar's standalone bundle (@scalar/api-reference), served from our own
// origin so the page needs no CDN. Streamed from node_modules; its version is its ETag, so a browser
// revalidates cheaply and an upgrade is picked up.
import { createReadStream, readFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";

const PACKAGE_DIRECTORY = path.resolve(process.cwd(), "node_modules", "@scalar", "api-reference");
const BUNDLE = path.join(PACKAGE_DIRECTORY, "dist", "browser", "standalone.js");

let version: string | undefined;

function rendererVersion(): string {
  version ??= (JSON.parse(readFileSync(path.join(PACKAGE_DIRECTORY, "package.json"), "utf8")) as { version: string }).version;
  return version;
}

/** The bundle, or 304 when the browser has this version already. */
export function rendererResponse(ifNoneMatch: string | null): Response {
  const etag = `"scalar-${rendererVersion()}"`;
  const headers = { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=86400", etag };
  if (ifNoneMatch === etag) return new Response(null, { status: 304, headers });
  return new Response(Readable.toWeb(createReadStream(BUNDLE)) as ReadableStream<Uint8Array>, { headers });
}
