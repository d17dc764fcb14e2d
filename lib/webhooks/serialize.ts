import type { WebhookEndpoint } from "../generated/prisma/client";
import { CURRENT_API_VERSION } from "../events/events";

/** The webhook endpoint object (spec 2.7). Never includes the secret: create and roll add it once. */
export function serializeWebhookEndpoint(endpoint: WebhookEndpoint) {
  return {
    id: endpoint.id,
    object: "webhook_endpoint" as const,
    livemode: endpoint.environment === "live",
    url: endpoint.url,
    enabled_events: endpoint.enabledEvents,
    status: endpoint.status,
    disabled_reason: endpoint.disabledReason,
    api_version: endpoint.apiVersion ?? CURRENT_API_VERSION,
    description: endpoint.description,
    metadata: endpoint.metadata as Record<string, string>,
    previous_secret_expires_at: endpoint.previousSecretExpiresAt?.toISOString() ?? null,
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
  };
}
