// POST /partner/v1/mcp — the partner MCP server (JSON-RPC 2.0); GET — its authenticated probe (spec 4.9, 5.2).
// The same server as {base_url}/partner/mcp: a bearer token with `mcp.read` (docs/mcp.md).
import { defineRoute } from "@/lib/http/route";
import { partnerApiMcpAddress, partnerMcpEndpoint, partnerMcpProbeEndpoint } from "@/app/_endpoints/mcp";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("partner", "/mcp", {
  GET: partnerMcpProbeEndpoint(partnerApiMcpAddress),
  POST: partnerMcpEndpoint,
});
