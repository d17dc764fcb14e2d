// The webhook delivery lifecycle (spec 6.4): the one table of allowed moves and the one function that makes
// them. A delivery is `pending` until an attempt succeeds (`succeeded`), its last attempt fails (`failed`), or
// it is stopped because its endpoint was disabled (`abandoned`); a failed attempt with attempts left keeps it
// `pending` with its next attempt scheduled. Deliveries write no events: their attempts are their history.
import type { DatabaseClient } from "../db";
import type { Prisma, WebhookDeliveryStatus } from "../generated/prisma/client";

interface DeliveryRule {
  from: readonly WebhookDeliveryStatus[];
  to: WebhookDeliveryStatus;
}

export const WEBHOOK_DELIVERY_TRANSITIONS = {
  succeed: { from: ["pending"], to: "succeeded" },
  schedule_retry: { from: ["pending"], to: "pending" },
  fail: { from: ["pending"], to: "failed" },
  abandon: { from: ["pending"], to: "abandoned" },
} as const satisfies Record<string, DeliveryRule>;

export type WebhookDeliveryTrigger = keyof typeof WEBHOOK_DELIVERY_TRANSITIONS;

type DeliveryChanges = Omit<Prisma.WebhookDeliveryUncheckedUpdateManyInput, "status" | "updatedAt" | "lockedUntil">;

/** Every move ends the worker's claim; only a scheduled retry keeps a next attempt. */
function columnsAfter(trigger: WebhookDeliveryTrigger, now: Date, changes: DeliveryChanges) {
  const rule: DeliveryRule = WEBHOOK_DELIVERY_TRANSITIONS[trigger];
  return { nextAttemptAt: null, ...changes, status: rule.to, lockedUntil: null, updatedAt: now };
}

/**
 * Moves delivery `id` by `trigger` when its status allows it (checked by the update itself, so two workers can
 * never both move it). Returns whether it moved.
 */
export async function transitionWebhookDelivery(
  database: DatabaseClient,
  id: string,
  trigger: WebhookDeliveryTrigger,
  options: { now: Date; changes?: DeliveryChanges },
): Promise<boolean> {
  const rule: DeliveryRule = WEBHOOK_DELIVERY_TRANSITIONS[trigger];
  const { count } = await database.webhookDelivery.updateMany({
    where: { id, status: { in: [...rule.from] } },
    data: columnsAfter(trigger, options.now, options.changes ?? {}),
  });
  return count === 1;
}

/** The `abandon` move for every pending delivery of an endpoint: it was disabled. Returns how many moved. */
export async function abandonPendingDeliveries(transaction: Prisma.TransactionClient, endpointId: string, now: Date): Promise<number> {
  const { count } = await transaction.webhookDelivery.updateMany({
    where: { endpointId, status: { in: [...WEBHOOK_DELIVERY_TRANSITIONS.abandon.from] } },
    data: columnsAfter("abandon", now, {}),
  });
  return count;
}
