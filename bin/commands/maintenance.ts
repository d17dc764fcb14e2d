import { runMaintenance } from "../../lib/background/catalogue";
import type { Command } from "../cli-kit";

/** `eventsPruned` → `events_pruned` (the JSON key) and `events pruned` (the words). */
const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

export const maintenanceRun: Command = {
  words: ["maintenance", "run"],
  synopsis: "[--json]",
  description:
    "Run the hourly housekeeping now, every task of it (lib/background/catalogue.ts): rows past their retention pruned (Idempotency-Keys, events, enquiries, support sessions, MCP audit rows, registry answers, the sign-in provider's rows, usage counts), webhook endpoints without https disabled, applicants' personal data past its retention erased. Prints each task's count.",
  options: {},
  async run({ database, print }) {
    await database();
    const report = await runMaintenance();
    const counts = Object.fromEntries(Object.entries(report).map(([name, count]) => [snakeCase(name), count]));
    print(`Maintenance done: ${Object.entries(counts).map(([name, count]) => `${name.replaceAll("_", " ")} ${count}`).join(", ")}.`, counts);
  },
};
