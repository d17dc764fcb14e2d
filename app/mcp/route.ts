// POST /mcp — the public MCP server (JSON-RPC 2.0) at {base_url}; GET /mcp — its identity and capabilities
// (spec 4.1, 4.9). The same server as /public/v1/mcp, sharing its rate limit (docs/mcp.md).
import { config } from "@/lib/env";
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { publicMcpEndpoint } from "@/app/_endpoints/mcp";
import { publicMcpProbe } from "@/lib/mcp/public-server";
import { mcpProbeSchema } from "@/lib/mcp/schemas";
import { assertNotOpeningStream } from "@/lib/mcp/server";
import { PUBLIC_MCP_LIMIT } from "@/lib/ratelimit/policies";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/mcp", {
  GET: endpoint({
    summary: "The public MCP server's identity and capabilities",
    responses: { 200: mcpProbeSchema },
    errors: ["method_not_allowed"],
    auth: { kind: "none", addressLimit: PUBLIC_MCP_LIMIT },
    handler: ({ request }) => {
      assertNotOpeningStream(request, "GET, HEAD, OPTIONS, POST");
      return ok(publicMcpProbe(`${config().BASE_URL}/mcp`));
    },
  }),
  POST: publicMcpEndpoint,
});
