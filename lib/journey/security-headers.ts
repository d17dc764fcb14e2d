// The hosted journey's response headers (docs/hosted-journey.md, "Security"): a strict Content-Security-Policy
// whose scripts run only with this response's nonce (Next.js puts it on its own scripts when it finds the policy
// on the request), framing by our own pages only (and by the page that started the application through the
// apply.js widget, lib/journey/framing.ts), and no Referer ever: the address carries the handoff token.
import { config } from "../env";

export function journeyContentSecurityPolicy(nonce: string, embeddingOrigin: string | null = null): string {
  // The development server evaluates its modules' source; a production build never does.
  const devScriptSources = config().NODE_ENV === "production" ? "" : " 'unsafe-eval'";
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${devScriptSources}`,
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors 'self'${embeddingOrigin ? ` ${embeddingOrigin}` : ""}`,
  ].join("; ");
}

/** Headers every journey page carries beside its policy. */
export const JOURNEY_HEADERS: Readonly<Record<string, string>> = {
  "Referrer-Policy": "no-referrer",
  "X-Content-Type-Options": "nosniff",
  "Cache-Control": "no-store",
};
