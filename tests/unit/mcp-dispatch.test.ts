// The MCP servers' dispatch (lib/mcp/server.ts) where the SDK's client cannot reach it: a fault outside a tool's
// run answers -32603 naming a correlation id and no internal detail, and the id of the request it answers.
import { describe, expect, it } from "vitest";
import { startRequest } from "@/lib/http/request-edges";
import { answerMcpPost, type McpServerDefinition } from "@/lib/mcp/server";
import { ToolTable } from "@/lib/mcp/tools";

const failing: McpServerDefinition<undefined> = {
  name: "test",
  title: "Test",
  instructions: "None.",
  tools: new ToolTable<undefined>([]),
  allowedOrigins: () => [],
  scopesOf: () => {
    throw new Error("the scope store is down: postgres://internal-host/db");
  },
};

async function post(body: unknown) {
  const request = new Request("http://127.0.0.1/mcp", { method: "POST", headers: { "mcp-protocol-version": "2025-06-18" } });
  const context = startRequest(request, "public", "/mcp");
  const response = await answerMcpPost(failing, { request, body, caller: undefined, context });
  return { status: response.status, body: (await response.json()) as { id: unknown; error: { code: number; message: string } }, context };
}

describe("the MCP dispatch", () => {
  it("answers a fault outside a tool's run with -32603 and a correlation id, not the fault's own words", async () => {
    const { status, body, context } = await post({ jsonrpc: "2.0", id: "list-1", method: "tools/list" });
    expect(status).toBe(200);
    expect(body.id).toBe("list-1");
    expect(body.error.code).toBe(-32603);
    expect(body.error.message).toContain(String(context.logFields.correlation_id));
    expect(body.error.message).not.toContain("postgres://");
  });

  it("still answers ping, which needs no scopes", async () => {
    expect((await post({ jsonrpc: "2.0", id: 1, method: "ping" })).body).toEqual({ result: {}, jsonrpc: "2.0", id: 1 });
  });
});
