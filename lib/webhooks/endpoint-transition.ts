// How an endpoint row moves (its table: lib/webhooks/endpoint-state-machine.ts): the table's states are the row's
// status and, when disabled, its reason; read under the row's lock, then moved with its event in the caller's
// transaction.
import type { Prisma, WebhookEndpoint } from "../generated/prisma/client";
import { transition } from "../lifecycle";
import { lockForMove, type LockOptions } from "../row-lock";
import { WEBHOOK_ENDPOINT_LIFECYCLE, type WebhookEndpointState, type WebhookEndpointTrigger } from "./endpoint-state-machine";
import { serializeWebhookEndpoint } from "./serialize";

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

/** Reads an endpoint and locks its row until the transaction ends. */
export const lockWebhookEndpoint = (transaction: Prisma.TransactionClient, id: string, options?: LockOptions) => lockForMove(transaction, "webhook_endpoints", id, options);

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
