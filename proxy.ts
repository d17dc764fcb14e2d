// Runs before every page (never before the API rings: a hop there would cost every request). Each response gets
// a fresh nonce and its page's headers (lib/pages/security-headers.ts): a Content-Security-Policy and
// `frame-ancestors 'none'`, except the hosted journey's, framed by our own pages and, for an application the
// apply.js widget started, by the page that started it (lib/journey/framing.ts). A view of a page that reads the
// database for the token in its address (the journey, the payment page) spends from its address's bucket first.
// A browser without the site's CSRF cookie gets one with the page (lib/wire/csrf.ts), so the chat panel can call
// the assistant; the cookie is a header on the response, so a page rendered once stays static.
import { NextResponse, type NextRequest } from "next/server";
import { csrfTokenToIssue, isServedOverHttps, newPageNonce, pageResponseHeaders } from "./lib/pages/page-response";
import { isHostedPage, journeyTokenOf, pageContentSecurityPolicy, pageKindOf, signInInteractionOf } from "./lib/pages/security-headers";
import { ONE_VIEW_COOKIES, oneViewCookieExpiry } from "./lib/dashboard/shown-once-cookie";
import { CSRF_COOKIE } from "./lib/wire/csrf";

export async function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  if (isHostedPage(request.method, pathname)) {
    const refused = await hostedPageRefusal(request);
    if (refused) return refused;
  }
  const kind = pageKindOf(pathname);
  const nonce = newPageNonce();
  const token = kind === "journey" ? journeyTokenOf(pathname) : null;
  const signIn = kind === "sign-in" ? await signInPageTargets(signInInteractionOf(pathname)!) : null;
  if (signIn instanceof Response) return signIn;
  const policy = pageContentSecurityPolicy(kind, nonce, token ? await embeddingOrigin(token) : null, signIn ?? []);
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", policy);
  // A first view gets its CSRF cookie, and the page sees it already: a form on it (the Apply page's) echoes the value.
  const csrfToken = csrfTokenToIssue({ method: request.method, accept: request.headers.get("accept"), cookie: request.headers.get("cookie") });
  if (csrfToken) requestHeaders.set("cookie", [withoutCsrfCookie(request.headers.get("cookie")), `${CSRF_COOKIE}=${csrfToken}`].filter(Boolean).join("; "));
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  const secure = isServedOverHttps(request.nextUrl.protocol);
  for (const [name, value] of pageResponseHeaders(kind, policy, csrfToken, secure)) {
    if (name === "Set-Cookie") response.headers.append(name, value);
    else response.headers.set(name, value);
  }
  // A new secret, or a refused form's answers, is shown on the one page view that follows the post
  // (lib/dashboard/sealed-cookie.ts): this view reads the cookie, and its response forgets it, so a reload shows none.
  if (kind === "dashboard" && request.method === "GET") {
    for (const name of ONE_VIEW_COOKIES) if (request.cookies.has(name)) response.headers.append("Set-Cookie", oneViewCookieExpiry(name, secure));
  }
  return response;
}

/** The request's cookies without a malformed `svc_csrf` the page would otherwise read before the new one. */
function withoutCsrfCookie(header: string | null): string | null {
  if (!header) return null;
  const kept = header.split(";").filter((pair) => pair.split("=", 1)[0]!.trim() !== CSRF_COOKIE);
  return kept.length > 0 ? kept.join(";").trim() : null;
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
