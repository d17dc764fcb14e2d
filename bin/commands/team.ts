// The partner dashboard's teams (docs/dashboard.md): add a person (a sign-in user, `user create`) to a project with a
// role, remove them, list the team. What an operator does here is audited with `cli` as its actor.
import { z } from "zod";
import { CLI_ACTOR } from "../../lib/team/audit";
import { addMemberInputSchema, projectRoleSchema, removeMemberInputSchema } from "../../lib/team/schemas";
import { addOrChangeMember, listMembers, removeMember, type TeamMember } from "../../lib/team/service";
import { parseFlags, type Command } from "../cli-kit";

const memberJson = (member: TeamMember) => ({ project_id: member.projectId, user_id: member.userId, role: member.role, created_at: member.createdAt.toISOString() });

const projectOption = { type: "string", value: "proj_…", description: "The project." } as const;

const addFlags = z.object({
  project: addMemberInputSchema.shape.projectId,
  email: addMemberInputSchema.shape.email,
  role: projectRoleSchema,
});

export const teamAdd: Command = {
  words: ["team", "add"],
  synopsis: "--project proj_… --email EMAIL --role owner|developer|viewer [--json]",
  description: "Add a person (they must exist: user create) to a project's team with a role; an existing member's role is changed.",
  options: {
    project: projectOption,
    email: { type: "string", value: "EMAIL", description: "The person's sign-in email address." },
    role: { type: "string", value: "ROLE", description: "owner (everything), developer (webhooks, new keys) or viewer (read only)." },
  },
  async run({ values, database, print }) {
    const flags = parseFlags(addFlags, values);
    const member = await addOrChangeMember({ projectId: flags.project, email: flags.email, role: flags.role }, { actorId: CLI_ACTOR, database: await database() });
    print(`${member.userId} is ${member.role} of ${member.projectId}`, memberJson(member));
  },
};

const removeFlags = z.object({ project: removeMemberInputSchema.shape.projectId, user: removeMemberInputSchema.shape.userId });

export const teamRemove: Command = {
  words: ["team", "remove"],
  synopsis: "--project proj_… --user usr_… [--json]",
  description: "Remove a person from a project's team (never its last owner).",
  options: { project: projectOption, user: { type: "string", value: "usr_…", description: "The member's user id (team list shows it)." } },
  async run({ values, database, print }) {
    const flags = parseFlags(removeFlags, values);
    const member = await removeMember({ projectId: flags.project, userId: flags.user }, { actorId: CLI_ACTOR, database: await database() });
    print(`Removed ${member.userId} from ${member.projectId}`, { ...memberJson(member), removed: true });
  },
};

const listFlags = z.object({ project: removeMemberInputSchema.shape.projectId });

export const teamList: Command = {
  words: ["team", "list"],
  synopsis: "--project proj_… [--json]",
  description: "List a project's team: each member's user id and role, owners first.",
  options: { project: projectOption },
  async run({ values, database, print }) {
    const flags = parseFlags(listFlags, values);
    const members = await listMembers({ projectId: flags.project, database: await database() });
    const lines = members.length === 0 ? [`${flags.project} has no team members yet.`] : members.map((member) => `${member.userId}  ${member.role}`);
    print(lines.join("\n"), { data: members.map(memberJson) });
  },
};
