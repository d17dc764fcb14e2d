// oidc-provider's page hooks (renderError, rpInitiatedLogout's logoutSource and postLogoutSuccessSource): our
// pages (lib/oidc/pages.ts) with our headers, in place of its defaults.
import type { KoaContextWithOIDC } from "oidc-provider";
import { escapeHtml, providerPage, providerPagePolicy } from "./pages";

function answerHtml(ctx: KoaContextWithOIDC, html: string, formTargets: readonly string[] = []): void {
  ctx.type = "html";
  ctx.set("Content-Security-Policy", providerPagePolicy(formTargets));
  ctx.set("X-Content-Type-Options", "nosniff");
  ctx.set("Cache-Control", "no-store");
  ctx.body = html;
}

/** What went wrong, said to the person, for the errors that cannot go back to the service (unknown client, bad redirect). */
export async function renderProviderErrorPage(ctx: KoaContextWithOIDC, out: { error: string; error_description?: string }): Promise<void> {
  const description = out.error_description ? `<p class="hint">${escapeHtml(out.error_description)} (${escapeHtml(out.error)})</p>` : `<p class="hint">${escapeHtml(out.error)}</p>`;
  answerHtml(
    ctx,
    providerPage({
      title: "Sorry, sign in did not work",
      body: `<h1>Sorry, sign in did not work</h1><p>The service that sent you here asked for something we cannot do. Go back to the service and try again, or contact it if this keeps happening.</p>${description}`,
    }),
  );
}

const postLogoutOrigins = (ctx: KoaContextWithOIDC): string[] =>
  (ctx.oidc.client?.postLogoutRedirectUris ?? []).map((uri: string) => new URL(uri).origin);

export async function renderSignOutPage(ctx: KoaContextWithOIDC, form: string): Promise<void> {
  answerHtml(
    ctx,
    providerPage({
      title: "Sign out",
      body: `<h1>Do you want to sign out?</h1>${form}<button type="submit" form="op.logoutForm" value="yes" name="logout">Sign out</button><button class="secondary" type="submit" form="op.logoutForm">Stay signed in</button>`,
    }),
    postLogoutOrigins(ctx),
  );
}

export async function renderSignedOutPage(ctx: KoaContextWithOIDC): Promise<void> {
  answerHtml(ctx, providerPage({ title: "Signed out", body: "<h1>You have signed out</h1><p>You can close this page.</p>" }));
}

