// What a page response carries beyond its body, decided once for both places that answer with a page: proxy.ts
// (before Next renders it) and the page cache (lib/pages/page-cache.ts, which replays a page rendered earlier).
// A fresh nonce, the page kind's Content-Security-Policy built on it and the kind's other headers
// (lib/pages/security-headers.ts), and, for a browser without a well-formed CSRF cookie, a new one (lib/wire/csrf.ts).
import { config } from "../env";
import { CSRF_COOKIE, csrfCookieHeader, isWellFormedCsrfToken, newCsrfToken } from "../wire/csrf";
import { requestCookie } from "../wire/request-cookie";
import { pageHeaders, type PageKind } from "./security-headers";

/** 16 random bytes, base64: the value of a response's `'nonce-…'` and of its scripts' nonce attributes. */
export function newPageNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
}

/** What the CSRF decision reads from a page request. */
export interface PageRequestFacts {
  method: string;
  accept: string | null;
  cookie: string | null;
}

/**
 * The token to set with this page view, or null: only a page view (GET or HEAD, not a script's request for JSON)
 * whose browser has no well-formed token yet gets one.
 */
export function csrfTokenToIssue(request: PageRequestFacts): string | null {
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  const accept = request.accept ?? "";
  if (accept.includes("application/json") && !accept.includes("text/html")) return null;
  const token = requestCookie(request.cookie, CSRF_COOKIE) ?? null;
  return token === null || !isWellFormedCsrfToken(token) ? newCsrfToken() : null;
}

/** The headers of a `kind` page answered under `nonce`, with the CSRF cookie when one is issued. */
export function pageResponseHeaders(kind: PageKind, policy: string, csrfToken: string | null, servedOverHttps: boolean): [string, string][] {
  const headers: [string, string][] = [["Content-Security-Policy", policy], ...Object.entries(pageHeaders(kind))];
  if (csrfToken) headers.push(["Set-Cookie", csrfCookieHeader(csrfToken, servedOverHttps)]);
  return headers;
}

/** Whether a page's CSRF cookie is `Secure`: served over HTTPS here, or behind a site whose address is HTTPS. */
export function isServedOverHttps(protocol: string): boolean {
  return protocol === "https:" || config().BASE_URL.startsWith("https:");
}
