// How delivery rows move (their table: lib/webhooks/delivery-state-machine.ts). No row lock: the update checks
// the move itself, so two workers can never both make it. Every move ends the worker's claim, and only a retry
// keeps a next attempt.
import type { DatabaseClient } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { WEBHOOK_DELIVERY_LIFECYCLE, type WebhookDeliveryTrigger } from "./delivery-state-machine";

type DeliveryChanges = Omit<Prisma.WebhookDeliveryUncheckedUpdateManyInput, "status" | "updatedAt" | "lockedUntil">;

/** Moves the deliveries `where` selects that `trigger` allows. Returns how many moved. */
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
