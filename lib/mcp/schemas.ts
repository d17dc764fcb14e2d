// The reply schemas of the MCP servers: the tools' structured results (spec 2.10: the quote in pence, with
// `units`) and the HTTP replies the API reference documents (the JSON-RPC response, the GET probe and card).
import { z } from "zod";
import { absoluteUrl, pence, text } from "../wire/response-schema";

export const mcpQuoteResultSchema = z
  .strictObject({
    product: z.literal("business_loan"),
    currency: z.literal("GBP"),
    units: z.literal("pence"),
    principal: pence(),
    term_days: z.int(),
    frequency: z.enum(["weekly", "fortnightly", "monthly"]),
    establishment_fee: pence(),
    total_interest: pence(),
    total_cost: pence(),
    total_repayable: pence(),
    periods: z.int(),
    payment_each: pence().meta({ description: "Each payment but the last, which takes the remainder so the payments add up to total_repayable." }),
  })
  .meta({ description: "A Business Loan quote in pence (spec 2.10, MCP quote result)." });

export const jsonRpcResponseSchema = z
  .strictObject({
    jsonrpc: z.literal("2.0"),
    id: z.union([text(), z.int(), z.null()]),
    result: z.record(text(), z.unknown()).optional(),
    error: z.strictObject({ code: z.int(), message: text(), data: z.unknown().optional() }).optional(),
  })
  .meta({ id: "JsonRpcResponse", description: "One JSON-RPC 2.0 response: `result`, or `error` (-32700, -32600, -32601, -32602), always with status 200." });

const serverInfoSchema = z.strictObject({ name: text(), title: text(), version: text() });

/** GET /mcp: who the server is and what it can do, for a client choosing whether to connect. */
export const mcpProbeSchema = z
  .strictObject({
    serverInfo: serverInfoSchema,
    protocolVersion: z.literal("2025-06-18"),
    capabilities: z.strictObject({ tools: z.strictObject({ listChanged: z.literal(false) }) }),
    transport: z.literal("streamable-http"),
    endpoint: absoluteUrl(),
  })
  .meta({ id: "McpProbe", description: "The MCP server's identity and capabilities." });

/** GET /public/v1/mcp: the probe, with the instructions and every tool. */
export const mcpServerCardSchema = mcpProbeSchema
  .extend({
    instructions: text(),
    tools: z.array(
      z.strictObject({
        name: text(),
        aliases: z.array(text()),
        title: text(),
        description: text(),
        inputSchema: z.record(text(), z.unknown()),
        outputSchema: z.record(text(), z.unknown()),
      }),
    ),
  })
  .meta({ id: "McpServerCard", description: "The MCP server card: identity, protocol, transport, endpoint and tools." });

/** A POST's body: any JSON; the MCP layer answers anything that is not one JSON-RPC message (spec 7.4). */
export const jsonRpcBodySchema = z.unknown().meta({ description: "One JSON-RPC 2.0 message: a request (`jsonrpc`, `id`, `method`, `params`) or a notification." });

/** GET on the partner server: the probe, with the token's environment and scopes and the tools they open. */
export const partnerMcpProbeSchema = mcpProbeSchema
  .extend({
    environment: z.enum(["sandbox", "live"]),
    scopes: z.array(text()),
    tools: z.array(text()).meta({ description: "The names of the tools this token may call." }),
  })
  .meta({ id: "PartnerMcpProbe", description: "The partner MCP server's identity and capabilities, and what the calling token opens." });
