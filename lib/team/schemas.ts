import { z } from "zod";
import { requestString } from "../wire/request-string";
import { PROJECT_ROLES } from "./permissions";

export const projectRoleSchema = z.enum(PROJECT_ROLES, { error: "must be owner, developer or viewer" });

export const addMemberInputSchema = z.strictObject({
  projectId: requestString().startsWith("proj_"),
  email: requestString().trim().max(254).pipe(z.email("must be an email address")).transform((email) => email.toLowerCase()),
  role: projectRoleSchema,
});

export const changeMemberRoleInputSchema = z.strictObject({
  projectId: requestString().startsWith("proj_"),
  userId: requestString().startsWith("usr_"),
  role: projectRoleSchema,
});

export const removeMemberInputSchema = z.strictObject({
  projectId: requestString().startsWith("proj_"),
  userId: requestString().startsWith("usr_"),
});

export type AddMemberInput = z.input<typeof addMemberInputSchema>;
export type ChangeMemberRoleInput = z.input<typeof changeMemberRoleInputSchema>;
export type RemoveMemberInput = z.input<typeof removeMemberInputSchema>;
