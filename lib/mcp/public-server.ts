// The public MCP server (spec 4.9), answered at {base_url}/mcp and {hub_url}/public/v1/mcp alike: no
// credential, read-only tools over public figures, its own per-address rate limit (PUBLIC_MCP_LIMIT).
import type { z } from "zod";
import { config } from "../env";
import { siteOrigins } from "../wire/cors";
import { RenderedJson } from "../wire/rendered-json";
import type { RequestContext } from "../wire/request-context";
import { publicToolTable } from "./public-tools";
import type { mcpProbeSchema, mcpServerCardSchema } from "./schemas";
import { answerMcpPost, probeOf, type McpServerDefinition } from "./server";

const INSTRUCTIONS =
  "Public information about business finance for UK limited companies and LLPs: the products (list_products, product_details), " +
  "representative quotes for the short-term Business Loan (get_quote: amount in whole pounds, term in days; results in pence; " +
  "not the business term loan partners and the Apply page start, in months at an APR), eligibility, " +
  "loyalty tiers and how to apply. These tools see no customer or account data: for anything about a particular application " +
  "or account, send the person to sign in. Quotes are representative, not offers.";

let definition: McpServerDefinition<undefined> | undefined;

export function publicMcpServer(): McpServerDefinition<undefined> {
  definition ??= {
    name: "lending-platform-public",
    title: "Business finance: products, quotes and eligibility",
    instructions: INSTRUCTIONS,
    tools: publicToolTable(),
    // Our own sites only (BASE_URL, HUB_URL and CORS_ALLOWED_ORIGINS).
    allowedOrigins: () => [...siteOrigins(), new URL(config().HUB_URL).origin],
    scopesOf: () => null,
  };
  return definition;
}

/** One POST to either URL of the public server. */
export function answerPublicMcp(request: Request, body: unknown, context: RequestContext): Promise<Response> {
  return answerMcpPost(publicMcpServer(), { request, body, caller: undefined, context });
}

/** GET {base_url}/mcp: identity and capabilities, with the URL the server answers at. */
export function publicMcpProbe(endpoint: string): z.output<typeof mcpProbeSchema> {
  return probeOf(publicMcpServer(), endpoint);
}

/** GET {hub_url}/public/v1/mcp: the probe with the instructions and the tools, each with its PascalCase alias. */
export function publicMcpCard(endpoint: string): z.output<typeof mcpServerCardSchema> {
  const server = publicMcpServer();
  return {
    ...publicMcpProbe(endpoint),
    instructions: server.instructions,
    tools: server.tools.tools.map((tool, index) => {
      const { name, title, description, inputSchema, outputSchema } = server.tools.listed[index]!;
      return { name, aliases: [tool.alias], title: title!, description: description!, inputSchema, outputSchema: outputSchema! };
    }),
  };
}

// The card changes only with the code (its tools) and the configured URL, so it is rendered once: its JSON
// Schemas make it the largest reply the server gives.
const renderedCards = new Map<string, RenderedJson>();

export function renderedPublicMcpCard(endpoint: string): RenderedJson {
  let rendered = renderedCards.get(endpoint);
  if (!rendered) {
    rendered = new RenderedJson(JSON.stringify(publicMcpCard(endpoint)));
    renderedCards.set(endpoint, rendered);
  }
  return rendered;
}
