// GET /dashboard/{project}/{environment}/keys/{id}/revoke — the check before something that cannot be undone: which
// key, what revoking it does, and one button that revokes it (…/revoke/confirm). Owners only.
import type { Metadata } from "next";
import { cookies } from "next/headers";
import { notFound } from "next/navigation";
import { dashboardMemberOrThrow } from "@/lib/dashboard/access";
import { dashboardKeyParamsSchema } from "@/lib/dashboard/schemas";
import { readPageValues } from "@/lib/wire/page-values";
import { dashboardView } from "@/lib/dashboard/view";
import { retrieveKey } from "@/lib/keys/service";
import { ApiError } from "@/lib/errors";
import { CSRF_COOKIE } from "@/lib/wire/csrf";
import { DashboardShell } from "../../../../../_components/shell";
import { signedInOrRedirect } from "../../../../../_components/signed-in";
import "../../../../../../../(account)/account/account.css";
import "../../../../../dashboard.css";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Revoke an API key", robots: { index: false, follow: false } };

export default async function RevokeKeyPage({ params }: { params: Promise<Record<string, string>> }) {
  const { project, environment, id } = readPageValues(dashboardKeyParamsSchema.shape, await params);
  if (!project || !environment || !id) notFound();
  const address = { project, environment, id };
  const base = `/dashboard/${address.project}/${address.environment}/keys`;
  const userId = await signedInOrRedirect(`${base}/${address.id}/revoke`);
  const view = await dashboardView({ userId, params: address });
  if (!view || !view.allowed.revoke_key) notFound();
  const member = await dashboardMemberOrThrow({ userId, params: address, action: "revoke_key" });
  const key = await retrieveKey({ tenant: member.tenant, id: address.id }).catch((error: unknown) => {
    if (error instanceof ApiError) notFound();
    throw error;
  });
  const csrfToken = (await cookies()).get(CSRF_COOKIE)?.value ?? "";
  return (
    <DashboardShell view={view} section="keys">
      <h1>Revoke this key?</h1>
      <p>
        <code>
          {key.prefix}…{key.last4}
        </code>{" "}
        ({key.id})
      </p>
      <p>
        Revoking stops the key working at once and cannot be undone. Anything still using it will fail to get tokens; tokens it already
        obtained keep working until they expire.
      </p>
      <form method="post" action={`${base}/${key.id}/revoke/confirm`} className="dashboard-form">
        <input type="hidden" name="csrf_token" value={csrfToken} />
        <button type="submit" className="account-button dashboard-danger">
          Revoke key
        </button>
        <a className="account-link" href={base}>
          Cancel
        </a>
      </form>
    </DashboardShell>
  );
}
