// Reads a request body within the size cap and decodes it. Every failure is a typed 4xx, never a 500, or the
// client's own hang-up (ClientAbortedError).
import { ApiError } from "../errors";
import type { Ring } from "../errors";
import { Readable } from "node:stream";
import { ClientAbortedError } from "../wire/error-outcome";
import { nodeBodyOf } from "../wire/node-body-request";

export type BodyFormat = "json" | "form";

const ACCEPTED_MEDIA_TYPES: Record<BodyFormat, (mediaType: string) => boolean> = {
  json: (mediaType) => mediaType === "application/json" || /^application\/[\w.+-]+\+json$/.test(mediaType),
  form: (mediaType) => mediaType === "application/x-www-form-urlencoded",
};

function tooLarge(ring: Ring, limit: number): ApiError {
  const message = `The request body exceeds the ${limit}-byte limit.`;
  return new ApiError(ring === "public" ? "request_body_too_large" : "payload_too_large", { message });
}

// An oversize body is still read (and discarded) up to this many times the cap before the 413 is sent: a
// client that is mid-upload when the server answers sees a connection reset instead of the error.
const DRAIN_FACTOR = 8;

/** The raw bytes; past `limit` nothing more is kept, and past the drain bound the upload is cut off. */
async function readWithinLimit(request: Request, limit: number, ring: Ring): Promise<Uint8Array> {
  const drainLimit = limit * DRAIN_FACTOR;
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > drainLimit) {
    const unread = nodeBodyOf(request) ?? request.body;
    if (unread instanceof Readable) unread.destroy();
    else await unread?.cancel().catch(() => undefined);
    throw tooLarge(ring, limit);
  }
  const source: AsyncIterable<Uint8Array> | null = nodeBodyOf(request) ?? request.body;
  if (!source) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    // Leaving the loop early cancels the stream (destroys Node's): the rest of an oversize upload is not read.
    for await (const chunk of source) {
      size += chunk.byteLength;
      if (size > drainLimit) break;
      if (size <= limit) chunks.push(chunk);
    }
  } catch (cause) {
    // A body stream fails here only because the connection did.
    throw new ClientAbortedError("The client closed the request before its body arrived.", { cause });
  }
  if (size > limit) throw tooLarge(ring, limit);
  return Buffer.concat(chunks);
}

/**
 * The decoded body, or `undefined` when the request has none. The Content-Type is only required when there
 * is a body: an empty POST to an action with optional fields is fine.
 */
export async function readBody(request: Request, options: { format: BodyFormat; limit: number; ring: Ring }): Promise<unknown> {
  const bytes = await readWithinLimit(request, options.limit, options.ring);
  if (bytes.byteLength === 0) return undefined;

  const contentType = request.headers.get("content-type");
  const expected = options.format === "json" ? "application/json" : "application/x-www-form-urlencoded";
  if (!contentType) {
    throw new ApiError("missing_content_type", { message: `The request has a body but no Content-Type; send ${expected}.` });
  }
  const mediaType = contentType.split(";")[0]!.trim().toLowerCase();
  if (!ACCEPTED_MEDIA_TYPES[options.format](mediaType)) {
    throw new ApiError("unsupported_media_type", { message: `Content-Type ${mediaType} is not supported; send ${expected}.` });
  }

  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  if (options.format === "form") return searchParamsToObject(new URLSearchParams(text));
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError("invalid_json", { message: "The request body is not valid JSON." });
  }
}

/** Query or form parameters as an object of strings; a repeated parameter is an error, never a silent pick. */
export function searchParamsToObject(params: URLSearchParams): Record<string, string> {
  const query: Record<string, string> = {};
  const repeated = new Set<string>();
  for (const [key, value] of params) {
    if (key in query) repeated.add(key);
    query[key] = value;
  }
  if (repeated.size > 0) {
    throw new ApiError("validation_failed", {
      detail: [...repeated].map((field) => ({ field, reason: "repeated", message: `${field} may appear only once.` })),
    });
  }
  return query;
}
