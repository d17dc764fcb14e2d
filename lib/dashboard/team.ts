// What the Team page lists: the members with the name and email of their sign-in (personal data, shown to the
// team on this page alone) and the invitations still waiting for a sign-in.
import { db } from "../db";
import { listInvitations } from "../team/invitations";
import type { ProjectRole } from "../team/permissions";

export interface TeamRow {
  userId: string;
  name: string;
  email: string;
  role: ProjectRole;
  addedAt: Date;
}

/** Owners first, then developers and viewers, each by when they joined. */
export async function teamForDashboard(projectId: string) {
  const [rows, invitations] = await Promise.all([
    db().projectMember.findMany({
      where: { projectId },
      orderBy: [{ role: "asc" }, { createdAt: "asc" }],
      include: { user: { select: { email: true, givenName: true, familyName: true } } },
    }),
    listInvitations({ projectId }),
  ]);
  const members: TeamRow[] = rows.map((row) => ({
    userId: row.userId,
    name: `${row.user.givenName} ${row.user.familyName}`,
    email: row.user.email,
    role: row.role,
    addedAt: row.createdAt,
  }));
  return { members, invitations };
}

/** One member, for the Remove confirmation page; null when they are not in the team. */
export async function teamMemberForDashboard(projectId: string, userId: string): Promise<TeamRow | null> {
  const { members } = await teamForDashboard(projectId);
  return members.find((member) => member.userId === userId) ?? null;
}
