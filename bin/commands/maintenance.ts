import { runMaintenance } from "../../lib/jobs/maintenance";
import type { Command } from "../cli-kit";

export const maintenanceRun: Command = {
  words: ["maintenance", "run"],
  synopsis: "[--json]",
  description: "Run the hourly housekeeping now: prune Idempotency-Keys past their 24 hours and events past their 30 days.",
  options: {},
  async run({ database, print }) {
    await database();
    const result = await runMaintenance();
    print(`Pruned ${result.idempotencyKeysPruned} expired idempotency key(s) and ${result.eventsPruned} event(s) past retention.`, {
      idempotency_keys_pruned: result.idempotencyKeysPruned,
      events_pruned: result.eventsPruned,
    });
  },
};
