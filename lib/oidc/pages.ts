// The pages the sign-in provider answers with itself (not the sign-in and consent pages, which are Next pages):
// an error it cannot send back to the client, sign-out, the expired ticket and too many sign-in attempts. Each
// carries its own policy (nothing runs, nobody frames it) and nothing personal: no email, no name. Plain HTML
// strings, so proxy.ts may answer with one too (oidc-provider's own hooks are lib/oidc/provider-pages.ts).
const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);

/**
 * The policy of every page here: its forms may post to this origin and be redirected on to `formTargets` (Chromium
 * applies form-action to a form's redirects too); no script runs unless `scripts` allows it.
 */
export function providerPagePolicy(formTargets: readonly string[] = [], options: { scripts?: string } = {}): string {
  const formAction = ["'self'", ...formTargets].join(" ");
  return `default-src 'none'; script-src ${options.scripts ?? "'none'"}; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action ${formAction}; frame-ancestors 'none'`;
}

const STYLE = `body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#0b0c0c;background:#fff;line-height:1.5}
main{max-width:36rem;margin:0 auto;padding:2rem 1rem}h1{font-size:1.75rem;line-height:1.2;margin:0 0 1rem}
.error-summary{border:4px solid #d4351c;padding:1rem;margin:0 0 1.5rem}.error-summary h2{margin:0 0 .5rem;font-size:1.25rem}
label{display:block;font-weight:700;margin:1rem 0 .25rem}input{font:inherit;width:100%;box-sizing:border-box;padding:.5rem;border:2px solid #0b0c0c}
button{font:inherit;font-weight:700;margin-top:1.5rem;padding:.6rem 1.2rem;border:0;background:#00703c;color:#fff;cursor:pointer}
button.secondary{background:#f3f2f1;color:#0b0c0c;margin-left:.5rem}.hint{color:#505a5f}`;

export function providerPage(options: { title: string; body: string; head?: string }): string {
  return `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">${options.head ?? ""}
<title>${escapeHtml(options.title)} · Lending Platform sign in</title><style>${STYLE}</style></head>
<body><main>${options.body}</main></body></html>
`;
}

/** The SSO session ticket (our interaction) lasted more than 120 s (spec 5.3: 401 `sso_ticket_expired`). */
export function ticketExpiredPage(): string {
  return providerPage({
    title: "Sign in took too long",
    body: '<h1>Sign in took too long</h1><p>For your security, you have 2 minutes to sign in. Go back to the service you came from and start again.</p><p class="hint">Error code: sso_ticket_expired</p>',
  });
}

/** The sign-in form again, over the attempts limit (429): it says to wait, and does not repeat the email. */
export function tooManyAttemptsPage(options: { action: string; retryAfterSeconds: number }): string {
  const wait = options.retryAfterSeconds === 1 ? "1 second" : `${options.retryAfterSeconds} seconds`;
  return providerPage({
    title: "Error: Too many attempts",
    body: `<div class="error-summary" role="alert" tabindex="-1"><h2>Too many attempts</h2><p>There have been too many attempts to sign in. Wait ${wait}, then try again.</p></div>
<h1>Sign in</h1>
<form method="post" action="${escapeHtml(options.action)}" novalidate>
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" spellcheck="false" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form>`,
  });
}

/**
 * The person chose Deny (spec 7.4: `access_denied`, 403). The page says so and takes them straight back through the
 * provider, which returns `error=access_denied` to the client's redirect_uri (RFC 6749 §4.1.2.1); the link is there
 * for a browser that does not follow the refresh.
 */
export function accessDeniedPage(options: { clientName: string; continueTo: string }): string {
  const name = escapeHtml(options.clientName);
  const url = escapeHtml(options.continueTo);
  return providerPage({
    title: "You did not allow access",
    head: `<meta http-equiv="refresh" content="0;url=${url}">`,
    body: `<h1>You did not allow access</h1><p>${name} will not see your details. Taking you back to ${name}.</p><p><a href="${url}">Go back to ${name}</a></p>`,
  });
}
