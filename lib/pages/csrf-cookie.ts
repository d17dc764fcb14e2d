// The site's CSRF cookie (issue 29, item 2): `svc_csrf`, random, SameSite=Strict, Secure on HTTPS, set by proxy.ts
// on a page when the browser has none. A site form (a hidden field) or the assistant (a header) echoes it, and the
// endpoint compares the two: a page on another site can read neither, nor make the browser send the cookie.
import { config } from "../env";

export const CSRF_COOKIE = "svc_csrf";

/** The pages that need the cookie on their first view: the Apply page's form carries it. */
export function pageNeedsCsrfCookie(pathname: string): boolean {
  return pathname === "/apply" || pathname === "/apply/";
}

export function newCsrfToken(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
}

/** Secure when the site is served over HTTPS (BASE_URL), whatever a TLS-terminating proxy forwards. */
export function csrfCookieHeader(token: string): string {
  const secure = new URL(config().BASE_URL).protocol === "https:";
  return `${CSRF_COOKIE}=${token}; Path=/; SameSite=Strict${secure ? "; Secure" : ""}`;
}
