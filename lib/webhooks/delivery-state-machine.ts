// The webhook delivery lifecycle (spec 6.4), its table in the shape of lib/lifecycle.ts. A delivery is `pending`
// until an attempt succeeds (`succeeded`), its last attempt fails (`failed`), or it is stopped because its
// endpoint was disabled (`abandoned`); a failed attempt with attempts left keeps it `pending` with its next
// attempt scheduled. Deliveries write no events (their attempts are their history), and take no row lock: the
// update checks the move itself, so two workers can never both make it.
import type { DatabaseClient } from "../db";
import type { Prisma, WebhookDeliveryStatus } from "../generated/prisma/client";
import type { Lifecycle } from "../lifecycle";

export const WEBHOOK_DELIVERY_TRANSITIONS = {
  succeed: { from: ["pending"], to: "succeeded", events: [] },
  schedule_retry: { from: ["pending"], to: "pending", events: [] },
  fail: { from: ["pending"], to: "failed", events: [] },
  abandon: { from: ["pending"], to: "abandoned", events: [] },
} as const;

export type WebhookDeliveryTrigger = keyof typeof WEBHOOK_DELIVERY_TRANSITIONS;

export const WEBHOOK_DELIVERY_LIFECYCLE: Lifecycle<WebhookDeliveryStatus, WebhookDeliveryTrigger> = {
  object: "webhook delivery",
  moves: WEBHOOK_DELIVERY_TRANSITIONS,
  said: { succeed: "succeeded", schedule_retry: "retried", fail: "failed", abandon: "abandoned" },
};

type DeliveryChanges = Omit<Prisma.WebhookDeliveryUncheckedUpdateManyInput, "status" | "updatedAt" | "lockedUntil">;

/** Moves the deliveries `where` selects that `trigger` allows; every move ends the worker's claim, and only a retry keeps a next attempt. */
async function move(database: DatabaseClient, where: Prisma.WebhookDeliveryWhereInput, trigger: WebhookDeliveryTrigger, now: Date, changes: DeliveryChanges = {}): Promise<number> {
  const { from, to } = WEBHOOK_DELIVERY_LIFECYCLE.moves[trigger];
  const { count } = await database.webhookDelivery.updateMany({
    where: { ...where, status: { in: [...from] } },
    data: { nextAttemptAt: null, ...changes, status: to, lockedUntil: null, updatedAt: now },
  });
  return count;
}

/** Moves delivery `id` by `trigger` when its status allows it. Returns whether it moved. */
export async function transitionWebhookDelivery(database: DatabaseClient, id: string, trigger: WebhookDeliveryTrigger, options: { now: Date; changes?: DeliveryChanges }): Promise<boolean> {
  return (await move(database, { id }, trigger, options.now, options.changes)) === 1;
}

/** The `abandon` move for every pending delivery of an endpoint: it was disabled. Returns how many moved. */
export function abandonPendingDeliveries(transaction: Prisma.TransactionClient, endpointId: string, now: Date): Promise<number> {
  return move(transaction, { endpointId }, "abandon", now);
}
