// The site's CSRF double-submit (spec 5.3): every page view without the cookie gets `svc_csrf`, a random token
// (proxy.ts), and the site's own scripts echo it in `X-CSRF-Token`. Another origin can make a browser send the
// cookie, but cannot read it to write the header, and SameSite=Strict keeps the cookie off its requests anyway.
// The cookie is readable by script on purpose: the chat panel needs to copy it into the header.
import { timingSafeEqual } from "node:crypto";
import { config } from "../env";
import { ApiError } from "../errors";
import { requestCookie } from "./request-cookie";

export const CSRF_COOKIE = "svc_csrf";
export const CSRF_HEADER = "X-CSRF-Token";

/** 32 random bytes, base64url: 43 characters that need no escaping in a cookie or a header. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newCsrfToken(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
}

/** The `Set-Cookie` value for a new token; `Secure` when the page was served over HTTPS. No Max-Age: it lives as long as the browser session. */
export function csrfCookieHeader(token: string, secure: boolean): string {
  return `${CSRF_COOKIE}=${token}; Path=/; SameSite=Strict${secure ? "; Secure" : ""}`;
}

/** The token the request's `Cookie` header carries, if any (the first `svc_csrf` when a browser sends several). */
export function csrfCookieOf(request: Request): string | null {
  return requestCookie(request.headers.get("cookie"), CSRF_COOKIE) ?? null;
}

export function isWellFormedCsrfToken(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}

/** Whether `echoed` (a header or a form field) echoes the cookie: both present, both well-formed, equal in constant time. */
export function csrfTokensMatch(cookie: string | null | undefined, echoed: string | null | undefined): boolean {
  if (!cookie || !echoed || !isWellFormedCsrfToken(cookie) || !isWellFormedCsrfToken(echoed)) return false;
  return timingSafeEqual(Buffer.from(cookie), Buffer.from(echoed));
}

/** Whether the request's `X-CSRF-Token` header echoes its cookie. */
export function hasMatchingCsrfToken(request: Request): boolean {
  return csrfTokensMatch(csrfCookieOf(request), request.headers.get(CSRF_HEADER));
}

/**
 * A plain HTML form of our pages (the Apply form, the dashboard's): 403 `csrf_token_invalid` unless the form's
 * `csrf_token` field echoes the cookie and, when the browser names its origin, the post comes from our site.
 */
export function assertFormFromOurSite(options: { formToken: string | undefined; cookieToken: string | null; origin: string | null; host: string | null }): void {
  const { formToken, cookieToken, origin, host } = options;
  if (!csrfTokensMatch(cookieToken, formToken)) throw new ApiError("csrf_token_invalid");
  if (origin === null) return;
  let from: URL;
  try {
    from = new URL(origin);
  } catch {
    throw new ApiError("csrf_token_invalid");
  }
  if (from.origin !== new URL(config().BASE_URL).origin && from.host !== host) throw new ApiError("csrf_token_invalid");
}
