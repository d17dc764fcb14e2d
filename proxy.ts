// Runs before every page (never before the API rings: a hop there would cost every request). Each response gets
// a fresh nonce and its page's headers (lib/pages/security-headers.ts): a Content-Security-Policy and
// `frame-ancestors 'none'`, except the hosted journey's, framed by our own pages and, for an application the
// apply.js widget started, by the page that started it (lib/journey/framing.ts). A view of a page that reads the
// database for the token in its address (the journey, the payment page) spends from its address's bucket first.
// A browser without the site's CSRF cookie gets one with the page (lib/wire/csrf.ts), so the chat panel can call
// the assistant; the cookie is a header on the response, so a page rendered once stays static.
import { NextResponse, type NextRequest } from "next/server";
import { config as settings } from "./lib/env";
import { isHostedPage, journeyTokenOf, pageContentSecurityPolicy, pageHeaders, pageKindOf, signInInteractionOf } from "./lib/pages/security-headers";
import { SHOWN_ONCE_COOKIE, shownOnceExpiry } from "./lib/dashboard/shown-once-cookie";
import { CSRF_COOKIE, csrfCookieHeader, csrfCookieOf, isWellFormedCsrfToken, newCsrfToken } from "./lib/wire/csrf";

export async function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  if (isHostedPage(request.method, pathname)) {
    const refused = await hostedPageRefusal(request);
    if (refused) return refused;
  }
  const kind = pageKindOf(pathname);
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const token = kind === "journey" ? journeyTokenOf(pathname) : null;
  const signIn = kind === "sign-in" ? await signInPageTargets(signInInteractionOf(pathname)!) : null;
  if (signIn instanceof Response) return signIn;
  const policy = pageContentSecurityPolicy(kind, nonce, token ? await embeddingOrigin(token) : null, signIn ?? []);
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", policy);
  // A first view gets its CSRF cookie, and the page sees it already: a form on it (the Apply page's) echoes the value.
  const csrfToken = needsCsrfCookie(request) ? newCsrfToken() : null;
  if (csrfToken) requestHeaders.set("cookie", [withoutCsrfCookie(request.headers.get("cookie")), `${CSRF_COOKIE}=${csrfToken}`].filter(Boolean).join("; "));
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", policy);
  for (const [name, value] of Object.entries(pageHeaders(kind))) response.headers.set(name, value);
  if (csrfToken) response.headers.append("Set-Cookie", csrfCookieHeader(csrfToken, isServedOverHttps(request)));
  // A new key's secret is shown on the one page view that follows its creation (lib/dashboard/shown-once.ts): this
  // view reads the cookie, and its response forgets it, so a reload shows no secret.
  if (kind === "dashboard" && request.method === "GET" && request.cookies.has(SHOWN_ONCE_COOKIE)) response.headers.append("Set-Cookie", shownOnceExpiry(isServedOverHttps(request)));
  return response;
}

// A page view (GET or HEAD, not a script's request for JSON) whose browser has no well-formed token yet.
function needsCsrfCookie(request: NextRequest): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  const accept = request.headers.get("accept") ?? "";
  if (accept.includes("application/json") && !accept.includes("text/html")) return false;
  const token = csrfCookieOf(request);
  return token === null || !isWellFormedCsrfToken(token);
}

/** The request's cookies without a malformed `svc_csrf` the page would otherwise read before the new one. */
function withoutCsrfCookie(header: string | null): string | null {
  if (!header) return null;
  const kept = header.split(";").filter((pair) => pair.split("=", 1)[0]!.trim() !== CSRF_COOKIE);
  return kept.length > 0 ? kept.join(";").trim() : null;
}

function isServedOverHttps(request: NextRequest): boolean {
  return request.nextUrl.protocol === "https:" || settings().BASE_URL.startsWith("https:");
}

// Loaded on the first journey request, not at start: the lookup brings a database client into the proxy's
// bundle, which a process serving only the APIs never needs (its memory counts against npm start's budget).
async function embeddingOrigin(token: string): Promise<string | null> {
  const { embeddingOriginForToken } = await import("./lib/journey/framing");
  return embeddingOriginForToken(token);
}

// Loaded on the first sign-in page, like the framing lookup: the origins its forms' redirects may end at, or, for a
// ticket over 120 seconds old, the 401 page a page cannot answer with itself (spec 5.3, `sso_ticket_expired`).
async function signInPageTargets(uid: string): Promise<string[] | Response> {
  const { interactionView } = await import("./lib/oidc/interaction-view");
  const view = await interactionView(uid);
  if (view?.state !== "expired") return view?.formTargets ?? [];
  const { providerPagePolicy, ticketExpiredPage } = await import("./lib/oidc/pages");
  return new Response(ticketExpiredPage(), {
    status: 401,
    headers: { "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": providerPagePolicy(), "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" },
  });
}

// Loaded on the first hosted page, like the framing lookup.
async function hostedPageRefusal(request: NextRequest): Promise<Response | null> {
  const { refuseHostedPageOverLimit } = await import("./lib/pages/hosted-page-limit");
  return refuseHostedPageOverLimit(request);
}

// Every path but the API rings' and the files they serve (each ring's routes answer for themselves), so a new
// page is covered the day it is added.
export const config = {
  matcher:
    "/((?!partner/|public/|oauth/|api/|mcp$|healthz|openapi/|\\.well-known/|apply/v1/|v1/apply\\.js|docs/api/reference\\.js|_next/|icon\\.svg|favicon\\.ico).*)",
};
