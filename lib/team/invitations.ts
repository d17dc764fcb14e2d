// Inviting someone to a partner's team by email (docs/dashboard.md, "Team"). Someone who already has a sign-in
// joins at once; an address with no sign-in yet is held as a pending invitation and joins, with the role given, as
// soon as a sign-in user with that address is created (users are made by an operator: there is no self-service
// sign-up). Either way the invitation is a notification to that address: emailed when SMTP is configured, listed
// by `cli notifications list` otherwise. The address is stored for that alone and never reaches the log, an event,
// the audit log or an error message.
import { clock } from "../clock";
import { db, inTransaction, type DatabaseClient } from "../db";
import { config } from "../env";
import { ApiError, notFound } from "../errors";
import { newId } from "../ids";
import { recordNotification } from "../notifications/notifications";
import { recordAudit } from "./audit";
import type { ProjectRole } from "./permissions";
import { addMemberInputSchema, type AddMemberInput } from "./schemas";
import { addMember } from "./service";

export type Invitation = { outcome: "added"; userId: string } | { outcome: "pending"; invitationId: string };

const ROLE_WORDS: Record<ProjectRole, string> = { owner: "an owner", developer: "a developer", viewer: "a viewer" };

export async function inviteMember(input: AddMemberInput, { actorId, database = db() }: { actorId: string; database?: DatabaseClient }): Promise<Invitation> {
  const { projectId, email, role } = addMemberInputSchema.parse(input);
  return inTransaction(database, async (transaction) => {
    const project = await transaction.project.findUnique({ where: { id: projectId }, select: { name: true } });
    if (!project) throw notFound("project", projectId);
    const dashboard = `${config().BASE_URL}/dashboard`;
    const subject = `You are invited to the ${project.name} team on the Lending Platform dashboard`;
    const user = await transaction.signInUser.findUnique({ where: { email }, select: { id: true } });
    if (user) {
      const member = await addMember({ projectId, email, role }, { actorId, database: transaction });
      await recordNotification(transaction, {
        projectId,
        kind: "team_invitation",
        recipientEmail: email,
        subject,
        body: `An owner of ${project.name} added you to its team as ${ROLE_WORDS[role]}. Sign in with your Lending Platform sign-in at ${dashboard}.`,
      });
      return { outcome: "added", userId: member.userId };
    }
    const pending = await transaction.teamInvitation.findUnique({ where: { projectId_email: { projectId, email } }, select: { id: true } });
    // The address is personal data: the message does not repeat it.
    if (pending) throw new ApiError("conflict", { message: `This address is already invited (${pending.id}).` });
    const id = newId("teamInvitation");
    await transaction.teamInvitation.create({ data: { id, projectId, email, role, invitedBy: actorId, createdAt: clock.now() } });
    await recordAudit(transaction, { projectId, actorId, action: "member.invited", objectId: id });
    await recordNotification(transaction, {
      projectId,
      kind: "team_invitation",
      recipientEmail: email,
      subject,
      body:
        `An owner of ${project.name} invited you to its team as ${ROLE_WORDS[role]}. You do not have a Lending Platform sign-in with this address yet: ` +
        `ask the platform's operator to create one for it. You join the team as soon as it exists; then sign in at ${dashboard}.`,
    });
    return { outcome: "pending", invitationId: id };
  });
}

/** The project's pending invitations, oldest first. */
export function listInvitations({ projectId }: { projectId: string }) {
  return db().teamInvitation.findMany({ where: { projectId }, orderBy: { id: "asc" }, select: { id: true, email: true, role: true, createdAt: true } });
}

/** Withdraws a pending invitation (a mistyped address, a change of mind); another project's is 404. */
export async function cancelInvitation({ projectId, invitationId }: { projectId: string; invitationId: string }, { actorId, database = db() }: { actorId: string; database?: DatabaseClient }) {
  return inTransaction(database, async (transaction) => {
    const { count } = await transaction.teamInvitation.deleteMany({ where: { id: invitationId, projectId } });
    if (count === 0) throw notFound("invitation", invitationId);
    await recordAudit(transaction, { projectId, actorId, action: "member.invitation_cancelled", objectId: invitationId });
  });
}

/** A new sign-in user joins every team that invited their address, with the role each gave; answers how many. */
export async function acceptInvitations(transaction: DatabaseClient, user: { id: string; email: string }): Promise<number> {
  const invitations = await transaction.teamInvitation.findMany({ where: { email: user.email } });
  const now = clock.now();
  for (const invitation of invitations) {
    await transaction.projectMember.create({ data: { projectId: invitation.projectId, userId: user.id, role: invitation.role, createdAt: now, updatedAt: now } });
    await transaction.teamInvitation.delete({ where: { id: invitation.id } });
    // Added on the word of the owner who invited them.
    await recordAudit(transaction, { projectId: invitation.projectId, actorId: invitation.invitedBy, action: "member.added", objectId: user.id });
  }
  return invitations.length;
}
