// The generated documents (scripts/openapi.ts writes them before the server starts), served with the origin
// each ring is served from, which only the running server knows.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { config } from "../env";
import { ApiError, type Ring } from "../errors";
import { RINGS } from "./document";

export const OPENAPI_DIRECTORY = path.resolve(process.cwd(), "lib", "generated", "openapi");

function originOf(ring: Ring): string {
  const settings = config();
  return { partner: settings.PARTNER_API_URL, public: settings.HUB_URL, site: settings.BASE_URL }[ring];
}

const cache = new Map<Ring, Promise<string>>();

async function readDocument(ring: Ring): Promise<string> {
  try {
    const document = JSON.parse(await readFile(path.join(OPENAPI_DIRECTORY, `${ring}.json`), "utf8")) as Record<string, unknown>;
    document.servers = [{ url: `${originOf(ring)}${RINGS[ring].basePath}` }];
    return JSON.stringify(document);
  } catch {
    throw new ApiError("service_unavailable", { message: "The API reference has not been generated; `npm run openapi` writes it." });
  }
}

/** The ring's OpenAPI document as JSON text, read once per process. */
export function servedDocument(ring: Ring): Promise<string> {
  let document = cache.get(ring);
  if (!document) {
    document = readDocument(ring);
    cache.set(ring, document);
    document.catch(() => cache.delete(ring));
  }
  return document;
}
