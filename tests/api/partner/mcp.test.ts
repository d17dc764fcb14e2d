// The partner MCP server over HTTP (spec 4.1, 4.9, 5.2, 7.4) at both of its URLs, with the SDK's own client as a
// real peer carrying a partner access token: initialize, the tools a token's scopes open and no others, every
// partner tool against a project's real applications and accounts (the client checks each result against the
// tool's output schema), the site scheme's colon scopes, the audit log of the personal-data tools, and at the
// JSON level the 401 challenge, the floor scope, the GET probe, Origin, and refusals named by scope.
import { createHash } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApplication } from "@/lib/applications/create";
import { submitApplication } from "@/lib/applications/service";
import { db } from "@/lib/db";
import { config } from "@/lib/env";
import { newId } from "@/lib/ids";
import { PUBLIC_TOOLS } from "@/lib/mcp/public-tools";
import { PARTNER_SCOPES } from "@/lib/oauth/scopes";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import type { Tenant } from "@/lib/tenant";
import { fundedAccount } from "../../database/accounts/helpers";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError, expectJson } from "../../helpers/http";
import { createTestProject, mintToken, requestToken } from "../../helpers/partner";
import { decideOnItsClock } from "@/lib/decisions/background";
import { tenantNow } from "@/lib/tenant-clock";

let server: AppServer;
let project: ProjectCredentials;
let tenant: Tenant;
let fullToken: string;
let account: Awaited<ReturnType<typeof fundedAccount>>;
let declinedApplicationId: string;
let submittedApplicationId: string;

const URLS = ["/partner/v1/mcp", "/partner/mcp"] as const;
const PUBLIC_TOOL_NAMES = PUBLIC_TOOLS.map((tool) => tool.name);
const PARTNER_TOOL_NAMES = [
  "explain_decision",
  "application_status",
  "customer_summary",
  "loan_status",
  "loan_statement",
  "behavioural_digest",
  "queue_status",
  "enquiry_list",
  "platform_metrics",
  "ops_metrics",
  "portfolio_overview",
  "config_snapshot",
];
const ENQUIRY_FORM = `mcp-test-${process.pid}`;

beforeAll(async () => {
  server = await startAppServer();
  project = await createTestProject({ scopes: [...PARTNER_SCOPES] });
  tenant = { projectId: project.project_id, environment: "sandbox" };
  fullToken = await mintToken(server.url, project);
  account = await fundedAccount(tenant, { companyNumber: "10000042", termMonths: 6 });
  const declined = await createApplication({
    tenant, now: await tenantNow(tenant),
    input: { business: { company_number: "10000002" }, amount_pence: 2_000_000, term_months: 12, applicant: { email: "director@example.co.uk" } },
  });
  await submitApplication({ tenant, now: await tenantNow(tenant), id: declined.id, declaredAnnualTurnoverPence: 100_000_000, queueDecisioning: false });
  await decideOnItsClock(declined.id);
  declinedApplicationId = declined.id;
  const submitted = await createApplication({
    tenant, now: await tenantNow(tenant),
    input: { business: { company_number: "10000077" }, amount_pence: 1_500_000, term_months: 12, applicant: { email: "director@example.co.uk" } },
  });
  await submitApplication({ tenant, now: await tenantNow(tenant), id: submitted.id, declaredAnnualTurnoverPence: 100_000_000, queueDecisioning: false });
  submittedApplicationId = submitted.id;
  await db().enquiry.create({ data: { id: newId("enquiry"), form: ENQUIRY_FORM, dept: "sales", email: "someone@example.co.uk", name: "Someone", createdAt: new Date() } });
});
afterAll(() => server?.close());

async function connect(path: string, token: string): Promise<Client> {
  const client = new Client({ name: "mcp-partner-test", version: "0.0.1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}${path}`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18", ...headers },
    body: JSON.stringify(body),
  });
}

const call = (name: string, args?: unknown) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, ...(args === undefined ? {} : { arguments: args }) } });

function structured<T = Record<string, any>>(result: Awaited<ReturnType<Client["callTool"]>>): T {
  const { isError, structuredContent, content } = result as CallToolResult;
  expect(isError, JSON.stringify(content)).toBe(false);
  return structuredContent as T;
}

async function auditRows(projectId: string) {
  return db().mcpToolCall.findMany({ where: { projectId }, orderBy: { id: "asc" } });
}

describe.each(URLS)("the SDK client with a token of every scope, at %s", (path) => {
  let client: Client;
  beforeAll(async () => {
    client = await connect(path, fullToken);
  });
  afterAll(() => client?.close());

  it("initializes as the partner server on revision 2025-06-18", () => {
    expect(client.getServerVersion()).toEqual({ name: "lending-platform-partner", title: "Business finance: your project's applications, loans and operations", version: "1.0.0" });
    expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: false } });
    expect(client.getInstructions()).toContain("audited");
    expect((client.transport as StreamableHTTPClientTransport).protocolVersion).toBe("2025-06-18");
  });

  it("lists the six public tools and every partner tool", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([...PUBLIC_TOOL_NAMES, ...PARTNER_TOOL_NAMES]);
    for (const tool of tools) expect(tool.outputSchema?.type).toBe("object");
  });

  it("quotes as the public server does", async () => {
    const quote = structured(await client.callTool({ name: "get_quote", arguments: { amount: 300, term: 28 } }));
    const publicQuote = await expectJson<Record<string, unknown>>(await fetch(`${server.url}/public/v1/quote/onetime?amount=300&term=28`), 200);
    expect(quote.principal).toBe(30_000);
    expect(quote.total_repayable).toBe(Math.round((publicQuote.total_repayable_pounds as number) * 100));
  });
});

describe("the partner tools, for the token's own project", () => {
  let client: Client;
  beforeAll(async () => {
    client = await connect("/partner/v1/mcp", fullToken);
  });
  afterAll(() => client?.close());

  it("explain_decision says why an application was declined, and that an approval was for what was asked", async () => {
    const declined = structured(await client.callTool({ name: "explain_decision", arguments: { application_id: declinedApplicationId } }));
    expect(declined).toMatchObject({ outcome: "declined", decided_by: "sandbox", approved_amount_pence: 0, requested_amount_pence: 2_000_000 });
    expect(declined.reasons).toEqual([{ code: "affordability", message: "The repayments are not affordable on the business's turnover." }]);
    expect(declined.explanation).toMatch(/^Declined: The repayments are not affordable/);

    const approved = structured(await client.callTool({ name: "ExplainDecision", arguments: { application_id: account.applicationId } }));
    expect(approved.outcome).toBe("approved");
    expect(approved.explanation).toMatch(/^Approved for the £10,000\.00 requested at \d+(\.\d+)?% APR\./);
  });

  it("explain_decision is a failed result for an application not yet decided", async () => {
    const result = (await client.callTool({ name: "explain_decision", arguments: { application_id: submittedApplicationId } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: "text", text: `explain_decision failed: No such decision for application: ${submittedApplicationId}.` }]);
    expect(result._meta).toEqual({ error_code: "not_found" });
  });

  it("application_status and customer_summary read the funded application and its account", async () => {
    const status = structured(await client.callTool({ name: "application_status", arguments: { application_id: account.applicationId } }));
    expect(status).toMatchObject({ id: account.applicationId, status: "funded", company_number: "10000042", amount_pence: 1_000_000, account_id: account.id });
    expect(status.decision.outcome).toBe("approved");

    const summary = structured(await client.callTool({ name: "customer_summary", arguments: { company_number: "10000042" } }));
    expect(summary.applications).toEqual([expect.objectContaining({ id: account.applicationId, status: "funded", amount_pence: 1_000_000 })]);
    expect(summary.accounts).toEqual([{ id: account.id, status: "performing", product: "business_term_loan", principal_outstanding_pence: 1_000_000, arrears_pence: 0 }]);
  });

  it("loan_status, loan_statement and behavioural_digest read the account as the accounts API does", async () => {
    const api = await expectJson<{ balance: Record<string, number>; schedule: Array<{ number: number; due_date: string; amount_pence: number }> }>(
      await fetch(`${server.url}/partner/v1/accounts/${account.id}`, { headers: { authorization: `Bearer ${fullToken}` } }),
      200,
    );
    const status = structured(await client.callTool({ name: "loan_status", arguments: { account_id: account.id } }));
    expect(status).toMatchObject({ account_id: account.id, status: "performing", product: "business_term_loan", balance: api.balance, forborne_until: null });
    expect(status.next_instalment).toEqual({ number: 1, due_date: api.schedule[0]!.due_date, amount_pence: api.schedule[0]!.amount_pence, paid_pence: 0, status: "scheduled" });

    const statement = structured(await client.callTool({ name: "loan_statement", arguments: { account_id: account.id, limit: 5 } }));
    expect(statement.schedule).toHaveLength(6);
    expect(statement.transactions.map((entry: { type: string }) => entry.type)).toEqual(["drawdown"]);
    expect(statement.transactions[0].amount_pence).toBe(-1_000_000);

    const digest = structured(await client.callTool({ name: "behavioural_digest", arguments: { account_id: account.id } }));
    expect(digest).toMatchObject({ instalments_fallen_due: 0, paid_in_full: 0, missed: 0, arrears_pence: 0, collections_settled: 0, collections_failed: {}, forborne: false });
  });

  it("refuses another project's objects as if they did not exist", async () => {
    const other = await createTestProject();
    const otherClient = await connect("/partner/v1/mcp", await mintToken(server.url, other));
    const result = (await otherClient.callTool({ name: "loan_status", arguments: { account_id: account.id } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: "text", text: `loan_status failed: No such account: ${account.id}.` }]);
    expect(result._meta).toEqual({ error_code: "not_found" });
    const summary = (await otherClient.callTool({ name: "customer_summary", arguments: { company_number: "10000042" } })) as CallToolResult;
    expect(summary.isError).toBe(true);
    expect(summary.content).toEqual([{ type: "text", text: "customer_summary failed: No such customer: 10000042." }]);
    expect(summary._meta).toEqual({ error_code: "not_found" });
    await otherClient.close();
  });

  it("refuses the other environment's objects with the code the API answers, environment_mismatch", async () => {
    const liveClient = await connect("/partner/v1/mcp", await mintToken(server.url, project, { environment: "live" }));
    const loan = (await liveClient.callTool({ name: "loan_status", arguments: { account_id: account.id } })) as CallToolResult;
    expect(loan.isError).toBe(true);
    expect(loan.content).toEqual([{ type: "text", text: "loan_status failed: This object belongs to the sandbox environment; the token is for live." }]);
    expect(loan._meta).toEqual({ error_code: "environment_mismatch" });
    const application = (await liveClient.callTool({ name: "application_status", arguments: { application_id: account.applicationId } })) as CallToolResult;
    expect(application.isError).toBe(true);
    expect(application._meta).toEqual({ error_code: "environment_mismatch" });
    await liveClient.close();
  });

  it("queue_status, platform_metrics, portfolio_overview and ops_metrics count the project's own work", async () => {
    expect(structured(await client.callTool({ name: "queue_status" }))).toEqual({
      applications_awaiting_decision: 1,
      applications_in_review: 0,
      payments_pending: 0,
      identity_checks_in_review: 0,
      webhook_deliveries_pending: 0,
      webhook_endpoints_disabled: 0,
    });
    const metrics = structured(await client.callTool({ name: "platform_metrics", arguments: { days: 7 } }));
    expect(metrics).toMatchObject({ applications_created: 3, applications_decided: 2, approved: 1, declined: 1, referred: 0, approval_rate: 0.5, funded: 1, funded_pence: 1_000_000 });
    expect(metrics.events_emitted).toBeGreaterThan(5);

    expect(structured(await client.callTool({ name: "portfolio_overview" }))).toEqual({
      accounts: 1,
      by_status: [{ status: "performing", accounts: 1, principal_outstanding_pence: 1_000_000 }],
      by_product: [{ product: "business_term_loan", accounts: 1, principal_pence: 1_000_000, principal_outstanding_pence: 1_000_000 }],
      arrears_pence: 0,
    });
    const ops = structured(await client.callTool({ name: "ops_metrics" }));
    expect(ops.webhook_deliveries).toEqual({ succeeded: 0, failed: 0, abandoned: 0, pending: 0, success_rate: null });
    expect(ops.collections).toEqual({ settled: 0, failed: 0 });
  });

  it("enquiry_list counts the site's enquiries by form and department, without personal data", async () => {
    const result = (await client.callTool({ name: "enquiry_list", arguments: { days: 1 } })) as CallToolResult;
    const list = structured(result);
    expect(list.by_form).toContainEqual({ form: ENQUIRY_FORM, dept: "sales", count: 1 });
    expect(JSON.stringify(result)).not.toContain("someone@example.co.uk");
  });

  it("config_snapshot describes the project without a secret", async () => {
    const result = (await client.callTool({ name: "config_snapshot" })) as CallToolResult;
    const snapshot = structured(result);
    expect(snapshot.project).toMatchObject({ id: project.project_id, tier: "build", status: "active" });
    expect(snapshot.project.scopes).toContain("owner.read");
    expect(snapshot).toMatchObject({ environment: "sandbox", rate_limit: { per_second: 10, burst: 50, concurrent: 10 }, webhook_endpoints: [], sandbox_clock_offset_days: 0, mcp_server_version: "1.0.0" });
    expect(JSON.stringify(result)).not.toMatch(/sk_|whsec_/);
  });

  it("answers invalid arguments with -32602 carrying the 422 detail", async () => {
    const response = await post("/partner/v1/mcp", call("loan_statement", { account_id: account.id, limit: 500 }), { authorization: `Bearer ${fullToken}` });
    const body = await expectJson<{ error: { code: number; data: { detail: Array<{ field: string }> } } }>(response, 200);
    expect(body.error.code).toBe(-32602);
    expect(body.error.data.detail.map((item) => item.field)).toEqual(["limit"]);
  });
});

describe("scopes", () => {
  it("shows a token with only mcp.read the public tools and explain_decision, and names the scope a call lacks", async () => {
    const scoped = await createTestProject();
    const token = await mintToken(server.url, scoped, { scope: "mcp.read" });
    const client = await connect("/partner/mcp", token);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([...PUBLIC_TOOL_NAMES, "explain_decision"]);
    await client.close();

    for (const [tool, scope, args] of [
      ["loan_status", "account.read", { account_id: account.id }],
      ["queue_status", "ops.read", {}],
      ["config_snapshot", "owner.read", {}],
    ] as const) {
      const body = await expectJson<{ error: { code: number; message: string; data: unknown } }>(await post("/partner/mcp", call(tool, args), { authorization: `Bearer ${token}` }), 200);
      expect(body.error.code).toBe(-32602);
      expect(body.error.message).toContain(`needs the ${scope} scope`);
      expect(body.error.data).toEqual({ code: "insufficient_scope", scope });
    }
  });

  it("does not open the operational counts to a project with the default grant: the enquiries are the platform's", async () => {
    const partner = await createTestProject();
    const token = await mintToken(server.url, partner);
    const client = await connect("/partner/v1/mcp", token);
    const listed = (await client.listTools()).tools.map((tool) => tool.name);
    expect(listed).toEqual([...PUBLIC_TOOL_NAMES, ...PARTNER_TOOL_NAMES.filter((name) => name !== "queue_status" && name !== "enquiry_list")]);
    await expect(client.callTool({ name: "enquiry_list", arguments: { days: 1 } })).rejects.toThrow(
      "MCP error -32602: The tool enquiry_list needs the ops.read scope (ops:read in the site scheme), which this token does not carry.",
    );
    await client.close();
    const body = await expectJson<{ error: { code: number; data: unknown } }>(await post("/partner/v1/mcp", call("enquiry_list", { days: 1 }), { authorization: `Bearer ${token}` }), 200);
    expect(body.error).toMatchObject({ code: -32602, data: { code: "insufficient_scope", scope: "ops.read" } });
    await expectJson(await requestToken(server.url, partner, { scope: "mcp.read ops.read" }), 400);
  });

  it("maps the site scheme's colon scopes to the same tools", async () => {
    const site = await createTestProject({ scopes: ["mcp:read", "loans:read", "config:read"] });
    const client = await connect("/partner/v1/mcp", await mintToken(server.url, site));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([...PUBLIC_TOOL_NAMES, "loan_status", "loan_statement", "behavioural_digest", "config_snapshot"]);
    await client.close();
  });

  it("refuses a token without the mcp.read floor with 403 insufficient_scope", async () => {
    const token = await mintToken(server.url, project, { scope: "applications:read" });
    for (const path of URLS) {
      const response = await post(path, { jsonrpc: "2.0", id: 1, method: "ping" }, { authorization: `Bearer ${token}` });
      await expectApiError(response, 403, "insufficient_scope");
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="partner", error="insufficient_scope", scope="mcp.read"');
    }
  });
});

describe("the audit log", () => {
  it("records every call of a personal-data tool with project, tool, a digest of the arguments and the outcome", async () => {
    const audited = await createTestProject();
    const token = await mintToken(server.url, audited);
    const narrow = await mintToken(server.url, audited, { scope: "mcp.read" });
    const headers = { authorization: `Bearer ${token}` };
    await post("/partner/v1/mcp", call("loan_status", { account_id: "acc_unknown" }), headers);
    await post("/partner/v1/mcp", call("application_status", { application_id: "nope" }), headers);
    await post("/partner/mcp", call("customer_summary", { company_number: "10000042" }), { authorization: `Bearer ${narrow}` });
    await post("/partner/v1/mcp", call("queue_status"), headers);
    await post("/partner/v1/mcp", call("get_quote", { amount: 300, term: 28 }), headers);

    const rows = await auditRows(audited.project_id);
    expect(rows.map((row) => [row.tool, row.outcome, row.environment])).toEqual([
      ["loan_status", "failed", "sandbox"],
      ["application_status", "invalid_arguments", "sandbox"],
      ["customer_summary", "insufficient_scope", "sandbox"],
    ]);
    expect(rows[0]!.argumentsDigest).toBe(createHash("sha256").update(JSON.stringify({ account_id: "acc_unknown" })).digest("hex"));
    expect(rows[0]!.clientId).toBe(audited.client_id);
    expect(rows[0]!.tokenId).toMatch(/.+/);
    expect(JSON.stringify(rows)).not.toContain("10000042");
  });

  it("writes a row for each of several concurrent calls (fewer than the project's concurrency limit) before answering any of them", async () => {
    const audited = await createTestProject();
    const headers = { authorization: `Bearer ${await mintToken(server.url, audited)}` };
    const answers = await Promise.all(Array.from({ length: 8 }, (_, index) => post("/partner/v1/mcp", call("loan_status", { account_id: `acc_${index}` }), headers)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    const rows = await auditRows(audited.project_id);
    expect(rows).toHaveLength(8);
    expect(new Set(rows.map((row) => row.argumentsDigest)).size).toBe(8);
  });

  it("digests the same arguments alike whatever their key order", async () => {
    const audited = await createTestProject();
    const headers = { authorization: `Bearer ${await mintToken(server.url, audited)}` };
    await post("/partner/v1/mcp", call("loan_statement", { account_id: "acc_x", limit: 3 }), headers);
    await post("/partner/v1/mcp", call("loan_statement", { limit: 3, account_id: "acc_x" }), headers);
    const [first, second] = await auditRows(audited.project_id);
    expect(first!.argumentsDigest).toBe(second!.argumentsDigest);
  });
});

describe("the wire", () => {
  it.each(URLS)("answers %s without a valid token 401, naming the protected-resource metadata", async (path) => {
    const challenge = `resource_metadata="${config().HUB_URL}/.well-known/oauth-protected-resource"`;
    for (const headers of [{}, { authorization: "Bearer not-a-token" }] as Array<Record<string, string>>) {
      const response = await post(path, { jsonrpc: "2.0", id: 1, method: "ping" }, headers);
      await expectApiError(response, 401, "unauthenticated");
      expect(response.headers.get("www-authenticate")).toContain(challenge);
    }
    const probe = await fetch(`${server.url}${path}`);
    expect(probe.status).toBe(401);
  });

  it("answers an authenticated GET with the probe: identity, the token's scopes and the tools they open", async () => {
    const token = await mintToken(server.url, project, { scope: "mcp.read ops.read" });
    const probe = await expectJson(await fetch(`${server.url}/partner/v1/mcp`, { headers: { authorization: `Bearer ${token}` } }), 200);
    expect(probe).toEqual({
      serverInfo: { name: "lending-platform-partner", title: "Business finance: your project's applications, loans and operations", version: "1.0.0" },
      protocolVersion: "2025-06-18",
      capabilities: { tools: { listChanged: false } },
      transport: "streamable-http",
      endpoint: `${config().PARTNER_API_URL}/partner/v1/mcp`,
      environment: "sandbox",
      scopes: ["mcp.read", "ops.read"],
      tools: [...PUBLIC_TOOL_NAMES, "explain_decision", "queue_status", "enquiry_list"],
    });
    const site = await expectJson<{ endpoint: string }>(await fetch(`${server.url}/partner/mcp`, { headers: { authorization: `Bearer ${token}` } }), 200);
    expect(site.endpoint).toBe(`${config().BASE_URL}/partner/mcp`);
    const stream = await fetch(`${server.url}/partner/mcp`, { headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" } });
    await expectApiError(stream, 405, "method_not_allowed");
  });

  it("refuses a foreign browser Origin and an unsupported protocol revision", async () => {
    const headers = { authorization: `Bearer ${fullToken}` };
    await expectApiError(await post("/partner/v1/mcp", { jsonrpc: "2.0", id: 1, method: "ping" }, { ...headers, origin: "https://evil.example" }), 403, "origin_not_allowed");
    await expectApiError(await post("/partner/v1/mcp", { jsonrpc: "2.0", id: 1, method: "ping" }, { ...headers, "mcp-protocol-version": "1999-01-01" }), 400, "mcp_protocol_version_unsupported");
  });

  it("answers an unknown tool -32602 and an unknown method -32601, in a 200", async () => {
    const headers = { authorization: `Bearer ${fullToken}` };
    const unknownTool = await expectJson<{ error: { code: number; data: unknown } }>(await post("/partner/v1/mcp", call("drop_tables"), headers), 200);
    expect(unknownTool.error).toMatchObject({ code: -32602, data: { code: "mcp_tool_not_found", name: "drop_tables" } });
    const unknownMethod = await expectJson<{ error: { code: number } }>(await post("/partner/v1/mcp", { jsonrpc: "2.0", id: 2, method: "resources/list" }, headers), 200);
    expect(unknownMethod.error.code).toBe(-32601);
  });
});
