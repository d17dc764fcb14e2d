// The webhook delivery lifecycle (spec 6.4): `pending` until an attempt succeeds, its last attempt fails, or its
// endpoint is disabled (`abandoned`); a failed attempt with attempts left keeps it `pending`. Deliveries write no
// events (their attempts are their history). Rows move through lib/webhooks/delivery-transition.ts.
import type { WebhookDeliveryStatus } from "../generated/prisma/client";
import type { Lifecycle } from "../lifecycle";

const MOVES = {
  succeed: { from: ["pending"], to: "succeeded", events: [] },
  schedule_retry: { from: ["pending"], to: "pending", events: [] },
  fail: { from: ["pending"], to: "failed", events: [] },
  abandon: { from: ["pending"], to: "abandoned", events: [] },
} as const;
export type WebhookDeliveryTrigger = keyof typeof MOVES;

export const WEBHOOK_DELIVERY_LIFECYCLE: Lifecycle<WebhookDeliveryStatus, WebhookDeliveryTrigger> = {
  object: "webhook delivery",
  moves: MOVES,
  said: { succeed: "succeeded", schedule_retry: "retried", fail: "failed", abandon: "abandoned" },
};
