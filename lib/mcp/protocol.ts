// The wire rules of the MCP servers (spec 4.9, 7.4) that hold before the SDK sees a message: one JSON-RPC 2.0
// message per request, each error a JSON-RPC error in a 200 (spec 4.1), the protocol revision and its header,
// and the Origin check. The SDK's transport answers these cases with other statuses and codes (400 and -32700
// for a malformed message, for one), so they are settled here and the SDK only ever gets a well-formed message.
import { CallToolRequestSchema, InitializeRequestSchema, JSONRPCMessageSchema, ListToolsRequestSchema, PingRequestSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import { ApiError } from "../errors";
import { jsonResponse } from "../wire/whole-body";

/** The one protocol revision the servers speak (spec 9); answered to every `initialize`, whatever it proposes. */
export const PROTOCOL_VERSION = "2025-06-18" as const;
/** What a request without MCP-Protocol-Version is taken to speak (MCP 2025-06-18, transports: backwards compatibility). */
export const ASSUMED_PROTOCOL_VERSION = "2025-03-26";
/** The revisions a request's MCP-Protocol-Version may name: ours, and the one a header-less client is assumed to speak. */
const ACCEPTED_PROTOCOL_VERSIONS: readonly string[] = [PROTOCOL_VERSION, ASSUMED_PROTOCOL_VERSION];
export const SERVER_VERSION = "1.0.0";

/** JSON-RPC 2.0 error codes (spec 7.4). */
export const JSON_RPC = { parseError: -32700, invalidRequest: -32600, methodNotFound: -32601, invalidParams: -32602, internalError: -32603 } as const;

type RequestId = string | number | null;

/** An error a request handler throws to answer with this JSON-RPC error (the SDK sends `code`, `message`, `data`). */
export class JsonRpcError extends Error {
  override name = "JsonRpcError";
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** A JSON-RPC error reply: always 200 (spec 4.1); the status is for transport failures only. */
export function jsonRpcErrorReply(id: RequestId, code: number, message: string, data?: unknown): Response {
  return jsonResponse({ jsonrpc: "2.0", id, error: { code, message, ...(data === undefined ? {} : { data }) } }, { status: 200 });
}

/** The `params` each method this layer knows must carry, checked before a handler is built for them. */
const PARAMS_OF: Record<string, z.ZodType> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  "tools/list": ListToolsRequestSchema,
  "tools/call": CallToolRequestSchema,
};

/** The message, and for a request of a method this layer knows, its `params` as that method's schema reads them. */
export type ReadMessage = { message: JSONRPCMessage; params?: unknown; reply?: undefined } | { message?: undefined; params?: undefined; reply: Response };

function idOf(body: unknown): RequestId {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id)) ? id : null;
}

/**
 * The one JSON-RPC message of a request's body (already parsed as JSON by the route builder; `undefined` when
 * empty), or the JSON-RPC error that answers it: -32700 for no body, -32600 for a batch (revision 2025-06-18
 * has none) or anything that is not a request, notification or response, -32602 for a known method's params.
 */
export function readMessage(body: unknown): ReadMessage {
  if (body === undefined) return { reply: jsonRpcErrorReply(null, JSON_RPC.parseError, "Parse error: the request has no body; send one JSON-RPC message.") };
  if (Array.isArray(body)) {
    return { reply: jsonRpcErrorReply(null, JSON_RPC.invalidRequest, `Invalid Request: batches are not part of protocol revision ${PROTOCOL_VERSION}; send one message per request.`) };
  }
  const parsed = JSONRPCMessageSchema.safeParse(body);
  if (!parsed.success) {
    return {
      reply: jsonRpcErrorReply(idOf(body), JSON_RPC.invalidRequest, 'Invalid Request: expected a JSON-RPC 2.0 object with "jsonrpc": "2.0", a "method" and, for a request, an "id" (a string or an integer).'),
    };
  }
  const message = parsed.data;
  if ("method" in message && "id" in message) {
    const check = PARAMS_OF[message.method]?.safeParse(message);
    if (check && !check.success) {
      const issues = check.error.issues.map((issue) => ({ field: issue.path.map(String).join("."), message: issue.message }));
      return { reply: jsonRpcErrorReply(message.id, JSON_RPC.invalidParams, `Invalid params for ${message.method}.`, { issues }) };
    }
    if (check) return { message, params: (check.data as { params?: unknown }).params };
  }
  return { message };
}

export function isInitialize(message: JSONRPCMessage): boolean {
  return "method" in message && message.method === "initialize";
}

/**
 * MCP-Protocol-Version on every request after `initialize` (which negotiates in its body instead): absent, the
 * client is taken to speak 2025-03-26; a revision we do not speak is 400 (MCP 2025-06-18, transports).
 */
export function assertProtocolVersion(request: Request): void {
  const version = request.headers.get("mcp-protocol-version");
  if (version === null || ACCEPTED_PROTOCOL_VERSIONS.includes(version)) return;
  throw new ApiError("mcp_protocol_version_unsupported", {
    message: `MCP-Protocol-Version ${version} is not supported; this server speaks ${PROTOCOL_VERSION} (initialize negotiates it).`,
  });
}

/**
 * A browser's Origin must be one of ours (MCP 2025-06-18, transports: against DNS rebinding); a request without
 * one (an agent, a server, curl) is fine. The request's own Host is never trusted for this: a rebound name
 * makes it match the attacker's page.
 */
export function assertAllowedOrigin(request: Request, allowedOrigins: readonly string[]): void {
  const origin = request.headers.get("origin");
  if (origin === null || allowedOrigins.includes(origin)) return;
  throw new ApiError("origin_not_allowed", { message: `Requests from the origin ${origin} are not accepted by this MCP server.` });
}
