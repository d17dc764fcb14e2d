// The Team page's forms (docs/dashboard.md, "Team"), once the route builder has checked the page's CSRF token and a
// member whose role may manage the team: the team services the admin command line calls, which write the
// audit entry with the signed-in person as the actor. Refused answers (an email that is not one, a role that does
// not exist) come back to their form (lib/dashboard/form-errors.ts); a refusal a person can act on (the last owner,
// someone already in the team) comes back to the Team page as a message rather than an error page.
import { ApiError } from "../errors";
import { cancelInvitation, inviteMember } from "../team/invitations";
import { changeMemberRole, removeMember } from "../team/service";
import type { z } from "zod";
import { backWithRefusals, checkForm } from "./form-errors";
import type { AfterPost, FormPost } from "./form-request";
import {
  changeRoleFieldsSchema,
  inviteMemberFieldsSchema,
  type changeRoleFormSchema,
  type confirmFormSchema,
  type DashboardParams,
  type inviteMemberFormSchema,
} from "./schemas";

/** What the Team page says after a form, from its address (…/team?done=… or ?problem=…). */
export const TEAM_OUTCOMES = ["added", "invited", "invitation_cancelled", "role_changed", "removed"] as const;
export const TEAM_PROBLEMS = ["last_owner", "already_in_team"] as const;
type TeamOutcome = (typeof TEAM_OUTCOMES)[number];
type TeamProblem = (typeof TEAM_PROBLEMS)[number];

export function teamPagePath(params: DashboardParams, query?: { done: TeamOutcome } | { problem: TeamProblem }): string {
  return `/dashboard/${params.project}/${params.environment}/team${query ? `?${new URLSearchParams(query)}` : ""}`;
}

/** The service's 409 as the page's message; anything else stays an error page. */
async function unlessConflict(work: () => Promise<string>, params: DashboardParams, problem: TeamProblem): Promise<AfterPost> {
  try {
    return { location: await work() };
  } catch (error) {
    if (error instanceof ApiError && error.code === "conflict") return { location: teamPagePath(params, { problem }) };
    throw error;
  }
}

export async function submitInviteForm(post: FormPost<z.output<typeof inviteMemberFormSchema>>): Promise<AfterPost> {
  const { member } = post;
  const values = { email: post.form.email, role: post.form.role };
  const checked = checkForm(inviteMemberFieldsSchema, values);
  if (!checked.ok) return backWithRefusals(post, { form: "invite", location: teamPagePath(post.params), values, errors: checked.errors });
  return unlessConflict(
    async () => {
      const invitation = await inviteMember({ projectId: member.tenant.projectId, email: checked.data.email, role: checked.data.role }, { actorId: member.userId });
      return teamPagePath(post.params, { done: invitation.outcome === "added" ? "added" : "invited" });
    },
    post.params,
    "already_in_team",
  );
}

export async function submitChangeRoleForm(post: FormPost<z.output<typeof changeRoleFormSchema>> & { memberId: string }): Promise<AfterPost> {
  const { member } = post;
  const values = { role: post.form.role };
  const checked = checkForm(changeRoleFieldsSchema, values);
  if (!checked.ok) return backWithRefusals(post, { form: `role-${post.memberId}`, location: teamPagePath(post.params), values, errors: checked.errors });
  return unlessConflict(
    async () => {
      await changeMemberRole({ projectId: member.tenant.projectId, userId: post.memberId, role: checked.data.role }, { actorId: member.userId });
      return teamPagePath(post.params, { done: "role_changed" });
    },
    post.params,
    "last_owner",
  );
}

export async function submitRemoveMemberForm(post: FormPost<z.output<typeof confirmFormSchema>> & { memberId: string }): Promise<AfterPost> {
  const { member } = post;
  return unlessConflict(
    async () => {
      await removeMember({ projectId: member.tenant.projectId, userId: post.memberId }, { actorId: member.userId });
      // Someone who removed themselves can no longer see the team.
      return post.memberId === member.userId ? "/dashboard" : teamPagePath(post.params, { done: "removed" });
    },
    post.params,
    "last_owner",
  );
}

export async function submitCancelInvitationForm(post: FormPost<z.output<typeof confirmFormSchema>> & { invitationId: string }): Promise<AfterPost> {
  const { member } = post;
  await cancelInvitation({ projectId: member.tenant.projectId, invitationId: post.invitationId }, { actorId: member.userId });
  return { location: teamPagePath(post.params, { done: "invitation_cancelled" }) };
}
