// GET /dashboard/{project}/{environment}/keys/revoke-tokens — the check before revoking every access token of the
// environment: what it does, and one button that does it (…/revoke-tokens/confirm). Owners only.
import type { Metadata } from "next";
import { cookies } from "next/headers";
import { notFound } from "next/navigation";
import { dashboardParamsSchema } from "@/lib/dashboard/schemas";
import { dashboardView } from "@/lib/dashboard/view";
import { readPageValues } from "@/lib/wire/page-values";
import { CSRF_COOKIE } from "@/lib/wire/csrf";
import { DashboardShell } from "../../../../_components/shell";
import { signedInOrRedirect } from "../../../../_components/signed-in";
import "../../../../../../(account)/account/account.css";
import "../../../../dashboard.css";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Revoke all access tokens", robots: { index: false, follow: false } };

export default async function RevokeTokensPage({ params }: { params: Promise<Record<string, string>> }) {
  const { project, environment } = readPageValues(dashboardParamsSchema.shape, await params);
  if (!project || !environment) notFound();
  const base = `/dashboard/${project}/${environment}/keys`;
  const userId = await signedInOrRedirect(`${base}/revoke-tokens`);
  const view = await dashboardView({ userId, params: { project, environment } });
  if (!view?.allowed.revoke_tokens) notFound();
  const csrfToken = (await cookies()).get(CSRF_COOKIE)?.value ?? "";
  const environmentWord = environment === "sandbox" ? "sandbox" : "live";
  return (
    <DashboardShell view={view} section="keys">
      <h1>Revoke every {environmentWord} access token?</h1>
      <p>
        Every {environmentWord} access token of {view.current.name} issued until now stops working at once: calls with one are refused (401 token_revoked).
        {environment === "live" ? " The sandbox is not affected." : " Live is not affected."}
      </p>
      <p>
        Your keys keep working, so your servers get new tokens with their secret keys as they usually do. If a secret key may have leaked too, roll or
        revoke it as well.
      </p>
      <form method="post" action={`${base}/revoke-tokens/confirm`} className="dashboard-form">
        <input type="hidden" name="csrf_token" value={csrfToken} />
        <button type="submit" className="account-button dashboard-danger">
          Revoke all tokens
        </button>
        <a className="account-link" href={base}>
          Cancel
        </a>
      </form>
    </DashboardShell>
  );
}
