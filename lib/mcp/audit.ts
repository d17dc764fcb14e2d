// The audit log of the partner MCP server's personal-data tools (docs/mcp.md, "Audit"): one row per call of a tool
// whose access is `audited`. Written on the fast lane (lib/fast-lane.ts): the loan-status call is a measured hot
// path, and Prisma's insert cost it a millisecond of CPU more than the statement itself.
import { createHash } from "node:crypto";
import { clock } from "../clock";
import { execute } from "../fast-lane";
import { Prisma } from "../generated/prisma/client";
import { newId } from "../ids";
import type { PartnerCaller } from "./partner-tools";
import type { AuditedOutcome } from "./server";
import type { McpTool } from "./tools";

/** SHA-256 (hex) of JSON with every object's keys sorted: the same arguments give the same digest however they were written. */
export function argumentsDigest(args: unknown): string {
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : value !== null && typeof value === "object"
        ? Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical((value as Record<string, unknown>)[key])]))
        : value;
  return createHash("sha256").update(JSON.stringify(canonical(args))).digest("hex");
}

export async function auditToolCall({ caller, tool, arguments: args, outcome }: { caller: PartnerCaller; tool: McpTool<PartnerCaller>; arguments: Record<string, unknown>; outcome: AuditedOutcome }): Promise<void> {
  const { tenant, token } = caller;
  await execute(Prisma.sql`INSERT INTO mcp_tool_calls (id, project_id, environment, client_id, token_id, tool, arguments_digest, outcome, called_at)
    VALUES (${newId("mcpToolCall")}, ${tenant.projectId}, ${tenant.environment}::"Environment", ${token.clientId}, ${token.tokenId}, ${tool.name},
      ${argumentsDigest(args)}, ${outcome}, ${clock.now()})`);
}
