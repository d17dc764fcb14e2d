// What a handler answers: a status, a body to render as JSON (or rendered already) and headers.
import { RenderedJson } from "../wire/rendered-json";
import { jsonResponse, wholeBodyResponse } from "../wire/whole-body";

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * The statuses of replies a handler returns itself (a 503 that carries the public health object, say; a 303
 * that sends a browser's form post back to its page).
 */
export type ReplyStatus = 200 | 201 | 202 | 204 | 303 | 503;

export const ok = (body: unknown, headers?: Record<string, string>): Reply => ({ status: 200, body, headers });
export const created = (body: unknown, headers?: Record<string, string>): Reply => ({ status: 201, body, headers });
export const reply = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({ status, body, headers });

export function toResponse(result: Reply | Response): Response {
  if (result instanceof Response) return result;
  if (result.body instanceof RenderedJson) {
    return wholeBodyResponse(result.body.bytes, { status: result.status, headers: { "content-type": "application/json", ...result.headers } });
  }
  return jsonResponse(result.body, { status: result.status, headers: result.headers });
}
