// POST /public/v1/mcp — the public MCP server (JSON-RPC 2.0); GET — its server card (spec 4.8, 4.9). The same
// server as {base_url}/mcp, with its own per-address limit apart from the ring's window (docs/mcp.md).
import { config } from "@/lib/env";
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { publicMcpEndpoint } from "@/app/_endpoints/mcp";
import { renderedPublicMcpCard } from "@/lib/mcp/public-server";
import { mcpServerCardSchema } from "@/lib/mcp/schemas";
import { assertNotOpeningStream } from "@/lib/mcp/server";
import { PUBLIC_MCP_LIMIT } from "@/lib/ratelimit/policies";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("public", "/mcp", {
  GET: endpoint({
    summary: "The public MCP server card",
    description: "Identity, protocol revision, transport, endpoint and tools (each with its PascalCase alias). Connect an MCP client to the same URL with POST.",
    responses: { 200: mcpServerCardSchema },
    errors: ["method_not_allowed"],
    auth: { kind: "none", addressLimit: PUBLIC_MCP_LIMIT },
    handler: ({ request }) => {
      assertNotOpeningStream(request, "GET, HEAD, OPTIONS, POST");
      return ok(renderedPublicMcpCard(`${config().HUB_URL}/public/v1/mcp`));
    },
  }),
  POST: publicMcpEndpoint,
});
