// GET /dashboard/{project}/{environment}/team — the project's team (docs/dashboard.md, "Team"): who is in it, with
// their role and when they joined, and the invitations waiting for a sign-in. Owners also invite by email, change a
// role and remove someone (after a confirmation page); every other role reads the list without those controls. A
// refused answer comes back to its form with an error summary (lib/dashboard/form-errors.ts).
import type { Metadata } from "next";
import { cookies } from "next/headers";
import { notFound } from "next/navigation";
import { z } from "zod";
import { dashboardParamsSchema } from "@/lib/dashboard/schemas";
import { teamForDashboard } from "@/lib/dashboard/team";
import { TEAM_OUTCOMES, TEAM_PROBLEMS } from "@/lib/dashboard/team-forms";
import { dashboardView } from "@/lib/dashboard/view";
import { PROJECT_ROLES, type ProjectRole } from "@/lib/team/permissions";
import { readPageValues } from "@/lib/wire/page-values";
import { CSRF_COOKIE } from "@/lib/wire/csrf";
import { ErrorSummary, FieldError, refusalsOf, refusedFormOf, refusedFormMetadata, refusedAria } from "../../../_components/refused-form";
import { onDay } from "../../../_components/when";
import { DashboardShell, ROLE_WORDS } from "../../../_components/shell";
import { signedInOrRedirect } from "../../../_components/signed-in";
import "../../../../../(account)/account/account.css";
import "../../../dashboard.css";

export const dynamic = "force-dynamic";

type Props = { params: Promise<Record<string, string>>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return refusedFormMetadata("Team", readPageValues(dashboardParamsSchema.shape, await params));
}

const FIELD_LABELS = { email: "Email address", role: "Role" };

/** The Invite form's fields are invite-email and invite-role; a Change role form's select has its form's name. */
const refusedFieldId = (form: string, field: string) => (form === "invite" ? `invite-${field}` : form);

/** A refused form's role if it is one (to keep it selected), else `otherwise`. */
const roleOr = (typed: string | undefined, otherwise: ProjectRole): ProjectRole => PROJECT_ROLES.find((role) => role === typed) ?? otherwise;


const teamPageQuery = { done: z.enum(TEAM_OUTCOMES), problem: z.enum(TEAM_PROBLEMS) };

const DONE_WORDS = {
  added: "They are in the team now, and we have let them know.",
  invited: "They have no Lending Platform sign-in yet. We have sent them the invitation; they join the team as soon as an operator creates their sign-in.",
  invitation_cancelled: "The invitation is cancelled: that address will not join the team.",
  role_changed: "Their role is changed.",
  removed: "They are no longer in the team.",
} as const;

const PROBLEM_WORDS = {
  last_owner: "A project always keeps an owner: make someone else an owner first, then change this person's role or remove them.",
  already_in_team: "That person is already in the team or already invited. To give them another role, change it in the list below.",
} as const;

const ROLE_HINTS = {
  owner: "everything, including keys, tokens and the team",
  developer: "create keys and manage webhooks",
  viewer: "read every page",
} as const;

export default async function TeamPage({ params, searchParams }: Props) {
  const { project, environment } = readPageValues(dashboardParamsSchema.shape, await params);
  if (!project || !environment) notFound();
  const base = `/dashboard/${project}/${environment}/team`;
  const userId = await signedInOrRedirect(base);
  const view = await dashboardView({ userId, params: { project, environment } });
  if (!view) notFound();
  const { members, invitations } = await teamForDashboard(project);
  const csrfToken = (await cookies()).get(CSRF_COOKIE)?.value ?? "";
  const { done, problem } = readPageValues(teamPageQuery, await searchParams);
  const manage = view.allowed.manage_team;
  const refused = await refusedFormOf({ userId, project, environment });
  const inviteRefused = refusalsOf(refused, "invite");
  return (
    <DashboardShell view={view} section="team">
      <h1>Team</h1>
      <ErrorSummary refused={refused} labels={FIELD_LABELS} fieldId={(field) => refusedFieldId(refused?.form ?? "", field)} />
      {problem ? (
        <div className="dashboard-panel dashboard-panel-problem" role="alert">
          <h2>That was not done</h2>
          <p>{PROBLEM_WORDS[problem]}</p>
        </div>
      ) : null}
      {done ? (
        <p className="dashboard-panel" role="status">
          {DONE_WORDS[done]}
        </p>
      ) : null}
      <p>The people who can use this project&apos;s dashboard, in the sandbox and live. Owners do {ROLE_HINTS.owner}; developers {ROLE_HINTS.developer}; viewers {ROLE_HINTS.viewer}.</p>
      {manage ? (
        <form method="post" action={`${base}/invite`} className="dashboard-form" aria-labelledby="invite-heading" noValidate>
          <h2 id="invite-heading" className="dashboard-form-heading">
            Invite someone
          </h2>
          <input type="hidden" name="csrf_token" value={csrfToken} />
          <div>
            <label htmlFor="invite-email">Email address</label>
            <FieldError id="invite-email-error" message={inviteRefused?.errors.email} />
            <input
              id="invite-email"
              name="email"
              type="email"
              autoComplete="off"
              spellCheck={false}
              required
              defaultValue={inviteRefused?.values.email}
              {...refusedAria(inviteRefused?.errors.email, "invite-email-error")}
            />
          </div>
          <div>
            <label htmlFor="invite-role">Role</label>
            <FieldError id="invite-role-error" message={inviteRefused?.errors.role} />
            <select id="invite-role" name="role" defaultValue={roleOr(inviteRefused?.values.role, "developer")} {...refusedAria(inviteRefused?.errors.role, "invite-role-error")}>
              {PROJECT_ROLES.map((role) => (
                <option key={role} value={role}>
                  {ROLE_WORDS[role]}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="account-button">
            Invite
          </button>
        </form>
      ) : null}
      <div className="account-table-region" role="region" aria-labelledby="team-caption" tabIndex={0}>
        <table className="account-table dashboard-stacked">
          <caption id="team-caption">The team: {members.length === 1 ? "one person" : `${members.length} people`}</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Added</th>
              {manage ? <th scope="col">Actions</th> : null}
            </tr>
          </thead>
          <tbody>
            {members.map((member) => {
              const roleError = refusalsOf(refused, `role-${member.userId}`)?.errors.role;
              return (
              <tr key={member.userId}>
                <td>
                  <strong>{member.name}</strong>
                  {member.userId === userId ? <span className="dashboard-muted"> (you)</span> : null}
                </td>
                <td data-label="Email" className="dashboard-wrap">
                  {member.email}
                </td>
                <td data-label="Role">{ROLE_WORDS[member.role]}</td>
                <td data-label="Added">{onDay(member.addedAt)}</td>
                {manage ? (
                  <td>
                    <div className="dashboard-row-actions">
                      <form method="post" action={`${base}/${member.userId}/role`} className="dashboard-form" noValidate>
                        <input type="hidden" name="csrf_token" value={csrfToken} />
                        <div>
                          <label htmlFor={`role-${member.userId}`}>
                            Role <span className="visually-hidden">of {member.name}</span>
                          </label>
                          <FieldError id={`role-${member.userId}-error`} message={roleError} />
                          <select id={`role-${member.userId}`} name="role" defaultValue={member.role} {...refusedAria(roleError, `role-${member.userId}-error`)}>
                            {PROJECT_ROLES.map((role) => (
                              <option key={role} value={role}>
                                {ROLE_WORDS[role]}
                              </option>
                            ))}
                          </select>
                        </div>
                        <button type="submit" className="account-button account-button-secondary">
                          Change role <span className="visually-hidden">of {member.name}</span>
                        </button>
                      </form>
                      <a className="account-link" href={`${base}/${member.userId}/remove`}>
                        Remove <span className="visually-hidden">{member.name}</span>
                      </a>
                    </div>
                  </td>
                ) : null}
              </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {invitations.length > 0 ? (
        <>
          <h2>Waiting for a sign-in</h2>
          <p>Invited addresses with no Lending Platform sign-in yet. Each joins the team, with the role shown, as soon as an operator creates its sign-in.</p>
          <div className="account-table-region" role="region" aria-labelledby="invitations-caption" tabIndex={0}>
            <table className="account-table dashboard-stacked">
              <caption id="invitations-caption">Invitations waiting</caption>
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">Invited</th>
                  {manage ? <th scope="col">Actions</th> : null}
                </tr>
              </thead>
              <tbody>
                {invitations.map((invitation) => (
                  <tr key={invitation.id}>
                    <td className="dashboard-wrap">{invitation.email}</td>
                    <td data-label="Role">{ROLE_WORDS[invitation.role]}</td>
                    <td data-label="Invited">{onDay(invitation.createdAt)}</td>
                    {manage ? (
                      <td>
                        <form method="post" action={`${base}/invitations/${invitation.id}/cancel`} className="dashboard-form">
                          <input type="hidden" name="csrf_token" value={csrfToken} />
                          <button type="submit" className="account-button account-button-secondary">
                            Cancel invitation <span className="visually-hidden">of {invitation.email}</span>
                          </button>
                        </form>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
    </DashboardShell>
  );
}
