// GET /dashboard/{project}/{environment}/activity — the audit log for owners (docs/dashboard.md, "Audit log"): who did
// what to which object, and when, in this environment and in the team. To anyone else the page does not exist.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { dashboardParamsSchema } from "@/lib/dashboard/schemas";
import { dashboardView } from "@/lib/dashboard/view";
import { listAuditEntries, type AuditedAction } from "@/lib/team/audit";
import { readPageValues } from "@/lib/wire/page-values";
import { when } from "../../../_components/when";
import { DashboardShell } from "../../../_components/shell";
import { signedInOrRedirect } from "../../../_components/signed-in";
import "../../../../../(account)/account/account.css";
import "../../../dashboard.css";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Activity", robots: { index: false, follow: false } };

const ACTION_WORDS: Record<AuditedAction, string> = {
  "key.created": "Created a key",
  "key.rolled": "Rolled a key",
  "key.revoked": "Revoked a key",
  "member.added": "Added a member",
  "member.role_changed": "Changed a member's role",
  "member.removed": "Removed a member",
  "decision.released": "Released a locked decision",
  "webhook_endpoint.created": "Added a webhook endpoint",
  "webhook_endpoint.updated": "Edited a webhook endpoint",
  "webhook_endpoint.disabled": "Disabled a webhook endpoint",
  "webhook_endpoint.enabled": "Enabled a webhook endpoint",
  "webhook_endpoint.secret_rolled": "Rolled a webhook signing secret",
  "webhook_endpoint.recovered": "Recovered failed webhook deliveries",
  "event.replayed": "Replayed an event",
  "member.invited": "Invited someone to the team",
  "tokens.revoked": "Revoked every access token",
  "key.origins_changed": "Changed a key's allowed origins",
  "member.invitation_cancelled": "Cancelled an invitation",
  "sub_account.created": "Created a sub-account",
};

export default async function ActivityPage({ params }: { params: Promise<Record<string, string>> }) {
  const { project, environment } = readPageValues(dashboardParamsSchema.shape, await params);
  if (!project || !environment) notFound();
  const userId = await signedInOrRedirect(`/dashboard/${project}/${environment}/activity`);
  const view = await dashboardView({ userId, params: { project, environment } });
  if (!view?.allowed.read_audit_log) notFound();
  const entries = await listAuditEntries({ projectId: project, environment, limit: 100 });
  return (
    <DashboardShell view={view} section="activity">
      <h1>Activity</h1>
      <p>What your team did in the {environment === "sandbox" ? "sandbox" : "live environment"} and to the team itself, newest first.</p>
      {entries.length === 0 ? (
        <p className="account-empty">Nothing yet.</p>
      ) : (
        <div className="account-table-region" role="region" aria-labelledby="activity-caption" tabIndex={0}>
          <table className="account-table dashboard-stacked">
            <caption id="activity-caption">The latest {entries.length === 1 ? "entry" : `${entries.length} entries`}</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">Which</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id}>
                  <td data-label="When">{when(entry.createdAt)}</td>
                  <td data-label="Who">{entry.actorId === userId ? "You" : entry.actorId === "cli" ? "An operator" : entry.actorId}</td>
                  <td data-label="What">{ACTION_WORDS[entry.action as AuditedAction] ?? entry.action}</td>
                  <td data-label="Which">{entry.objectId ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </DashboardShell>
  );
}
