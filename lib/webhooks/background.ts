// The webhooks' background operation (lib/background/catalogue.ts lists it): deliveries and their retries. The
// retry schedule lives in the delivery rows (next_attempt_at), not in either driver.
import type { RowSweep } from "../background-operation";
import { attemptDelivery, countPendingDeliveries, findDueDeliveries } from "./deliver";

export const deliverWebhooks: RowSweep = {
  kind: "rows",
  id: "deliver-webhooks",
  cron: "* * * * *",
  localIntervalMs: 1_000,
  claims: "each delivery as its attempt starts: a claim deadline (locked_until, WEBHOOK_CLAIM_SECONDS: 60 s), given back by a process that stops, at most 4 in flight per endpoint (under the endpoint's row lock); the batch is found fairly across projects and claims nothing",
  batch: 50,
  steps: { find: "find-due-deliveries", each: "attempt" },
  find: findDueDeliveries,
  run: async (id) => (await attemptDelivery(id)) !== "not_claimed",
  counts: "attempted",
  countDue: countPendingDeliveries,
  concurrency: 8,
  drain: true,
};
