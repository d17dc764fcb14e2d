// The audit log of the partner MCP server's personal-data tools (docs/mcp.md, "Audit"): one row per call of a tool
// whose access is `audited`. Written on the fast lane (lib/fast-lane.ts), concurrent calls' rows in one statement:
// the loan-status call is a measured hot path, and a row of its own cost it more CPU than the rest of the call.
import { createHash } from "node:crypto";
import { clock, DAY_MS } from "../clock";
import { db } from "../db";
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

interface AuditRow {
  id: string;
  projectId: string;
  environment: string;
  clientId: string;
  tokenId: string;
  tool: string;
  argumentsDigest: string;
  outcome: AuditedOutcome;
  calledAt: string;
}

/**
 * Rows written together (group commit): each call's row joins the batch of the current turn of the event loop,
 * and the call answers only once its batch is committed, so no answer goes out without its audit row, while one
 * statement carries every concurrent call's row.
 */
class AuditBatch {
  private rows: AuditRow[] = [];
  private committed: Promise<void> | null = null;

  add(row: AuditRow): Promise<void> {
    this.rows.push(row);
    this.committed ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.flush());
    return this.committed;
  }

  private async flush(): Promise<void> {
    const rows = this.rows;
    this.rows = [];
    this.committed = null;
    const column = <K extends keyof AuditRow>(key: K) => rows.map((row) => row[key]);
    await execute(Prisma.sql`INSERT INTO mcp_tool_calls (id, project_id, environment, client_id, token_id, tool, arguments_digest, outcome, called_at)
      SELECT * FROM unnest(${column("id")}::text[], ${column("projectId")}::text[], ${column("environment")}::"Environment"[], ${column("clientId")}::text[],
        ${column("tokenId")}::text[], ${column("tool")}::text[], ${column("argumentsDigest")}::text[], ${column("outcome")}::text[], ${column("calledAt")}::timestamptz[])`);
  }
}

const batch = new AuditBatch();

export async function auditToolCall({ caller, tool, arguments: args, outcome }: { caller: PartnerCaller; tool: McpTool<PartnerCaller>; arguments: Record<string, unknown>; outcome: AuditedOutcome }): Promise<void> {
  const { tenant, clientId, tokenId } = caller;
  await batch.add({
    id: newId("mcpToolCall"),
    projectId: tenant.projectId,
    environment: tenant.environment,
    clientId,
    tokenId,
    tool: tool.name,
    argumentsDigest: argumentsDigest(args),
    outcome,
    calledAt: clock.now().toISOString(),
  });
}

/**
 * How long a tool call's row is kept: thirteen months, so a year's access to personal data can be reviewed
 * with a month to spare, and no longer (the rows name who read which borrower's data, if only as a digest).
 */
export const MCP_AUDIT_RETENTION_MS = 395 * DAY_MS;

/** Deletes the rows past MCP_AUDIT_RETENTION_MS (the hourly maintenance); returns how many. */
export async function pruneExpiredToolCalls(): Promise<number> {
  const { count } = await db().mcpToolCall.deleteMany({ where: { calledAt: { lt: new Date(clock.now().getTime() - MCP_AUDIT_RETENTION_MS) } } });
  return count;
}
