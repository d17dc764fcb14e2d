// The four MCP endpoints behind the production server (`npm start`), each reached by the SDK's own client: the
// public server at /mcp and /public/v1/mcp, and the partner server at /partner/mcp and /partner/v1/mcp with a
// CLI-created project's sandbox token, whose default scopes open every partner tool but the operator's
// `ops.read` ones.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect, test } from "@playwright/test";
import { createProjectWithCli, sandboxHeaders } from "./cli-project";

async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "e2e-agent", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

for (const path of ["/mcp", "/public/v1/mcp"]) {
  test(`the public server at ${path} quotes a Business Loan`, async ({ baseURL }) => {
    const client = await connect(`${baseURL}${path}`);
    expect(client.getServerVersion()?.name).toBe("lending-platform-public");
    expect((await client.listTools()).tools).toHaveLength(6);
    const quote = (await client.callTool({ name: "get_quote", arguments: { amount: 300, term: 28 } })) as CallToolResult;
    expect(quote.isError).toBe(false);
    expect(quote.structuredContent).toMatchObject({ product: "business_loan", units: "pence", principal: 30_000, term_days: 28 });
    await client.close();
  });
}

for (const path of ["/partner/mcp", "/partner/v1/mcp"]) {
  test(`the partner server at ${path} opens the default grant's tools to a CLI project's sandbox token, and refuses no token`, async ({ baseURL, request }) => {
    const project = await createProjectWithCli(`E2E MCP ${path}`);
    const client = await connect(`${baseURL}${path}`, await sandboxHeaders(request, project));
    expect(client.getServerVersion()?.name).toBe("lending-platform-partner");
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toHaveLength(16);
    expect(names).toEqual(expect.arrayContaining(["loan_status", "platform_metrics", "config_snapshot", "explain_decision"]));
    expect(names).not.toContain("enquiry_list");
    const snapshot = (await client.callTool({ name: "config_snapshot" })) as CallToolResult;
    expect(snapshot.structuredContent).toMatchObject({ project: { id: project.project_id }, environment: "sandbox" });
    await client.close();

    const refused = await request.post(path, { data: { jsonrpc: "2.0", id: 1, method: "ping" } });
    expect(refused.status()).toBe(401);
    expect(refused.headers()["www-authenticate"]).toContain("resource_metadata=");
  });
}
