// The dashboard's addresses and forms. Every page and action is under /dashboard/{project}/{environment}/…, so the
// project and the Sandbox / Live switch are in the address (shareable, no hidden state); forms are plain HTML posts.
import { z } from "zod";
import { EVENT_TYPES } from "../events/events";
import { allowedOriginSchema, allowedOriginsSchema, KEY_ENVIRONMENTS, KEY_TYPES, MAX_ALLOWED_ORIGINS } from "../keys/schemas";
import { PROJECT_ROLES } from "../team/permissions";
import { requestString } from "../wire/request-string";
import { fromUkDateTimeInput } from "./uk-time";

const projectId = requestString().regex(/^proj_[0-9a-z]{26}$/);
const keyId = requestString().regex(/^key_[0-9a-z]{26}$/);

export const dashboardParamsSchema = z.strictObject({ project: projectId, environment: z.enum(KEY_ENVIRONMENTS) });
export const dashboardKeyParamsSchema = z.strictObject({ ...dashboardParamsSchema.shape, id: keyId });

export type DashboardParams = z.output<typeof dashboardParamsSchema>;

/** Every form carries the page's CSRF token (the `svc_csrf` cookie's value, lib/wire/csrf.ts). */
export const csrfToken = requestString().max(64);

export const createKeyFormSchema = z.strictObject({ csrf_token: csrfToken, type: requestString().max(100).optional() });

/** A key's or a webhook endpoint's Roll form. */
export const rollKeyFormSchema = z.strictObject({ csrf_token: csrfToken, overlap_hours: requestString().max(100).optional() });

export const revokeKeyFormSchema = z.strictObject({ csrf_token: csrfToken });

// A form whose answers come back to its page when refused (lib/dashboard/form-errors.ts): the route's schema takes
// each answer as typed (a string, unknown fields still refused), and the form's fields schema checks them after the
// CSRF token and the member.
const answer = (max = 4096) => requestString().max(max).optional();

/** The API's bounds for an overlap (rollKeyBodySchema, rollWebhookSecretBodySchema): whole hours, at most a week. */
const overlapHours = requestString()
  .trim()
  .min(1, "Enter the overlap in hours, from 0 to 168")
  .regex(/^\d{1,3}$/, "Overlap must be a whole number of hours, from 0 to 168")
  .transform(Number)
  .pipe(z.number().int().min(0, "Overlap must be 0 or more hours").max(168, "Overlap must be at most 168 hours (a week)"));

export const createKeyFieldsSchema = z.strictObject({ type: z.enum(KEY_TYPES, { error: "Choose a secret or a publishable key" }) });
export const rollKeyFieldsSchema = z.strictObject({ overlap_hours: overlapHours });

// Webhooks (docs/dashboard.md, "Webhooks")

const webhookEndpointId = requestString().regex(/^whe_[0-9a-z]{26}$/);
const eventId = requestString().regex(/^evt_[0-9a-z]{26}$/);

export const dashboardWebhookParamsSchema = z.strictObject({ ...dashboardParamsSchema.shape, id: webhookEndpointId });

/** One checkbox per event type, and one for every event (`*`): a form field may appear only once. */
export const EVENT_CHOICES = ["*", ...EVENT_TYPES] as const;
export const eventCheckboxName = (type: string) => `event.${type}`;

export const webhookEndpointFormSchema = z.strictObject({
  csrf_token: csrfToken,
  url: answer(),
  description: answer(),
  ...Object.fromEntries(EVENT_CHOICES.map((type) => [eventCheckboxName(type), z.literal("on").optional()])),
});

export const webhookEndpointFieldsSchema = z.strictObject({
  url: requestString().trim().min(1, "Enter the URL of your receiver, starting https://").max(2048, "The URL must be at most 2,048 characters"),
  enabled_events: z.array(z.enum(EVENT_CHOICES)).min(1, "Select the events to send, or All events"),
  description: requestString().trim().max(500, "The description must be at most 500 characters"),
});

export const webhookEndpointStateFormSchema = z.strictObject({ csrf_token: csrfToken });

export const replayEventFormSchema = z.strictObject({ csrf_token: csrfToken, event_id: eventId });

export const recoverDeliveriesFormSchema = z.strictObject({ csrf_token: csrfToken, since: answer(100) });

export const recoverDeliveriesFieldsSchema = z.strictObject({
  since: requestString()
    .trim()
    .min(1, "Enter the date and time to recover failed deliveries from")
    .transform((value, context) => {
      const since = fromUkDateTimeInput(value);
      if (!since) context.addIssue({ code: "custom", message: "Enter a real date and time, like 27/11/2026 09:30" });
      return since ?? z.NEVER;
    }),
});

const userId = requestString().regex(/^usr_[0-9a-z]{26}$/);

export const dashboardMemberParamsSchema = z.strictObject({ ...dashboardParamsSchema.shape, user: userId });
export const dashboardInvitationParamsSchema = z.strictObject({ ...dashboardParamsSchema.shape, invitation: requestString().regex(/^inv_[0-9a-z]{26}$/) });

/** A form whose only field is the page's CSRF token: a confirmation page's button. */
export const confirmFormSchema = z.strictObject({ csrf_token: csrfToken });

// The Team page's forms take the answers as typed; their fields schemas check them (lib/dashboard/form-errors.ts)
// with the team service's own bounds (lib/team/schemas.ts).
const teamRole = z.enum(PROJECT_ROLES, { error: "Choose a role: owner, developer or viewer" });

export const inviteMemberFormSchema = z.strictObject({ csrf_token: csrfToken, email: answer(), role: answer(100) });

export const inviteMemberFieldsSchema = z.strictObject({
  email: requestString()
    .trim()
    .min(1, "Enter the email address of the person to invite")
    .max(254, "The email address must be at most 254 characters")
    .pipe(z.email("Enter an email address in the correct format, like name@example.com")),
  role: teamRole,
});

export const changeRoleFormSchema = z.strictObject({ csrf_token: csrfToken, role: answer(100) });
export const changeRoleFieldsSchema = z.strictObject({ role: teamRole });

/** One origin a line, as the keys page's text box sends them. */
export const allowedOriginsFormSchema = z.strictObject({ csrf_token: csrfToken, allowed_origins: requestString().max(4096) });

const ORIGIN_WORDS = "an origin such as https://shop.example.com: https, lower case, no path (plain http only for localhost)";

/** The origins typed, blank lines ignored, each refused line named by its number; then the API's own rules (allowedOriginsSchema). */
export const allowedOriginsFieldsSchema = z.strictObject({
  allowed_origins: requestString()
    .transform((text, context) => {
      const lines = text.split(/\r?\n/).map((line) => line.trim());
      const origins = lines.filter(Boolean);
      const bad = lines.findIndex((line) => line !== "" && !allowedOriginSchema.safeParse(line).success);
      if (bad >= 0) context.addIssue({ code: "custom", message: `Line ${bad + 1} must be ${ORIGIN_WORDS}` });
      else if (origins.length > MAX_ALLOWED_ORIGINS) context.addIssue({ code: "custom", message: `Enter at most ${MAX_ALLOWED_ORIGINS} origins, one a line` });
      else if (new Set(origins).size < origins.length) context.addIssue({ code: "custom", message: "Enter each origin once" });
      return origins;
    })
    .pipe(allowedOriginsSchema),
});

// Sub-accounts (beta; docs/dashboard.md, "Sub-accounts, introductions and payouts"): the API's bounds
// (createSubAccountBodySchema) in words for people; the master rate is the service's rule.
export const createSubAccountFormSchema = z.strictObject({ csrf_token: csrfToken, name: answer(), revenue_share_bps: answer(100) });

export const createSubAccountFieldsSchema = z.strictObject({
  name: requestString().trim().min(1, "Enter the sub-account's name").max(100, "The name must be at most 100 characters"),
  revenue_share_bps: requestString()
    .trim()
    .regex(/^\d{0,5}$/, "Revenue share must be a whole number of basis points, from 0 to 10,000")
    .transform((value) => (value === "" ? undefined : Number(value)))
    .pipe(z.number().int().max(10_000, "Revenue share must be at most 10,000 basis points (100%)").optional()),
});
