// The Webhooks section's forms (docs/dashboard.md, "Webhooks"): each post, once the route builder has checked the
// page's CSRF token and the person (signed in, a member of the project, a role allowed `manage_webhooks`), has its
// answers checked (a refusal comes back to the form: lib/dashboard/form-errors.ts), then calls the webhooks service
// the API calls, and answers where the browser goes next: 303 to the endpoint's page, with a new signing secret in
// the shown-once cookie.
import type { z } from "zod";
import { EVENT_TYPES } from "../events/events";
import { backWithRefusals, checkForm, withFieldRefusals } from "./form-errors";
import type { AfterPost, FormPost } from "./form-request";
import {
  eventCheckboxName,
  recoverDeliveriesFieldsSchema,
  rollKeyFieldsSchema,
  webhookEndpointFieldsSchema,
  type DashboardParams,
  type recoverDeliveriesFormSchema,
  type replayEventFormSchema,
  type rollKeyFormSchema,
  type webhookEndpointFormSchema,
  type webhookEndpointStateFormSchema,
} from "./schemas";
import { shownOnceCookie } from "./shown-once";
import {
  createWebhookEndpointFromDashboard,
  recoverFailedDeliveriesFromDashboard,
  replayEventFromDashboard,
  rollWebhookSecretFromDashboard,
  setWebhookEndpointEnabledFromDashboard,
  updateWebhookEndpointFromDashboard,
} from "./webhooks";

type OnEndpoint = { endpointId: string };

export function webhooksPagePath(params: DashboardParams): string {
  return `/dashboard/${params.project}/${params.environment}/webhooks`;
}

export function webhookEndpointPagePath(params: DashboardParams, endpointId: string): string {
  return `${webhooksPagePath(params)}/${endpointId}`;
}

/** The endpoint form's answers: every event (`*`) when that box is ticked, else the ticked types. */
function endpointAnswers(form: z.output<typeof webhookEndpointFormSchema>) {
  const ticked = (type: string) => (form as Record<string, string | undefined>)[eventCheckboxName(type)] === "on";
  const enabledEvents = ticked("*") ? ["*"] : EVENT_TYPES.filter(ticked);
  return {
    answers: { url: form.url, enabled_events: enabledEvents, description: form.description },
    values: { url: form.url, description: form.description, enabled_events: enabledEvents.join(",") },
  };
}

const ENDPOINT_FIELDS = ["url", "enabled_events", "description"] as const;

/** Checks the endpoint form, then runs `save` with its settings; a refusal (the form's or the service's) goes back to `location`. */
async function withEndpointSettings(
  post: FormPost<z.output<typeof webhookEndpointFormSchema>>,
  refusal: { form: string; location: string },
  save: (settings: { url: string; enabledEvents: string[]; description: string }) => Promise<AfterPost>,
): Promise<AfterPost> {
  const { answers, values } = endpointAnswers(post.form);
  const checked = checkForm(webhookEndpointFieldsSchema, answers);
  if (!checked.ok) return backWithRefusals(post, { ...refusal, values, errors: checked.errors });
  const settings = { url: checked.data.url, enabledEvents: checked.data.enabled_events, description: checked.data.description };
  return withFieldRefusals(post, { ...refusal, values, fields: ENDPOINT_FIELDS }, () => save(settings));
}

export async function submitCreateWebhookEndpointForm(post: FormPost<z.output<typeof webhookEndpointFormSchema>>): Promise<AfterPost> {
  const { member } = post;
  return withEndpointSettings(post, { form: "create-endpoint", location: webhooksPagePath(post.params) }, async (settings) => {
    const created = await createWebhookEndpointFromDashboard({ member, settings });
    const setCookie = await shownOnceCookie(
      { kind: "webhook_endpoint_created", userId: member.userId, projectId: post.params.project, environment: post.params.environment, objectId: created.id, secret: created.secret },
      post.secure,
    );
    return { location: webhookEndpointPagePath(post.params, created.id), setCookie };
  });
}

export async function submitUpdateWebhookEndpointForm(post: FormPost<z.output<typeof webhookEndpointFormSchema>> & OnEndpoint): Promise<AfterPost> {
  const { member } = post;
  const location = webhookEndpointPagePath(post.params, post.endpointId);
  return withEndpointSettings(post, { form: "edit-endpoint", location }, async (settings) => {
    await updateWebhookEndpointFromDashboard({ member, id: post.endpointId, settings });
    return { location: `${location}?changed=updated` };
  });
}

export async function submitWebhookEndpointStateForm(post: FormPost<z.output<typeof webhookEndpointStateFormSchema>> & OnEndpoint & { enabled: boolean }): Promise<AfterPost> {
  const { member } = post;
  await setWebhookEndpointEnabledFromDashboard({ member, id: post.endpointId, enabled: post.enabled });
  return { location: `${webhookEndpointPagePath(post.params, post.endpointId)}?changed=${post.enabled ? "enabled" : "disabled"}` };
}

export async function submitRollWebhookSecretForm(post: FormPost<z.output<typeof rollKeyFormSchema>> & OnEndpoint): Promise<AfterPost> {
  const { member } = post;
  const location = webhookEndpointPagePath(post.params, post.endpointId);
  const checked = checkForm(rollKeyFieldsSchema, { overlap_hours: post.form.overlap_hours });
  if (!checked.ok) {
    return backWithRefusals(post, { form: "roll-secret", location, values: { overlap_hours: post.form.overlap_hours }, errors: checked.errors });
  }
  const rolled = await rollWebhookSecretFromDashboard({ member, id: post.endpointId, overlapHours: checked.data.overlap_hours });
  const setCookie = await shownOnceCookie(
    {
      kind: "webhook_secret_rolled",
      userId: member.userId,
      projectId: post.params.project,
      environment: post.params.environment,
      objectId: rolled.id,
      secret: rolled.secret,
      ...(rolled.previous_secret_expires_at ? { predecessorExpiresAt: rolled.previous_secret_expires_at } : {}),
    },
    post.secure,
  );
  return { location, setCookie };
}

export async function submitReplayEventForm(post: FormPost<z.output<typeof replayEventFormSchema>> & OnEndpoint): Promise<AfterPost> {
  const { member } = post;
  await replayEventFromDashboard({ member, endpointId: post.endpointId, eventId: post.form.event_id });
  return { location: `${webhookEndpointPagePath(post.params, post.endpointId)}?replayed=${post.form.event_id}` };
}

export async function submitRecoverDeliveriesForm(post: FormPost<z.output<typeof recoverDeliveriesFormSchema>> & OnEndpoint): Promise<AfterPost> {
  const { member } = post;
  const location = webhookEndpointPagePath(post.params, post.endpointId);
  const values = { since: post.form.since };
  const checked = checkForm(recoverDeliveriesFieldsSchema, values);
  if (!checked.ok) return backWithRefusals(post, { form: "recover", location, values, errors: checked.errors });
  return withFieldRefusals(post, { form: "recover", location, values, fields: ["since"] }, async () => {
    const recovery = await recoverFailedDeliveriesFromDashboard({ member, endpointId: post.endpointId, since: checked.data.since });
    return { location: `${location}?recovered=${recovery.count}` };
  });
}
