// The webhook endpoint lifecycle (spec 3.5): the one table of allowed moves and the one function that makes
// them, writing the change and its event in the caller's transaction.
//
// Moves the spec leaves open, as chosen here:
//   - An endpoint is `enabled`, or `disabled` for a reason: `manual` (its owner turned it off), `failing`
//     (72 hours of failed deliveries, lib/webhooks/deliver.ts) or `insecure_url` (its URL is not https: rows
//     registered before https was required, lib/webhooks/insecure-endpoints.ts).
//   - The owner may disable an endpoint (a failing or insecure one becomes a manual one) and enable a disabled one
//     (one whose URL is not https only together with an https URL, lib/webhooks/service.ts). Asking
//     for the state an endpoint is already in changes nothing and writes no event (lib/webhooks/service.ts).
//   - Each move writes `webhook_endpoint.disabled` or `webhook_endpoint.enabled` with the endpoint as it became.
import { ApiError } from "../errors";
import { recordEvents, type EventType } from "../events/events";
import type { Prisma, WebhookEndpoint } from "../generated/prisma/client";
import { lockRow } from "../row-lock";
import { serializeWebhookEndpoint } from "./serialize";

export type WebhookEndpointState = "enabled" | "disabled_manual" | "disabled_failing" | "disabled_insecure_url";

interface EndpointRule {
  from: readonly WebhookEndpointState[];
  to: WebhookEndpointState;
  event: EventType;
}

export const WEBHOOK_ENDPOINT_TRANSITIONS = {
  disable: { from: ["enabled", "disabled_failing", "disabled_insecure_url"], to: "disabled_manual", event: "webhook_endpoint.disabled" },
  disable_for_failing: { from: ["enabled"], to: "disabled_failing", event: "webhook_endpoint.disabled" },
  disable_for_insecure_url: { from: ["enabled"], to: "disabled_insecure_url", event: "webhook_endpoint.disabled" },
  enable: { from: ["disabled_manual", "disabled_failing", "disabled_insecure_url"], to: "enabled", event: "webhook_endpoint.enabled" },
} as const satisfies Record<string, EndpointRule>;

export type WebhookEndpointTrigger = keyof typeof WEBHOOK_ENDPOINT_TRANSITIONS;

/** The state of an endpoint row: its status and, when disabled, why. */
export function endpointState(endpoint: Pick<WebhookEndpoint, "status" | "disabledReason">): WebhookEndpointState {
  if (endpoint.status === "enabled") return "enabled";
  if (endpoint.disabledReason === "failing") return "disabled_failing";
  return endpoint.disabledReason === "insecure_url" ? "disabled_insecure_url" : "disabled_manual";
}

const COLUMNS: Record<WebhookEndpointState, Pick<WebhookEndpoint, "status" | "disabledReason"> & { failingSince?: null }> = {
  enabled: { status: "enabled", disabledReason: null, failingSince: null },
  disabled_manual: { status: "disabled", disabledReason: "manual" },
  disabled_failing: { status: "disabled", disabledReason: "failing" },
  disabled_insecure_url: { status: "disabled", disabledReason: "insecure_url" },
};

const PROSE: Record<WebhookEndpointState, string> = {
  enabled: "enabled",
  disabled_manual: "disabled",
  disabled_failing: "disabled for failing",
  disabled_insecure_url: "disabled for a URL that is not https",
};

export function canTransitionEndpoint(state: WebhookEndpointState, trigger: WebhookEndpointTrigger): boolean {
  return (WEBHOOK_ENDPOINT_TRANSITIONS[trigger].from as readonly WebhookEndpointState[]).includes(state);
}

/** Reads an endpoint and locks its row until the transaction ends. */
export async function lockWebhookEndpoint(transaction: Prisma.TransactionClient, id: string): Promise<WebhookEndpoint | null> {
  if (!(await lockRow(transaction, "webhook_endpoints", id))) return null;
  return transaction.webhookEndpoint.findUnique({ where: { id } });
}

/**
 * Moves a locked endpoint (see `lockWebhookEndpoint`) by `trigger` inside `transaction`, with other column
 * `changes` alongside, and writes the move's event. A move the table does not allow is 409 `conflict`.
 */
export async function transitionWebhookEndpoint(
  transaction: Prisma.TransactionClient,
  endpoint: WebhookEndpoint,
  trigger: WebhookEndpointTrigger,
  options: { now: Date; changes?: Omit<Prisma.WebhookEndpointUpdateInput, "status" | "disabledReason" | "updatedAt"> },
): Promise<WebhookEndpoint> {
  const rule: EndpointRule = WEBHOOK_ENDPOINT_TRANSITIONS[trigger];
  const from = endpointState(endpoint);
  if (!canTransitionEndpoint(from, trigger)) {
    throw new ApiError("conflict", { message: `A webhook endpoint that is ${PROSE[from]} cannot be ${PROSE[rule.to]}.` });
  }
  const updated = await transaction.webhookEndpoint.update({
    where: { id: endpoint.id },
    data: { ...options.changes, ...COLUMNS[rule.to], updatedAt: options.now },
  });
  await recordEvents(transaction, [
    { projectId: updated.projectId, environment: updated.environment, type: rule.event, object: serializeWebhookEndpoint(updated), createdAt: options.now },
  ]);
  return updated;
}
