// Every page's response headers (docs/architecture.md, "Pages"), set by proxy.ts: a Content-Security-Policy whose
// scripts run only with the response's nonce (Next.js puts it on its own scripts when it finds the policy on the
// request), and `frame-ancestors 'none'` unless the page is meant to be framed. Only the hosted journey is: by our
// own pages, and by the page that started the application through the apply.js widget (lib/journey/framing.ts).
// A page whose parts need more than the base policy says which kind it is here, never in its own file. An error
// page a route handler writes itself carries its own policy (lib/errors.ts, `renderErrorPage`).
import { config } from "../env";

/**
 * `journey`: the hosted application journey (/apply/{token}/…). `api-reference`: /docs/api, whose Scalar renderer
 * writes its styles into the page. `widget-demo`: /v1/demo, a partner's page that opens the journey through
 * apply.js. `sign-in`: the sign-in provider's sign-in and consent page (/sso/interaction/{uid}), whose forms'
 * redirects end at the relying party. `account`: the borrower area (/account…), whose sign-in and sign-out forms
 * go on to the sign-in provider at SSO_URL. `dashboard`: the partner dashboard (/dashboard…), whose sign-in and
 * sign-out forms do the same, and which shows secrets once. `page`: everything else (the payment page, the site's
 * pages, a 404).
 */
export type PageKind = "journey" | "api-reference" | "widget-demo" | "sign-in" | "account" | "dashboard" | "page";

const JOURNEY_PATH = /^\/apply\/(?!v1(?:\/|$))([^/]+)/;
const SIGN_IN_PATH = /^\/sso\/interaction\/([^/]+)\/?$/;

export function pageKindOf(pathname: string): PageKind {
  if (JOURNEY_PATH.test(pathname)) return "journey";
  if (pathname === "/docs/api") return "api-reference";
  if (pathname === "/v1/demo") return "widget-demo";
  if (SIGN_IN_PATH.test(pathname)) return "sign-in";
  if (/^\/account(\/|$)/.test(pathname)) return "account";
  if (/^\/dashboard(\/|$)/.test(pathname)) return "dashboard";
  return "page";
}

/** The interaction uid of a sign-in page's address. */
export function signInInteractionOf(pathname: string): string | null {
  return SIGN_IN_PATH.exec(pathname)?.[1] ?? null;
}

/** The handoff token of a journey page's address. */
export function journeyTokenOf(pathname: string): string | null {
  return JOURNEY_PATH.exec(pathname)?.[1] ?? null;
}

/**
 * The pages that read the database for a token in their address (the journey's steps, the payment page): each
 * view spends from the address's hosted-page bucket (proxy.ts). The journey's form posts and status checks and
 * the payment page's bank posts are route handlers with buckets of their own.
 */
export function isHostedPage(method: string, pathname: string): boolean {
  if (method !== "GET" && method !== "HEAD") return false;
  const journey = /^\/apply\/(?!v1$)[^/]+(?:\/([^/]+))?\/?$/.exec(pathname);
  if (journey) return journey[1] !== "status";
  return /^\/pay\/[^/]+\/?$/.test(pathname) || SIGN_IN_PATH.test(pathname);
}

const originOf = (url: string) => new URL(url).origin;

/**
 * `formTargets`: on a sign-in page, the origins of its client's redirect URIs. Chromium applies form-action to the
 * redirects that follow a form post, and Allow (or a sign-in the person already consented to) ends at the client.
 */
export function pageContentSecurityPolicy(kind: PageKind, nonce: string, embeddingOrigin: string | null = null, formTargets: readonly string[] = []): string {
  // The development server evaluates its modules' source; a production build never does.
  const devScriptSources = config().NODE_ENV === "production" ? "" : " 'unsafe-eval'";
  // apply.js on the demo page calls the start endpoint and frames the journey, both on APPLY_URL.
  const applyOrigin = kind === "widget-demo" ? ` ${originOf(config().APPLY_URL)}` : "";
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${devScriptSources}`,
    // Scalar writes its stylesheet into the page at run time; no other page has an inline style.
    kind === "api-reference" ? "style-src 'self' 'unsafe-inline'" : "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${applyOrigin}`,
    `frame-src 'self'${applyOrigin}`,
    "object-src 'none'",
    "base-uri 'none'",
    kind === "sign-in" ? ["form-action 'self'", ...formTargets].join(" ") : kind === "account" || kind === "dashboard" ? `form-action 'self' ${originOf(config().SSO_URL)}` : "form-action 'self'",
    kind === "journey" ? `frame-ancestors 'self'${embeddingOrigin ? ` ${embeddingOrigin}` : ""}` : "frame-ancestors 'none'",
  ].join("; ");
}

/** Headers each kind of page carries beside its policy. */
export function pageHeaders(kind: PageKind): Readonly<Record<string, string>> {
  // The journey's address carries the handoff token: no Referer, no copy kept. (The payment page sets its
  // referrer policy in its markup: `no-referrer` would blank the Origin its own form posts are checked by.)
  if (kind === "journey") return { "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store" };
  if (kind === "sign-in") return { "Referrer-Policy": "same-origin", "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store" };
  // A person's own accounts: never kept by a shared cache or the browser's back button after signing out.
  // A team's keys and the secret just made: the same.
  if (kind === "account" || kind === "dashboard") return { "Referrer-Policy": "same-origin", "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store" };
  return { "X-Content-Type-Options": "nosniff" };
}
