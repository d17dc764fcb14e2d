// A partner's team (docs/dashboard.md): the people (sign-in users, `usr_…`) who may use the dashboard for a project,
// each with one role. A project always keeps an owner: the last one can be neither removed nor demoted (409).
import { clock } from "../clock";
import { db, inTransaction, type DatabaseClient } from "../db";
import { ApiError, notFound } from "../errors";
import type { Prisma } from "../generated/prisma/client";
import { lockRow } from "../row-lock";
import { recordAudit } from "./audit";
import type { ProjectRole } from "./permissions";
import {
  addMemberInputSchema,
  changeMemberRoleInputSchema,
  removeMemberInputSchema,
  type AddMemberInput,
  type ChangeMemberRoleInput,
  type RemoveMemberInput,
} from "./schemas";

export interface TeamMember {
  projectId: string;
  userId: string;
  role: ProjectRole;
  createdAt: Date;
}

/** Who acts: a signed-in user's id, or CLI_ACTOR. */
interface Acting {
  actorId: string;
  database?: DatabaseClient;
}

const memberOf = (row: { projectId: string; userId: string; role: ProjectRole; createdAt: Date }): TeamMember => ({
  projectId: row.projectId,
  userId: row.userId,
  role: row.role,
  createdAt: row.createdAt,
});

export async function addMember(input: AddMemberInput, { actorId, database = db() }: Acting): Promise<TeamMember> {
  const { projectId, email, role } = addMemberInputSchema.parse(input);
  return inTransaction(database, async (transaction) => {
    await getProjectOrThrow(transaction, projectId);
    const user = await transaction.signInUser.findUnique({ where: { email }, select: { id: true } });
    // The address is personal data: the message does not repeat it.
    if (!user) throw notFound("user", undefined, { field: "email", message: "No user has this email address; create one first (user create)." });
    const existing = await transaction.projectMember.findUnique({ where: { projectId_userId: { projectId, userId: user.id } } });
    if (existing) throw new ApiError("conflict", { message: `${user.id} is already a member of ${projectId}; change their role instead.` });
    const now = clock.now();
    const created = await transaction.projectMember.create({ data: { projectId, userId: user.id, role, createdAt: now, updatedAt: now } });
    await recordAudit(transaction, { projectId, actorId, action: "member.added", objectId: user.id });
    return memberOf(created);
  });
}

/** Adds the person, or, when they are a member already, gives them this role (the admin command line's `team add`). */
export async function addOrChangeMember(input: AddMemberInput, acting: Acting): Promise<TeamMember> {
  const { projectId, email, role } = addMemberInputSchema.parse(input);
  const user = await (acting.database ?? db()).signInUser.findUnique({ where: { email }, select: { id: true } });
  const existing = user ? await roleOf({ projectId, userId: user.id }, acting.database) : null;
  if (user && existing) return changeMemberRole({ projectId, userId: user.id, role }, acting);
  return addMember({ projectId, email, role }, acting);
}

export async function changeMemberRole(input: ChangeMemberRoleInput, { actorId, database = db() }: Acting): Promise<TeamMember> {
  const { projectId, userId, role } = changeMemberRoleInputSchema.parse(input);
  return inTransaction(database, async (transaction) => {
    const member = await lockedMemberOrThrow(transaction, projectId, userId);
    if (member.role === role) return memberOf(member);
    if (member.role === "owner") await assertAnotherOwner(transaction, projectId, userId, "demoted");
    const updated = await transaction.projectMember.update({
      where: { projectId_userId: { projectId, userId } },
      data: { role, updatedAt: clock.now() },
    });
    await recordAudit(transaction, { projectId, actorId, action: "member.role_changed", objectId: userId });
    return memberOf(updated);
  });
}

export async function removeMember(input: RemoveMemberInput, { actorId, database = db() }: Acting): Promise<TeamMember> {
  const { projectId, userId } = removeMemberInputSchema.parse(input);
  return inTransaction(database, async (transaction) => {
    const member = await lockedMemberOrThrow(transaction, projectId, userId);
    if (member.role === "owner") await assertAnotherOwner(transaction, projectId, userId, "removed");
    await transaction.projectMember.delete({ where: { projectId_userId: { projectId, userId } } });
    await recordAudit(transaction, { projectId, actorId, action: "member.removed", objectId: userId });
    return memberOf(member);
  });
}

/** The project's members, owners first, then by when they joined. */
export async function listMembers({ projectId, database = db() }: { projectId: string; database?: DatabaseClient }): Promise<TeamMember[]> {
  await getProjectOrThrow(database, projectId);
  const rows = await database.projectMember.findMany({ where: { projectId }, orderBy: [{ role: "asc" }, { createdAt: "asc" }] });
  return rows.map(memberOf);
}

/** The projects a person belongs to, with their role in each, in the order the projects were created. */
export async function membershipsOf(userId: string): Promise<Array<TeamMember & { projectName: string }>> {
  const rows = await db().projectMember.findMany({ where: { userId }, include: { project: { select: { name: true } } }, orderBy: { projectId: "asc" } });
  return rows.map((row) => ({ ...memberOf(row), projectName: row.project.name }));
}

/** The person's role in the project, or null when they are not a member. */
export async function roleOf({ projectId, userId }: { projectId: string; userId: string }, database: DatabaseClient = db()): Promise<ProjectRole | null> {
  const member = await database.projectMember.findUnique({ where: { projectId_userId: { projectId, userId } }, select: { role: true } });
  return member?.role ?? null;
}

async function getProjectOrThrow(database: DatabaseClient, projectId: string) {
  const project = await database.project.findUnique({ where: { id: projectId }, select: { id: true } });
  if (!project) throw notFound("project", projectId);
  return project;
}

async function lockedMemberOrThrow(transaction: Prisma.TransactionClient, projectId: string, userId: string) {
  // Owners of one project change one at a time, so two owners demoting each other cannot leave none.
  await lockRow(transaction, "projects", projectId);
  const member = await transaction.projectMember.findUnique({ where: { projectId_userId: { projectId, userId } } });
  if (!member) throw notFound("member", userId);
  return member;
}

async function assertAnotherOwner(transaction: Prisma.TransactionClient, projectId: string, userId: string, change: "removed" | "demoted") {
  const otherOwners = await transaction.projectMember.count({ where: { projectId, role: "owner", userId: { not: userId } } });
  if (otherOwners === 0) throw new ApiError("conflict", { message: `The last owner of a project cannot be ${change}; make someone else an owner first.` });
}
