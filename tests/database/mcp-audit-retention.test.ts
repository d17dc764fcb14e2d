// Retention of the partner MCP server's audit rows (docs/mcp.md, "Audit"): kept 395 days from the call, then the
// hourly `maintenance` operation deletes them, timed by the clock. A database of its own, because maintenance
// deletes across the platform.
import { describe, expect, it } from "vitest";
import { DAY_MS, freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { BACKGROUND_OPERATIONS } from "@/lib/background/catalogue";
import type { Pass } from "@/lib/background-operation";
import { MCP_AUDIT_RETENTION_MS } from "@/lib/mcp/audit";


const NOW = new Date("2031-03-01T12:00:00.000Z");
const maintenance = BACKGROUND_OPERATIONS.find((operation): operation is Pass => operation.id === "maintenance")!;

async function toolCallAt(calledAt: Date): Promise<string> {
  const id = newId("mcpToolCall");
  await db().mcpToolCall.create({
    data: { id, projectId: "proj_retention", environment: "live", clientId: "svc_client_retention", tokenId: "jti-retention", tool: "loan_status", argumentsDigest: "0".repeat(64), outcome: "ok", calledAt },
  });
  return id;
}

const toolCallIds = async () => (await db().mcpToolCall.findMany({ orderBy: { id: "asc" }, select: { id: true } })).map((row) => row.id);

describe("the MCP audit log's retention", () => {
  it("is 395 days", () => {
    expect(MCP_AUDIT_RETENTION_MS).toBe(395 * DAY_MS);
  });

  it("lets the maintenance operation delete the rows past it and keep the rest", async () => {
    const oldest = NOW.getTime() - MCP_AUDIT_RETENTION_MS;
    await toolCallAt(new Date(oldest - 30 * DAY_MS));
    await toolCallAt(new Date(oldest - 1));
    const kept = [await toolCallAt(new Date(oldest)), await toolCallAt(new Date(oldest + DAY_MS)), await toolCallAt(NOW)];
    freezeClock(NOW);

    expect(await maintenance.run()).toMatchObject({ mcpToolCallsPruned: 2 });
    expect(await toolCallIds()).toEqual(kept.sort());
  });

  it("deletes nothing more when run again", async () => {
    const before = await toolCallIds();
    expect(await maintenance.run()).toMatchObject({ mcpToolCallsPruned: 0 });
    expect(await toolCallIds()).toEqual(before);
  });
});
