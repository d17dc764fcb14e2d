// Small helpers for asserting the spec 7.1 envelope over HTTP.
import { expect } from "vitest";

export interface ErrorBody {
  error: {
    code: string;
    type: string;
    message: string;
    detail?: Array<{ field?: string; reason: string; message?: string }>;
    correlation_id: string;
    retryable: boolean;
    retry_after_ms?: number;
  };
}

/** Asserts status, code and the envelope's invariants; returns the parsed body for further checks. */
export async function expectApiError(response: Response, status: number, code: string): Promise<ErrorBody> {
  const text = await response.text();
  expect({ status: response.status, body: text }).toMatchObject({ status });
  const body = JSON.parse(text) as ErrorBody;
  expect(body.error.code).toBe(code);
  expect(body.error.correlation_id).toMatch(/^cor_[0-9a-z]{26}$/);
  expect(response.headers.get("x-service-correlation-id")).toBe(body.error.correlation_id);
  expect(response.headers.get("x-request-id")).toMatch(/^req_[0-9a-z]{26}$/);
  expect(response.headers.get("content-type")).toContain("application/json");
  expect(typeof body.error.message).toBe("string");
  expect(typeof body.error.retryable).toBe("boolean");
  return body;
}

export function jsonRequest(method: string, body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { method, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) };
}

/** Asserts the status (showing the body on failure) and parses the JSON body. */
export async function expectJson<T = Record<string, any>>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect({ status: response.status, body: text }).toMatchObject({ status });
  return JSON.parse(text) as T;
}

/** A site endpoint's error (spec 7.4): `{ok: false, error}` with the status, the message matching `message`. */
export async function expectSiteError(response: Response, status: number, message: RegExp): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toContain("application/json");
  expect(await response.json()).toEqual({ ok: false, error: expect.stringMatching(message) });
}

/** An error answered as a page a person reads (format `page`, lib/errors.ts): its status, heading, and its own strict policy. */
export async function expectErrorPage(response: Response, status: number, heading: string): Promise<string> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
  expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
  const page = await response.text();
  expect(page).toContain(`<h1>${heading}</h1>`);
  return page;
}
