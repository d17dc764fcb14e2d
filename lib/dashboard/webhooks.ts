// The dashboard's Webhooks section's actions: the same services as the partner API's /webhook_endpoints and
// /events/{id}/replay routes (lib/webhooks, lib/events), so the same validation, events and limits, each checked
// against the member's role first and audited after, in the service's transaction where it takes one.
import { db, inTransaction } from "../db";
import { replayEvent } from "../events/service";
import { recordAudit, type AuditedAction } from "../team/audit";
import { tenantWhere } from "../tenant";
import { listWebhookAttempts } from "../webhooks/attempts";
import { recoverFailedDeliveries } from "../webhooks/recover";
import { serializeWebhookEndpoint } from "../webhooks/serialize";
import { createWebhookEndpoint, enableWebhookEndpoint, retrieveWebhookEndpoint, rollWebhookSecret, updateWebhookEndpoint } from "../webhooks/service";
import type { DashboardMember } from "./access";

/** An endpoint's settings as the dashboard's forms give them. */
export interface WebhookEndpointSettings {
  url: string;
  enabledEvents: string[];
  description: string;
}

const auditedBy = (member: DashboardMember, action: AuditedAction, objectId: string) => ({
  projectId: member.tenant.projectId,
  environment: member.tenant.environment,
  actorId: member.userId,
  action,
  objectId,
});

export async function createWebhookEndpointFromDashboard({ member, settings }: { member: DashboardMember; settings: WebhookEndpointSettings }) {
  return inTransaction(db(), async (transaction) => {
    const input = { url: settings.url, enabled_events: settings.enabledEvents, ...(settings.description ? { description: settings.description } : {}) };
    const created = await createWebhookEndpoint({ tenant: member.tenant, input, transaction });
    await recordAudit(transaction, auditedBy(member, "webhook_endpoint.created", created.id));
    return created;
  });
}

export async function updateWebhookEndpointFromDashboard({ member, id, settings }: { member: DashboardMember; id: string; settings: WebhookEndpointSettings }) {
  const input = { url: settings.url, enabled_events: settings.enabledEvents, description: settings.description || null };
  const updated = await updateWebhookEndpoint({ tenant: member.tenant, id, input });
  await recordAudit(db(), auditedBy(member, "webhook_endpoint.updated", id));
  return updated;
}

/** Turns the endpoint off (its pending deliveries are abandoned) or back on, through the endpoint's lifecycle. */
export async function setWebhookEndpointEnabledFromDashboard({ member, id, enabled }: { member: DashboardMember; id: string; enabled: boolean }) {
  const moved = enabled ? await enableWebhookEndpoint({ tenant: member.tenant, id }) : await updateWebhookEndpoint({ tenant: member.tenant, id, input: { disabled: true } });
  await recordAudit(db(), auditedBy(member, enabled ? "webhook_endpoint.enabled" : "webhook_endpoint.disabled", id));
  return moved;
}

export async function rollWebhookSecretFromDashboard({ member, id, overlapHours }: { member: DashboardMember; id: string; overlapHours: number }) {
  const rolled = await rollWebhookSecret({ tenant: member.tenant, id, overlapHours });
  await recordAudit(db(), auditedBy(member, "webhook_endpoint.secret_rolled", id));
  return rolled;
}

/** Sends the event again to this endpoint only. */
export async function replayEventFromDashboard({ member, endpointId, eventId }: { member: DashboardMember; endpointId: string; eventId: string }) {
  return inTransaction(db(), async (transaction) => {
    const replayed = await replayEvent({ tenant: member.tenant, id: eventId, endpointId, transaction });
    await recordAudit(transaction, auditedBy(member, "event.replayed", eventId));
    return replayed;
  });
}

export async function recoverFailedDeliveriesFromDashboard({ member, endpointId, since }: { member: DashboardMember; endpointId: string; since: Date }) {
  return inTransaction(db(), async (transaction) => {
    const recovery = await recoverFailedDeliveries({ tenant: member.tenant, endpointId, since, transaction });
    await recordAudit(transaction, auditedBy(member, "webhook_endpoint.recovered", endpointId));
    return recovery;
  });
}

/** The environment's endpoints for the Webhooks page, newest first. */
export async function listWebhookEndpointsForDashboard({ member, limit = 100 }: { member: DashboardMember; limit?: number }) {
  const endpoints = await db().webhookEndpoint.findMany({ where: tenantWhere(member.tenant), orderBy: { id: "desc" }, take: limit });
  return endpoints.map(serializeWebhookEndpoint);
}

/** One endpoint's page: the endpoint (404 unless the tenant's) and its latest delivery attempts, newest first. */
export async function webhookEndpointForDashboard({ member, id, attempts = 100 }: { member: DashboardMember; id: string; attempts?: number }) {
  const endpoint = await retrieveWebhookEndpoint({ tenant: member.tenant, id });
  return { endpoint, attempts: await listWebhookAttempts(id, attempts) };
}
