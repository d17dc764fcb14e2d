import { runMaintenance } from "../../lib/background/catalogue";
import type { Command } from "../cli-kit";

export const maintenanceRun: Command = {
  words: ["maintenance", "run"],
  synopsis: "[--json]",
  description:
    "Run the hourly housekeeping now: prune Idempotency-Keys past their 24 hours, events past their 30 days, enquiries past their 90 days, support sessions 30 days after their last message and the partner MCP server's audit rows past their 395 days.",
  options: {},
  async run({ database, print }) {
    await database();
    const result = await runMaintenance();
    print(
      `Pruned ${result.idempotencyKeysPruned} expired idempotency key(s), ${result.eventsPruned} event(s), ${result.enquiriesPruned} enquiry(ies), ${result.supportSessionsPruned} support session(s) and ${result.mcpToolCallsPruned} MCP tool call(s) past retention.`,
      {
        idempotency_keys_pruned: result.idempotencyKeysPruned,
        events_pruned: result.eventsPruned,
        enquiries_pruned: result.enquiriesPruned,
        support_sessions_pruned: result.supportSessionsPruned,
        mcp_tool_calls_pruned: result.mcpToolCallsPruned,
      },
    );
  },
};
