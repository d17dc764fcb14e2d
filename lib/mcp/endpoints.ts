// The public MCP server's JSON-RPC endpoint, declared once and mounted at both addresses the spec gives it:
// POST /mcp on the site and POST /public/v1/mcp on the hub, sharing one per-address limit (docs/mcp.md).
import { endpoint } from "../http/route";
import { PUBLIC_MCP_LIMIT } from "../ratelimit/policies";
import { answerPublicMcp } from "./public-server";
import { jsonRpcBodySchema, jsonRpcResponseSchema } from "./schemas";

export const publicMcpEndpoint = endpoint({
  summary: "Call the public MCP server (JSON-RPC 2.0)",
  description:
    "Methods `initialize`, `notifications/initialized`, `ping`, `tools/list`, `tools/call`; protocol revision 2025-06-18. " +
    "JSON-RPC errors (-32700, -32600, -32601, -32602) come in a 200; a notification gets 202 with no body. See docs/mcp.md.",
  responses: { 200: jsonRpcResponseSchema, 202: null },
  errors: ["origin_not_allowed", "mcp_protocol_version_unsupported"],
  addressLimit: PUBLIC_MCP_LIMIT,
  body: jsonRpcBodySchema,
  errorFormat: "json-rpc",
  handler: ({ request, body, context }) => answerPublicMcp(request, body, context),
});
