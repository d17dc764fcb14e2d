// The MCP servers' endpoints, each declared once and mounted at both addresses the spec gives it (docs/mcp.md):
// the public server at /mcp on the site and /public/v1/mcp on the hub, sharing one per-address limit; the
// partner server at /partner/mcp on the site and /partner/v1/mcp, behind a token carrying the `mcp.read` floor.
// Endpoint configs belong with the routes, not in the domain (lib/mcp never imports the route builder).
import { config } from "@/lib/env";
import { endpoint, ok, type BearerToken } from "@/lib/http/route";
import { PUBLIC_MCP_LIMIT } from "@/lib/ratelimit/policies";
import type { Tenant } from "@/lib/tenant";
import { answerPartnerMcp, partnerMcpProbe } from "@/lib/mcp/partner-server";
import type { PartnerCaller } from "@/lib/mcp/partner-tools";
import { answerPublicMcp } from "@/lib/mcp/public-server";
import { jsonRpcBodySchema, jsonRpcResponseSchema, partnerMcpProbeSchema } from "@/lib/mcp/schemas";
import { assertNotOpeningStream } from "@/lib/mcp/server";

export const publicMcpEndpoint = endpoint({
  summary: "Call the public MCP server (JSON-RPC 2.0)",
  description:
    "Methods `initialize`, `notifications/initialized`, `ping`, `tools/list`, `tools/call`; protocol revision 2025-06-18. " +
    "JSON-RPC errors (-32700, -32600, -32601, -32602) come in a 200; a notification gets 202 with no body. See docs/mcp.md.",
  responses: { 200: jsonRpcResponseSchema, 202: null },
  errors: ["origin_not_allowed", "mcp_protocol_version_unsupported"],
  auth: { kind: "none", addressLimit: PUBLIC_MCP_LIMIT },
  body: jsonRpcBodySchema,
  errorFormat: "json-rpc",
  handler: ({ request, body, context }) => answerPublicMcp(request, body, context),
});

/** The partner server's caller as plain data: the tenant the route authenticated, and what its token grants and names. */
function partnerCaller({ tenant, now, token }: { tenant: Tenant; now: Date; token: BearerToken }): PartnerCaller {
  return { tenant, now, scopes: token.scopes, clientId: token.clientId, tokenId: token.tokenId };
}

export const partnerMcpEndpoint = endpoint({
  summary: "Call the partner MCP server (JSON-RPC 2.0)",
  description:
    "The public server's methods and tools, plus your project's tools, each opened by a scope (`mcp.read`, `account.read`, `ops.read`, " +
    "`owner.read`; docs/mcp.md maps the site scheme's colon scopes). A tool your token's scopes do not open is not listed and a call to it " +
    "is -32602. Every call of an `account.read` tool is audited. Without a valid token: 401 with `WWW-Authenticate` naming the " +
    "protected-resource metadata.",
  auth: { kind: "bearer", scope: "mcp.read" },
  responses: { 200: jsonRpcResponseSchema, 202: null },
  errors: ["origin_not_allowed", "mcp_protocol_version_unsupported"],
  body: jsonRpcBodySchema,
  errorFormat: "json-rpc",
  handler: ({ request, body, context, tenant, now, token }) => answerPartnerMcp({ request, body, context, caller: partnerCaller({ tenant, now, token }) }),
});

/** GET on the partner server at `path` (below the site's or the partner API's origin): the authenticated probe. */
export function partnerMcpProbeEndpoint(address: () => string) {
  return endpoint({
    summary: "The partner MCP server's identity, and what your token opens",
    description: "Identity, protocol revision, transport and endpoint, with your token's environment and scopes and the tools they open. Connect an MCP client to the same URL with POST.",
    auth: { kind: "bearer", scope: "mcp.read" },
    responses: { 200: partnerMcpProbeSchema },
    errors: ["method_not_allowed"],
    handler: ({ request, tenant, token }) => {
      assertNotOpeningStream(request, "GET, HEAD, OPTIONS, POST");
      return ok(partnerMcpProbe(address(), { tenant, scopes: token.scopes }));
    },
  });
}

export const sitePartnerMcpAddress = () => `${config().BASE_URL}/partner/mcp`;
export const partnerApiMcpAddress = () => `${config().PARTNER_API_URL}/partner/v1/mcp`;
