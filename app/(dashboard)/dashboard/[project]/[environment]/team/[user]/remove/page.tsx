// GET /dashboard/{project}/{environment}/team/{user}/remove — the check before taking someone out of the team: who,
// what it does, and one button that does it (…/remove/confirm). Owners only.
import type { Metadata } from "next";
import { cookies } from "next/headers";
import { notFound } from "next/navigation";
import { dashboardMemberParamsSchema } from "@/lib/dashboard/schemas";
import { teamMemberForDashboard } from "@/lib/dashboard/team";
import { dashboardView } from "@/lib/dashboard/view";
import { readPageValues } from "@/lib/wire/page-values";
import { CSRF_COOKIE } from "@/lib/wire/csrf";
import { DashboardShell, ROLE_WORDS } from "../../../../../_components/shell";
import { signedInOrRedirect } from "../../../../../_components/signed-in";
import "../../../../../../../(account)/account/account.css";
import "../../../../../dashboard.css";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Remove someone from the team", robots: { index: false, follow: false } };

export default async function RemoveMemberPage({ params }: { params: Promise<Record<string, string>> }) {
  const { project, environment, user } = readPageValues(dashboardMemberParamsSchema.shape, await params);
  if (!project || !environment || !user) notFound();
  const base = `/dashboard/${project}/${environment}/team`;
  const userId = await signedInOrRedirect(`${base}/${user}/remove`);
  const view = await dashboardView({ userId, params: { project, environment } });
  if (!view?.allowed.manage_team) notFound();
  const member = await teamMemberForDashboard(project, user);
  if (!member) notFound();
  const csrfToken = (await cookies()).get(CSRF_COOKIE)?.value ?? "";
  const yourself = member.userId === userId;
  return (
    <DashboardShell view={view} section="team">
      <h1>{yourself ? "Remove yourself from the team?" : `Remove ${member.name} from the team?`}</h1>
      <p>
        {member.name} ({member.email}) has the {ROLE_WORDS[member.role]} role in {view.current.name}.
      </p>
      <p>
        {yourself ? "You" : "They"} will no longer see this project&apos;s dashboard, in the sandbox or live. Keys and tokens stay as they are. An owner can invite{" "}
        {yourself ? "you" : "them"} again later.
      </p>
      <form method="post" action={`${base}/${member.userId}/remove/confirm`} className="dashboard-form">
        <input type="hidden" name="csrf_token" value={csrfToken} />
        <button type="submit" className="account-button dashboard-danger">
          Remove from team
        </button>
        <a className="account-link" href={base}>
          Cancel
        </a>
      </form>
    </DashboardShell>
  );
}
