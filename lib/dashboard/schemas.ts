// The dashboard's addresses and forms. Every page and action is under /dashboard/{project}/{environment}/…, so the
// project and the Sandbox / Live switch are in the address (shareable, no hidden state); forms are plain HTML posts.
import { z } from "zod";
import { allowedOriginsSchema, KEY_ENVIRONMENTS, KEY_TYPES } from "../keys/schemas";
import { projectRoleSchema } from "../team/schemas";
import { requestString } from "../wire/request-string";

const projectId = requestString().regex(/^proj_[0-9a-z]{26}$/);
const keyId = requestString().regex(/^key_[0-9a-z]{26}$/);

export const dashboardParamsSchema = z.strictObject({ project: projectId, environment: z.enum(KEY_ENVIRONMENTS) });
export const dashboardKeyParamsSchema = z.strictObject({ ...dashboardParamsSchema.shape, id: keyId });

export type DashboardParams = z.output<typeof dashboardParamsSchema>;

/** Every form carries the page's CSRF token (the `svc_csrf` cookie's value, lib/wire/csrf.ts). */
const csrfToken = requestString().max(64);

export const createKeyFormSchema = z.strictObject({ csrf_token: csrfToken, type: z.enum(KEY_TYPES, { error: "must be secret or publishable" }) });

export const rollKeyFormSchema = z.strictObject({
  csrf_token: csrfToken,
  // The API's bounds (rollKeyBodySchema): whole hours, at most a week.
  overlap_hours: requestString()
    .trim()
    .regex(/^\d{1,3}$/, "must be a whole number of hours")
    .transform(Number)
    .pipe(z.number().int().min(0, "must be 0 or more").max(168, "must be at most 168 (a week)")),
});

export const revokeKeyFormSchema = z.strictObject({ csrf_token: csrfToken });

const userId = requestString().regex(/^usr_[0-9a-z]{26}$/);

export const dashboardMemberParamsSchema = z.strictObject({ ...dashboardParamsSchema.shape, user: userId });
export const dashboardInvitationParamsSchema = z.strictObject({ ...dashboardParamsSchema.shape, invitation: requestString().regex(/^inv_[0-9a-z]{26}$/) });

/** A form whose only field is the page's CSRF token: a confirmation page's button. */
export const confirmFormSchema = z.strictObject({ csrf_token: csrfToken });

export const inviteMemberFormSchema = z.strictObject({
  csrf_token: csrfToken,
  email: requestString().trim().max(254, "must be at most 254 characters").pipe(z.email("must be an email address, like name@example.com")),
  role: projectRoleSchema,
});

export const changeRoleFormSchema = z.strictObject({ csrf_token: csrfToken, role: projectRoleSchema });

/** One origin a line, as the keys page's text box sends them; blank lines are ignored. */
export const allowedOriginsFormSchema = z.strictObject({
  csrf_token: csrfToken,
  allowed_origins: requestString()
    .max(4_000)
    .transform((text) =>
      text
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean),
    )
    .pipe(allowedOriginsSchema),
});
