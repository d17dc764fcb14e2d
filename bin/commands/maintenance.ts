import { runMaintenance } from "../../lib/jobs/maintenance";
import type { Command } from "../cli-kit";

export const maintenanceRun: Command = {
  words: ["maintenance", "run"],
  synopsis: "[--json]",
  description: "Run the hourly housekeeping now: prune Idempotency-Keys past their 24 hours.",
  options: {},
  async run({ database, print }) {
    await database();
    const result = await runMaintenance();
    print(`Pruned ${result.idempotencyKeysPruned} expired idempotency key(s).`, { idempotency_keys_pruned: result.idempotencyKeysPruned });
  },
};
