// The protocol core both MCP servers share (spec 4.9): a server is a definition (identity, instructions, tool
// table, allowed origins) and a caller; each POST carries one JSON-RPC message, answered as JSON, statelessly (no
// session id). protocol.ts has checked the message and a known method's params before it gets here, so what is
// left is the SDK server's dispatch, done here directly: building an SDK `Server` and transport for every request
// cost a large share of a tool call's time (docs/performance.md). The tests drive both servers with the SDK's own
// client (tests/api/*/mcp.test.ts), which holds the wire to the SDK's. The SDK's high-level `McpServer` was never
// used: its wire behaviour departs from the spec (tool errors as `isError` results rather than -32602,
// `listChanged` forced true).
import type { CallToolResult, InitializeResult } from "@modelcontextprotocol/sdk/types.js";
import { ApiError, describeErrorCode } from "../errors";
import { errorOutcome } from "../wire/error-outcome";
import type { RequestContext } from "../wire/request-context";
import { parseWith } from "../wire/validation";
import { jsonResponse } from "../wire/whole-body";
import { assertAllowedOrigin, assertProtocolVersion, isInitialize, JSON_RPC, JsonRpcError, jsonRpcErrorReply, PROTOCOL_VERSION, readMessage, SERVER_VERSION } from "./protocol";
import { mayCall, type McpTool, type ToolTable } from "./tools";

export interface McpServerDefinition<C> {
  /** `serverInfo.name`. */
  name: string;
  title: string;
  /** `instructions` of the `initialize` result: how a model should use the server. */
  instructions: string;
  tools: ToolTable<C>;
  /** Browser origins allowed to call (a request without Origin always may). */
  allowedOrigins: () => readonly string[];
  /** The scopes the caller's token carries, which open the tools with `access`; `null` on a server without credentials. */
  scopesOf: (caller: C) => ReadonlySet<string> | null;
  /** Records a call of a tool whose access is `audited`, whatever came of it. */
  audit?: (call: { caller: C; tool: McpTool<C>; arguments: Record<string, unknown>; outcome: AuditedOutcome }) => Promise<void>;
}

export type AuditedOutcome = "ok" | "insufficient_scope" | "invalid_arguments" | "failed";

export const CAPABILITIES = { tools: { listChanged: false } } as const;

/** What a GET on a server's URL says of it before any JSON-RPC: its identity and capabilities, and where it answers. */
export function probeOf<C>(definition: McpServerDefinition<C>, endpoint: string) {
  return {
    serverInfo: { name: definition.name, title: definition.title, version: SERVER_VERSION },
    protocolVersion: PROTOCOL_VERSION,
    capabilities: CAPABILITIES,
    transport: "streamable-http" as const,
    endpoint,
  };
}

export function initializeResult<C>(definition: McpServerDefinition<C>): InitializeResult {
  return {
    protocolVersion: PROTOCOL_VERSION,
    capabilities: CAPABILITIES,
    serverInfo: { name: definition.name, title: definition.title, version: SERVER_VERSION },
    instructions: definition.instructions,
  };
}

/** The arguments' validation failure as -32602, carrying the 422 detail (spec 7.4: `field`, `reason` per item). */
function invalidArguments(error: ApiError, tool: string): JsonRpcError {
  return new JsonRpcError(JSON_RPC.invalidParams, `Invalid arguments for ${tool}: ${error.message}`, {
    status: describeErrorCode(error.code, "public").status,
    code: error.code,
    detail: error.detail ?? [],
  });
}

/** A tool the token may not call: -32602 naming the scope that opens it (the tool is also absent from its `tools/list`). */
function missingScope(tool: McpTool<unknown>): JsonRpcError {
  const { scope, siteScope } = tool.access!;
  return new JsonRpcError(JSON_RPC.invalidParams, `The tool ${tool.name} needs the ${scope} scope (${siteScope} in the site scheme), which this token does not carry.`, {
    code: "insufficient_scope",
    scope,
  });
}

/** A fault, logged as the route builder logs any, in the words its envelope gives a caller and its correlation id. */
function loggedFault(error: unknown, context: RequestContext): string {
  const { body } = errorOutcome(error, context);
  const { message, correlation_id: correlationId } = (body as { error: { message: string; correlation_id: string } }).error;
  return `${message} Quote ${correlationId} to support.`;
}

async function callTool<C>(definition: McpServerDefinition<C>, params: { name: string; arguments?: Record<string, unknown> }, caller: C, context: RequestContext): Promise<CallToolResult> {
  const tool = definition.tools.find(params.name);
  if (!tool) {
    throw new JsonRpcError(JSON_RPC.invalidParams, `Unknown tool: ${params.name}. tools/list names the tools.`, { code: "mcp_tool_not_found", name: params.name });
  }
  context.logFields.mcp_tool = tool.name;
  const args = params.arguments ?? {};
  const audit = tool.access?.audited && definition.audit ? (outcome: AuditedOutcome) => definition.audit!({ caller, tool, arguments: args, outcome }) : async () => undefined;
  if (!mayCall(tool, definition.scopesOf(caller))) {
    await audit("insufficient_scope");
    throw missingScope(tool);
  }
  try {
    const input = parseWith(tool.input, args);
    const { text, structured } = await tool.run(input, caller);
    await audit("ok");
    return { content: [{ type: "text", text }], structuredContent: structured as Record<string, unknown>, isError: false };
  } catch (error) {
    if (error instanceof ApiError && (error.code === "validation_failed" || error.code === "unknown_field")) {
      await audit("invalid_arguments");
      throw invalidArguments(error, tool.name);
    }
    await audit("failed");
    // What the caller asked for does not exist (an unknown application, say) or is refused (the other
    // environment's): the tool's failed result, in its words, with the code its HTTP counterpart answers.
    if (error instanceof ApiError && describeErrorCode(error.code, "partner").status < 500) {
      return { content: [{ type: "text", text: `${tool.name} failed: ${error.message}` }], isError: true, _meta: { error_code: error.code } };
    }
    // A fault while running the tool is the tool's failed result (MCP: tool execution errors).
    return { content: [{ type: "text", text: `${tool.name} failed: ${loggedFault(error, context)}` }], isError: true };
  }
}

/** The result of a request of a method the servers answer; -32601 for any other, as the SDK answers it. */
async function resultOf<C>(definition: McpServerDefinition<C>, method: string, params: unknown, caller: C, context: RequestContext): Promise<unknown> {
  if (method === "initialize") return initializeResult(definition);
  if (method === "ping") return {};
  if (method === "tools/list") return { tools: definition.tools.listedFor(definition.scopesOf(caller)) };
  if (method === "tools/call") return callTool(definition, params as { name: string; arguments?: Record<string, unknown> }, caller, context);
  throw new JsonRpcError(JSON_RPC.methodNotFound, "Method not found");
}

/**
 * Answers one POST: the Origin, the message, the protocol version, then the method. A request gets its JSON-RPC
 * response (200, errors included); a notification or a response from the client gets 202 with no body.
 */
export async function answerMcpPost<C>(definition: McpServerDefinition<C>, input: { request: Request; body: unknown; caller: C; context: RequestContext }): Promise<Response> {
  const { request, body, caller, context } = input;
  assertAllowedOrigin(request, definition.allowedOrigins());
  const { message, params, reply } = readMessage(body);
  if (reply) return reply;
  if (!isInitialize(message)) assertProtocolVersion(request);
  if ("method" in message) context.logFields.mcp_method = message.method;
  if (!("method" in message) || !("id" in message)) return new Response(null, { status: 202 });
  try {
    return jsonResponse({ result: await resultOf(definition, message.method, params, caller, context), jsonrpc: "2.0", id: message.id });
  } catch (error) {
    if (error instanceof JsonRpcError) return jsonRpcErrorReply(message.id, error.code, error.message, error.data);
    // A fault outside a tool's run (its audit record, say).
    return jsonRpcErrorReply(message.id, JSON_RPC.internalError, `Internal error: ${loggedFault(error, context)}`);
  }
}

/**
 * A GET: the server's description as JSON, or 405 to an SDK client opening an event stream (`Accept:
 * text/event-stream`), since the servers send no server-initiated messages (MCP 2025-06-18, transports).
 */
export function assertNotOpeningStream(request: Request, allowedMethods: string): void {
  if (!(request.headers.get("accept") ?? "").includes("text/event-stream")) return;
  throw new ApiError("method_not_allowed", {
    message: "This MCP server sends no server-initiated messages, so there is no event stream to open: POST JSON-RPC requests instead.",
    headers: { Allow: allowedMethods },
  });
}
