// The webhook endpoint lifecycle (spec 3.5), made through lib/lifecycle.ts. Moves the spec leaves open, as chosen here:
//   - An endpoint is `enabled`, or `disabled` for a reason: `manual` (its owner turned it off), `failing`
//     (72 hours of failed deliveries, lib/webhooks/deliver.ts) or `insecure_url` (its URL is not https: rows
//     registered before https was required, lib/webhooks/insecure-endpoints.ts).
//   - The owner may disable an endpoint (a failing or insecure one becomes a manual one) and enable a disabled one
//     (one whose URL is not https only together with an https URL, lib/webhooks/service.ts). Asking
//     for the state an endpoint is already in changes nothing and writes no event (lib/webhooks/service.ts).
//   - Each move writes `webhook_endpoint.disabled` or `webhook_endpoint.enabled` with the endpoint as it became.
import type { Prisma, WebhookEndpoint } from "../generated/prisma/client";
import { canMove, transition, type Lifecycle } from "../lifecycle";
import { lockRow } from "../row-lock";
import { serializeWebhookEndpoint } from "./serialize";

export type WebhookEndpointState = "enabled" | "disabled_manual" | "disabled_failing" | "disabled_insecure_url";

export const WEBHOOK_ENDPOINT_TRANSITIONS = {
  disable: { from: ["enabled", "disabled_failing", "disabled_insecure_url"], to: "disabled_manual", events: ["webhook_endpoint.disabled"] },
  disable_for_failing: { from: ["enabled"], to: "disabled_failing", events: ["webhook_endpoint.disabled"] },
  disable_for_insecure_url: { from: ["enabled"], to: "disabled_insecure_url", events: ["webhook_endpoint.disabled"] },
  enable: { from: ["disabled_manual", "disabled_failing", "disabled_insecure_url"], to: "enabled", events: ["webhook_endpoint.enabled"] },
} as const;

export type WebhookEndpointTrigger = keyof typeof WEBHOOK_ENDPOINT_TRANSITIONS;

export const WEBHOOK_ENDPOINT_LIFECYCLE: Lifecycle<WebhookEndpointState, WebhookEndpointTrigger> = {
  object: "webhook endpoint",
  moves: WEBHOOK_ENDPOINT_TRANSITIONS,
  said: { disable: "disabled", disable_for_failing: "disabled for failing", disable_for_insecure_url: "disabled for a URL that is not https", enable: "enabled" },
};

/** The state of an endpoint row: its status and, when disabled, why. */
export function endpointState(endpoint: Pick<WebhookEndpoint, "status" | "disabledReason">): WebhookEndpointState {
  if (endpoint.status === "enabled") return "enabled";
  return endpoint.disabledReason === "failing" ? "disabled_failing" : endpoint.disabledReason === "insecure_url" ? "disabled_insecure_url" : "disabled_manual";
}

const COLUMNS: Record<WebhookEndpointState, Pick<WebhookEndpoint, "status" | "disabledReason"> & { failingSince?: null }> = {
  enabled: { status: "enabled", disabledReason: null, failingSince: null },
  disabled_manual: { status: "disabled", disabledReason: "manual" },
  disabled_failing: { status: "disabled", disabledReason: "failing" },
  disabled_insecure_url: { status: "disabled", disabledReason: "insecure_url" },
};

export const canTransitionEndpoint = (state: WebhookEndpointState, trigger: WebhookEndpointTrigger) => canMove(WEBHOOK_ENDPOINT_LIFECYCLE, state, trigger);

/** Reads an endpoint and locks its row until the transaction ends. */
export async function lockWebhookEndpoint(transaction: Prisma.TransactionClient, id: string): Promise<WebhookEndpoint | null> {
  if (!(await lockRow(transaction, "webhook_endpoints", id))) return null;
  return transaction.webhookEndpoint.findUnique({ where: { id } });
}

/** Moves a locked endpoint by `trigger` in `transaction`, with other column `changes` alongside, and writes its event. */
export function transitionWebhookEndpoint(
  transaction: Prisma.TransactionClient,
  endpoint: WebhookEndpoint,
  trigger: WebhookEndpointTrigger,
  options: { now: Date; changes?: Omit<Prisma.WebhookEndpointUpdateInput, "status" | "disabledReason" | "updatedAt"> },
): Promise<WebhookEndpoint> {
  return transition(transaction, WEBHOOK_ENDPOINT_LIFECYCLE, trigger, {
    status: endpointState(endpoint),
    shownAs: endpoint.status,
    now: options.now,
    write: (to) => transaction.webhookEndpoint.update({ where: { id: endpoint.id }, data: { ...options.changes, ...COLUMNS[to], updatedAt: options.now } }),
    object: serializeWebhookEndpoint,
  });
}
