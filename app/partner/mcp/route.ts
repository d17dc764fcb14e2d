// POST /partner/mcp — the partner MCP server (JSON-RPC 2.0) at {base_url}; GET — its authenticated probe
// (spec 4.1, 4.9). The same server as /partner/v1/mcp: a bearer token with `mcp.read` (docs/mcp.md).
import { defineRoute } from "@/lib/http/route";
import { partnerMcpEndpoint, partnerMcpProbeEndpoint, sitePartnerMcpAddress } from "@/app/_endpoints/mcp";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/partner/mcp", {
  GET: partnerMcpProbeEndpoint(sitePartnerMcpAddress),
  POST: partnerMcpEndpoint,
});
