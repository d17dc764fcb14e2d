// The public MCP server over HTTP (spec 4.1, 4.8, 4.9, 7.4, 8), at both of its URLs: the SDK's own client as a
// real peer (initialize, tools/list, every tool and its alias, get_quote against GET /public/v1/quote/onetime),
// then the wire at the JSON level: each JSON-RPC error code in a 200, notifications, the GET probe and card, the
// refused event stream, Origin, MCP-Protocol-Version, and the server's own rate limit apart from the ring's.
//
// Every test runs at a minute of its own (the in-memory limiter follows lib/clock.ts), so the bucket is full at
// the start of each and the file never meets the limit by accident.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { config } from "@/lib/env";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError, expectJson } from "../../helpers/http";

let server: AppServer;

beforeAll(async () => {
  server = await startAppServer();
});
afterAll(() => server?.close());

let minute = 0;
beforeEach(() => {
  minute += 1;
  freezeClock(new Date(Date.UTC(2032, 0, 1, 0, minute)));
});

const URLS = ["/public/v1/mcp", "/mcp"] as const;
const TOOLS = ["list_products", "product_details", "get_quote", "eligibility_criteria", "loyalty_tiers", "how_to_apply"];
const ALIASES = ["ListProducts", "ProductDetails", "GetQuote", "EligibilityCriteria", "LoyaltyTiers", "HowToApply"];

async function connect(path: string): Promise<Client> {
  const client = new Client({ name: "mcp-test", version: "0.0.1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}${path}`)));
  return client;
}

const ACCEPT = "application/json, text/event-stream";

function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: ACCEPT, "mcp-protocol-version": "2025-06-18", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

const call = (id: number | string, name: string, args?: unknown) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, ...(args === undefined ? {} : { arguments: args }) } });

describe.each(URLS)("the SDK client at %s", (path) => {
  let client: Client;
  beforeAll(async () => {
    client = await connect(path);
  });
  afterAll(() => client?.close());

  it("initializes on revision 2025-06-18 with the server's identity, capabilities and instructions", () => {
    expect(client.getServerVersion()).toEqual({ name: "lending-platform-public", title: "Business finance: products, quotes and eligibility", version: "1.0.0" });
    expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: false } });
    expect(client.getInstructions()).toContain("get_quote");
    expect((client.transport as StreamableHTTPClientTransport).protocolVersion).toBe("2025-06-18");
  });

  it("lists the six tools by their snake_case names, each with input and output schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(TOOLS);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
      expect(tool.annotations?.readOnlyHint).toBe(true);
    }
    const quote = tools.find((tool) => tool.name === "get_quote")!;
    expect(quote.inputSchema.required).toEqual(["amount", "term"]);
    expect(Object.keys(quote.inputSchema.properties ?? {})).toEqual(["amount", "term", "frequency"]);
  });

  it("answers ping", async () => {
    expect(await client.ping()).toEqual({});
  });

  it("lists the three products with a line each and their availability", async () => {
    const result = await client.callTool({ name: "list_products" });
    expect(result.isError).toBe(false);
    const structured = result.structuredContent as { currency: string; products: Array<{ id: string; available: boolean; description: string }> };
    expect(structured.currency).toBe("GBP");
    expect(structured.products.map((product) => [product.id, product.available])).toEqual([
      ["business_loan", true],
      ["flex", true],
      ["slice", true],
    ]);
    expect((result.content as Array<{ type: string; text: string }>)[0]!.text).toContain("Business Loan (business_loan)");
  });

  it("details the loan with its figures and a worked example in pence, and Flex without one", async () => {
    const loan = await client.callTool({ name: "product_details", arguments: { product: "business_loan" } });
    const structured = loan.structuredContent as Record<string, any>;
    expect(structured.product.figures).toMatchObject({ amount_min_pounds: 50, amount_max_pounds: 500, term_min_days: 14, term_max_days: 84 });
    expect(structured.worked_example).toMatchObject({ units: "pence", principal: 30_000, term_days: 28, frequency: "weekly", periods: 4 });
    expect((loan.content as Array<{ text: string }>)[0]!.text).toContain("Short-term Business Loan (£50 to £500 over 14 to 84 days; business term loans");
    expect((loan.content as Array<{ text: string }>)[0]!.text).toContain("Worked example: Borrowing £300.00 over 28 days");
    const flex = await client.callTool({ name: "product_details", arguments: { product: "flex" } });
    expect((flex.structuredContent as Record<string, any>).product.id).toBe("flex");
    expect(flex.structuredContent).not.toHaveProperty("worked_example");
  });

  it("quotes exactly what GET /public/v1/quote/onetime quotes, in pence", async () => {
    const result = await client.callTool({ name: "get_quote", arguments: { amount: 300, term: 30, frequency: "fortnightly" } });
    expect(result.isError).toBe(false);
    const pounds = await expectJson(await fetch(`${server.url}/public/v1/quote/onetime?amount=300&term=30&frequency=fortnightly`), 200);
    const pence = (value: number) => Math.round(value * 100);
    expect(result.structuredContent).toEqual({
      product: "business_loan",
      currency: "GBP",
      units: "pence",
      principal: pence(pounds.principal_pounds),
      term_days: 30,
      frequency: "fortnightly",
      establishment_fee: pence(pounds.establishment_fee_pounds),
      total_interest: pence(pounds.total_interest_pounds),
      total_cost: pence(pounds.total_cost_pounds),
      total_repayable: pence(pounds.total_repayable_pounds),
      periods: pounds.periods,
      payment_each: pence(pounds.payment_each_pounds),
    });
    // £300 at 0.25% a day for 30 days: £22.50 interest and the £10 fee, over three fortnights.
    expect(result.structuredContent).toMatchObject({ total_interest: 2_250, establishment_fee: 1_000, total_repayable: 33_250, periods: 3, payment_each: 11_083 });
    expect((result.content as Array<{ text: string }>)[0]!.text).toBe(
      "Short-term Business Loan (£50 to £500 over 14 to 84 days; business term loans through partners or the Apply page are £1,000 to £250,000 over 3 to 60 months at an APR, priced when applying). " +
        "Borrowing £300.00 over 30 days costs £32.50 (£10.00 establishment fee and £22.50 interest), £332.50 in all: 3 fortnightly payments of £110.83, the last £110.84.",
    );
  });

  it("gives eligibility, the loyalty ladder of GET /public/v1/loyalty/tiers, and the way to apply", async () => {
    const eligibility = await client.callTool({ name: "eligibility_criteria" });
    expect((eligibility.structuredContent as Record<string, any>).who_cannot_borrow).toContain("sole traders");
    const tiers = await client.callTool({ name: "loyalty_tiers" });
    expect(tiers.structuredContent).toEqual(await expectJson(await fetch(`${server.url}/public/v1/loyalty/tiers`), 200));
    const apply = await client.callTool({ name: "how_to_apply" });
    expect((apply.structuredContent as Record<string, any>).apply_url).toBe(`${config().BASE_URL}/apply`);
    expect((apply.structuredContent as Record<string, any>).steps).toHaveLength(5);
  });

  it("accepts every PascalCase alias as its tool", async () => {
    const args: Record<string, Record<string, unknown> | undefined> = { ProductDetails: { product: "slice" }, GetQuote: { amount: 50, term: 14 } };
    for (const [index, alias] of ALIASES.entries()) {
      const byAlias = await client.callTool({ name: alias, arguments: args[alias] });
      const byName = await client.callTool({ name: TOOLS[index]!, arguments: args[alias] });
      expect(byAlias.isError).toBe(false);
      expect(byAlias.structuredContent).toEqual(byName.structuredContent);
    }
  });
});

describe("JSON-RPC errors, each in a 200", () => {
  it("answers a body that is not JSON with -32700", async () => {
    const response = await post("/public/v1/mcp", '{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
    expect(body.error.message).toMatch(/^Parse error: /);
  });

  it("answers an empty body with -32700", async () => {
    const body = await expectJson(await post("/mcp", ""), 200);
    expect(body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
  });

  it.each([
    ["a request without jsonrpc", { id: 7, method: "ping" }, 7],
    ["a request with a wrong jsonrpc", { jsonrpc: "1.0", id: "a", method: "ping" }, "a"],
    ["a method that is not a string", { jsonrpc: "2.0", id: 8, method: 42 }, 8],
    ["params that are not an object", { jsonrpc: "2.0", id: 9, method: "ping", params: [1] }, 9],
    ["a string", "hello", null],
    ["a batch", [{ jsonrpc: "2.0", id: 1, method: "ping" }], null],
  ])("answers %s with -32600", async (_name, message, id) => {
    const body = await expectJson(await post("/public/v1/mcp", JSON.stringify(message)), 200);
    expect(body).toMatchObject({ jsonrpc: "2.0", id, error: { code: -32600 } });
  });

  it("answers an unknown method with -32601", async () => {
    const body = await expectJson(await post("/public/v1/mcp", { jsonrpc: "2.0", id: 3, method: "resources/list" }), 200);
    expect(body).toEqual({ jsonrpc: "2.0", id: 3, error: { code: -32601, message: "Method not found" } });
  });

  it("answers an unknown tool with -32602", async () => {
    const body = await expectJson(await post("/mcp", call(4, "delete_everything", {})), 200);
    expect(body).toEqual({
      jsonrpc: "2.0",
      id: 4,
      error: { code: -32602, message: "Unknown tool: delete_everything. tools/list names the tools.", data: { code: "mcp_tool_not_found", name: "delete_everything" } },
    });
  });

  it.each([
    ["a missing term", { amount: 300 }, { field: "term", reason: "required" }],
    ["an amount in pence as a string", { amount: "30000", term: 28 }, { field: "amount", reason: "invalid_type" }],
    ["a fractional amount", { amount: 300.5, term: 28 }, { field: "amount" }],
    ["an unknown frequency", { amount: 300, term: 28, frequency: "daily" }, { field: "frequency" }],
    ["an argument the tool does not take", { amount: 300, term: 28, product: "flex" }, { field: "product" }],
  ])("answers get_quote with %s with -32602 naming the field", async (_name, args, item) => {
    const body = await expectJson(await post("/public/v1/mcp", call(5, "get_quote", args)), 200);
    expect(body.id).toBe(5);
    expect(body.error.code).toBe(-32602);
    expect(body.error.data.detail).toEqual([expect.objectContaining(item)]);
  });

  it("answers get_quote out of range with -32602 carrying the public quote's 422 detail", async () => {
    const body = await expectJson(await post("/public/v1/mcp", call("q", "GetQuote", { amount: 501, term: 7 })), 200);
    const publicQuote = await expectApiError(await fetch(`${server.url}/public/v1/quote/onetime?amount=501&term=7`), 422, "validation_failed");
    expect(body).toMatchObject({ jsonrpc: "2.0", id: "q", error: { code: -32602, data: { status: 422, code: "validation_failed" } } });
    expect(body.error.data.detail).toEqual(publicQuote.error.detail);
    expect(body.error.data.detail.map((item: { field: string; reason: string }) => [item.field, item.reason])).toEqual([
      ["amount", "too_large"],
      ["term", "too_small"],
    ]);
  });

  it("answers tools/call without a tool name with -32602", async () => {
    const body = await expectJson(await post("/mcp", { jsonrpc: "2.0", id: 6, method: "tools/call", params: { arguments: {} } }), 200);
    expect(body).toMatchObject({ id: 6, error: { code: -32602, data: { issues: [expect.objectContaining({ field: "params.name" })] } } });
  });
});

describe("the transport", () => {
  it("accepts notifications with 202 and no body", async () => {
    for (const path of URLS) {
      const response = await post(path, { jsonrpc: "2.0", method: "notifications/initialized" });
      expect(response.status).toBe(202);
      expect(await response.text()).toBe("");
    }
  });

  it("answers initialize with 2025-06-18 when the client proposes a newer revision, with no session id", async () => {
    const response = await post("/public/v1/mcp", {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    const body = await expectJson(response, 200);
    expect(body.result).toMatchObject({ protocolVersion: "2025-06-18", serverInfo: { version: "1.0.0" }, capabilities: { tools: { listChanged: false } } });
    expect(typeof body.result.instructions).toBe("string");
    expect(response.headers.get("mcp-session-id")).toBeNull();
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("serves a client that accepts only JSON", async () => {
    const body = await expectJson(await post("/mcp", { jsonrpc: "2.0", id: 2, method: "ping" }, { accept: "application/json" }), 200);
    expect(body).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
  });

  it("takes a request without MCP-Protocol-Version as 2025-03-26, and refuses a revision it does not speak with 400", async () => {
    const withoutHeader = await fetch(`${server.url}/public/v1/mcp`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }) });
    expect(await expectJson(withoutHeader, 200)).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    for (const path of URLS) {
      const body = await expectApiError(await post(path, { jsonrpc: "2.0", id: 1, method: "ping" }, { "mcp-protocol-version": "2024-01-01" }), 400, "mcp_protocol_version_unsupported");
      expect(body.error.message).toContain("2024-01-01");
    }
  });

  it("refuses a foreign browser Origin with 403 and accepts the site's own", async () => {
    for (const path of URLS) {
      await expectApiError(await post(path, { jsonrpc: "2.0", id: 1, method: "ping" }, { origin: "https://attacker.example" }), 403, "origin_not_allowed");
      const own = await post(path, { jsonrpc: "2.0", id: 1, method: "ping" }, { origin: new URL(config().BASE_URL).origin });
      expect(await expectJson(own, 200)).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    }
  });

  it("answers GET /mcp with the server's identity and capabilities", async () => {
    const body = await expectJson(await fetch(`${server.url}/mcp`), 200);
    expect(body).toEqual({
      serverInfo: { name: "lending-platform-public", title: "Business finance: products, quotes and eligibility", version: "1.0.0" },
      protocolVersion: "2025-06-18",
      capabilities: { tools: { listChanged: false } },
      transport: "streamable-http",
      endpoint: `${config().BASE_URL}/mcp`,
    });
  });

  it("answers GET /public/v1/mcp with the server card, listing each tool with its alias", async () => {
    const body = await expectJson(await fetch(`${server.url}/public/v1/mcp`), 200);
    expect(body).toMatchObject({ protocolVersion: "2025-06-18", transport: "streamable-http", endpoint: `${config().HUB_URL}/public/v1/mcp`, serverInfo: { version: "1.0.0" } });
    expect(body.tools.map((tool: { name: string; aliases: string[] }) => [tool.name, tool.aliases])).toEqual(TOOLS.map((name, index) => [name, [ALIASES[index]]]));
    expect(body.tools[2].inputSchema.required).toEqual(["amount", "term"]);
  });

  it("answers the methods it does not serve with 405 on its own bucket", async () => {
    const response = await fetch(`${server.url}/public/v1/mcp`, { method: "DELETE" });
    await expectApiError(response, 405, "method_not_allowed");
    expect(response.headers.get("allow")).toBe("GET, POST, HEAD, OPTIONS");
    expect(response.headers.get("ratelimit-policy")).toBe("1;w=1;burst=30");
  });

  it("refuses to open an event stream with 405", async () => {
    for (const path of URLS) {
      const response = await fetch(`${server.url}${path}`, { headers: { accept: "text/event-stream" } });
      await expectApiError(response, 405, "method_not_allowed");
      expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS, POST");
    }
  });

  it("limits each address to bursts of 30 on its own bucket, shared by both URLs and apart from the public ring's", async () => {
    const ping = (path: string) => post(path, { jsonrpc: "2.0", id: 1, method: "ping" });
    for (let index = 0; index < 30; index += 1) {
      const response = await ping(URLS[index % 2]!);
      expect(response.status).toBe(200);
      expect(response.headers.get("ratelimit-remaining")).toBe(String(29 - index));
    }
    for (const path of URLS) {
      const refused = await ping(path);
      const body = await expectApiError(refused, 429, "rate_limited");
      expect(body.error.retryable).toBe(true);
      expect(refused.headers.get("ratelimit-policy")).toBe("1;w=1;burst=30");
      expect(refused.headers.get("retry-after")).toBe("1");
    }
    const deleted = await fetch(`${server.url}/public/v1/mcp`, { method: "DELETE" });
    await expectApiError(deleted, 429, "rate_limited");
    expect(deleted.headers.get("ratelimit-policy")).toBe("1;w=1;burst=30");
    const products = await fetch(`${server.url}/public/v1/products`);
    expect(products.status).toBe(200);
    expect(products.headers.get("ratelimit-policy")).toBe("60;w=60");
    expect(products.headers.get("ratelimit-remaining")).toBe("59");
  });
});
