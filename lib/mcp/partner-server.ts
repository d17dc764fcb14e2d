// The partner MCP server (spec 4.9, 5.2), answered at {base_url}/partner/mcp and {partner_api_url}/partner/v1/mcp
// alike: the public server's protocol and tools behind a partner access token carrying the `mcp.read` floor,
// with the partner tools each opened by its own scope (lib/mcp/partner-tools/), metered in the project's
// bucket like any partner request.
import type { z } from "zod";
import { config } from "../env";
import { siteOrigins } from "../wire/cors";
import type { RequestContext } from "../wire/request-context";
import { auditToolCall } from "./audit";
import { partnerToolTable, type PartnerCaller } from "./partner-tools";
import type { partnerMcpProbeSchema } from "./schemas";
import { answerMcpPost, probeOf, type McpServerDefinition } from "./server";

const INSTRUCTIONS =
  "Your project's lending data on the business-finance platform, read-only, in the environment of your token (sandbox or live), " +
  "beside the public tools (products, quotes, eligibility). explain_decision says why a decision came out as it did. " +
  "application_status, customer_summary, loan_status, loan_statement and behavioural_digest read personal data: every call is audited. " +
  "queue_status and enquiry_list give operational counts; platform_metrics, ops_metrics, portfolio_overview and config_snapshot describe the project. " +
  "Tools your token's scopes do not open are not listed. Money is in pence.";

let definition: McpServerDefinition<PartnerCaller> | undefined;

export function partnerMcpServer(): McpServerDefinition<PartnerCaller> {
  definition ??= {
    name: "lending-platform-partner",
    title: "Business finance: your project's applications, loans and operations",
    instructions: INSTRUCTIONS,
    tools: partnerToolTable(),
    // Our own sites, and the partner API's origin.
    allowedOrigins: () => [...siteOrigins(), new URL(config().HUB_URL).origin, new URL(config().PARTNER_API_URL).origin],
    scopesOf: (caller) => caller.scopes,
    audit: auditToolCall,
  };
  return definition;
}

/** One POST to either URL of the partner server. */
export function answerPartnerMcp(input: { request: Request; body: unknown; context: RequestContext; caller: PartnerCaller }): Promise<Response> {
  return answerMcpPost(partnerMcpServer(), input);
}

/** GET: the server's identity and capabilities, with what the token opens (authenticated, so per caller). */
export function partnerMcpProbe(endpoint: string, { tenant, scopes }: Pick<PartnerCaller, "tenant" | "scopes">): z.output<typeof partnerMcpProbeSchema> {
  const server = partnerMcpServer();
  return {
    ...probeOf(server, endpoint),
    environment: tenant.environment,
    scopes: [...scopes].sort(),
    tools: server.tools.listedFor(scopes).map((tool) => tool.name),
  };
}
