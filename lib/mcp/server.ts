// The protocol core both MCP servers share (spec 4.9): a server is a definition (identity, instructions, tool
// table, allowed origins) and a caller; each POST gets a fresh SDK `Server` and a stateless web-standard
// transport (the SDK refuses to reuse one), JSON replies, no session id. Only the handler the request's method
// needs is built. The SDK's high-level `McpServer` is not used: its wire behaviour departs from the spec (tool
// errors as `isError` results rather than -32602, `listChanged` forced true).
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, InitializeRequestSchema, ListToolsRequestSchema, type CallToolResult, type InitializeResult, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { ApiError, describeErrorCode } from "../errors";
import { errorOutcome } from "../wire/error-outcome";
import type { RequestContext } from "../wire/request-context";
import { parseWith } from "../wire/validation";
import { assertAllowedOrigin, assertProtocolVersion, isInitialize, JSON_RPC, JsonRpcError, PROTOCOL_VERSION, readMessage, SERVER_VERSION } from "./protocol";
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

/** The servers send no elicitation requests, so nothing needs the SDK's default validator (a new Ajv per server). */
const NO_ELICITATION: jsonSchemaValidator = {
  getValidator() {
    throw new Error("The MCP servers send no elicitation requests.");
  },
};

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
    // A fault while running the tool is the tool's failed result (MCP: tool execution errors), logged with the
    // correlation id it names, as the route builder logs any fault.
    const { body } = errorOutcome(error, context);
    const { message, correlation_id: correlationId } = (body as { error: { message: string; correlation_id: string } }).error;
    return { content: [{ type: "text", text: `${tool.name} failed: ${message} Quote ${correlationId} to support.` }], isError: true };
  }
}

/** A fresh SDK server with only the handler `message` needs: an unknown method gets -32601 from the SDK itself. */
function serverFor<C>(definition: McpServerDefinition<C>, message: JSONRPCMessage, caller: C, context: RequestContext): Server {
  const server = new Server({ name: definition.name, title: definition.title, version: SERVER_VERSION }, { capabilities: CAPABILITIES, jsonSchemaValidator: NO_ELICITATION });
  const method = "method" in message ? message.method : undefined;
  if (method === "initialize") server.setRequestHandler(InitializeRequestSchema, () => initializeResult(definition));
  if (method === "tools/list") server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: definition.tools.listedFor(definition.scopesOf(caller)) }));
  if (method === "tools/call") server.setRequestHandler(CallToolRequestSchema, (request) => callTool(definition, request.params, caller, context));
  return server;
}

const TRANSPORT_ACCEPT = "application/json, text/event-stream";

/**
 * The request as the transport reads it: we always answer JSON, so a client that accepts JSON but did not also
 * name event streams (as the transport demands) is served, and any JSON media type the route accepted is JSON.
 */
function transportRequest(request: Request): Request {
  const accept = request.headers.get("accept") ?? "";
  if (accept.includes("application/json") && accept.includes("text/event-stream") && request.headers.get("content-type") === "application/json") return request;
  const headers = new Headers(request.headers);
  headers.set("accept", TRANSPORT_ACCEPT);
  headers.set("content-type", "application/json");
  return new Request(request.url, { method: "POST", headers });
}

/**
 * Answers one POST: the Origin, the message, the protocol version, then the SDK. A request gets its JSON-RPC
 * response (200, errors included); a notification or a response from the client gets 202 with no body.
 */
export async function answerMcpPost<C>(definition: McpServerDefinition<C>, input: { request: Request; body: unknown; caller: C; context: RequestContext }): Promise<Response> {
  const { request, body, caller, context } = input;
  assertAllowedOrigin(request, definition.allowedOrigins());
  const { message, reply } = readMessage(body);
  if (reply) return reply;
  if (!isInitialize(message)) assertProtocolVersion(request);
  if ("method" in message) context.logFields.mcp_method = message.method;
  const server = serverFor(definition, message, caller, context);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  return transport.handleRequest(transportRequest(request), { parsedBody: message });
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
