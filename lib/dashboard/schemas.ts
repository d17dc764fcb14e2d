// The dashboard's addresses and forms. Every page and action is under /dashboard/{project}/{environment}/…, so the
// project and the Sandbox / Live switch are in the address (shareable, no hidden state); forms are plain HTML posts.
import { z } from "zod";
import { KEY_ENVIRONMENTS, KEY_TYPES } from "../keys/schemas";
import { requestString } from "../wire/request-string";

const projectId = requestString().regex(/^proj_[0-9a-z]{26}$/);
const keyId = requestString().regex(/^key_[0-9a-z]{26}$/);

export const dashboardParamsSchema = z.strictObject({ project: projectId, environment: z.enum(KEY_ENVIRONMENTS) });
export const dashboardKeyParamsSchema = z.strictObject({ ...dashboardParamsSchema.shape, id: keyId });

export type DashboardParams = z.output<typeof dashboardParamsSchema>;

/** Every form carries the page's CSRF token (the `svc_csrf` cookie's value, lib/wire/csrf.ts). */
export const csrfToken = requestString().max(64);

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
