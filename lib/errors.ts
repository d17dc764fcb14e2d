// The one error catalogue: every code the platform answers with (spec 7.2 and 7.3, the OAuth codes of RFC 6749
// §5.2 and spec 5.2), its status, type and whether a retry may succeed, and the one renderer of each error
// shape: the envelope of spec 7.1, the OAuth form, and the site's `{ok: false, error}` (spec 7.4). Domain code
// throws `ApiError`; the route builder renders it. Nothing else maps a code to a status.
//
// Choices where the spec is silent or disagrees with itself:
// - `payload_too_large`: 7.2 (partner ring) says 413 for an oversize body; 7.3 says 422 for an oversize `fields`
//   object on public intake. The partner and site rings use 413; the public ring uses 422, and a whole public body
//   over the cap is `request_body_too_large` (422), as 7.3 describes.
// - Codes of 7.2 that 7.3 gives no `type`: authentication failures are `authentication_error`, unexpected and
//   availability faults `api_error`, everything else `invalid_request_error`. The OAuth codes follow the same rule.
// - `internal_error` (7.2) is used on every ring for unexpected faults; `server_error` (7.3) is kept for clients
//   that know it, and is what an OAuth endpoint answers for the same fault.
// - `retryable` follows 7.2's retry column: 429, 500 and 503 are retryable, as is `idempotency_key_in_progress`
//   (the first request will finish); everything else is not.

export type ErrorType = "authentication_error" | "invalid_request_error" | "rate_limit_error" | "api_error";
export type Ring = "partner" | "public" | "site";
/**
 * `envelope`: spec 7.1. `oauth`: RFC 6749 §5.2 (`error`, `error_description`). `site`: `{ok: false, error}` (7.4).
 * `json-rpc`: the MCP servers (7.4): a body that is not JSON is a JSON-RPC parse error; anything else that stops
 * a request before the JSON-RPC layer (origin, protocol version, rate limit) is the envelope with its status.
 * `page`: an HTML page a person reads, for what a browser posts as a plain form (the payment page's bank).
 */
export type ErrorFormat = "envelope" | "oauth" | "site" | "json-rpc" | "page";

interface CatalogueEntry {
  status: number;
  type: ErrorType;
  retryable: boolean;
  message: string;
  /** Status on the public ring where 7.3 differs from 7.2. */
  publicStatus?: number;
  /** A code of the OAuth endpoints' own vocabulary (RFC 6749 §5.2, spec 5.2): answered as itself in OAuth form. */
  oauth?: true;
}

const auth = (status: number, message: string): CatalogueEntry => ({ status, type: "authentication_error", retryable: false, message });
const invalid = (status: number, message: string): CatalogueEntry => ({ status, type: "invalid_request_error", retryable: false, message });
const fault = (status: number, message: string): CatalogueEntry => ({ status, type: "api_error", retryable: true, message });
const oauth = (entry: CatalogueEntry): CatalogueEntry => ({ ...entry, oauth: true });

export const ERROR_CATALOGUE = {
  // Request shape (7.3)
  invalid_json: invalid(400, "The request body is not valid JSON."),
  missing_content_type: invalid(400, "The request has a body but no Content-Type; send application/json."),
  unsupported_media_type: invalid(415, "The request Content-Type is not supported; send application/json."),
  unknown_field: invalid(400, "The request has a field this endpoint does not accept."),
  validation_failed: invalid(422, "The request failed validation; see detail for each field."),
  invalid_value_type: invalid(422, "A field has a value of the wrong type."),
  payload_too_large: { ...invalid(413, "The request body exceeds the size limit."), publicStatus: 422 },
  request_body_too_large: invalid(422, "The request body exceeds the size limit."),
  route_not_found: invalid(404, "No endpoint matches this path."),
  method_not_allowed: invalid(405, "This HTTP method is not allowed on this path."),
  // Resources and state (7.2)
  not_found: invalid(404, "No such object."),
  resource_not_found: invalid(404, "A referenced resource does not exist."),
  conflict: invalid(409, "The request conflicts with the current state of the resource."),
  decision_locked: invalid(423, "The decision is locked."),
  consent_required: invalid(422, "Consent has not been given."),
  // Site forms (spec 4.1's "403 invalid or missing CSRF token")
  csrf_token_invalid: invalid(403, "The form's security token is missing or does not match; go back, reload the page and try again."),
  // Idempotency (4.12, 7.3)
  idempotency_key_malformed: invalid(400, "Idempotency-Key must be 1 to 255 printable ASCII characters."),
  idempotency_key_reused: invalid(409, "This Idempotency-Key was used with a different request."),
  idempotency_key_in_progress: { ...invalid(409, "A request with this Idempotency-Key is still being processed."), retryable: true },
  // Authentication and authorisation (7.2, 7.3)
  unauthenticated: auth(401, "No valid credential was presented."),
  token_expired: auth(401, "The access token has expired."),
  token_revoked: auth(401, "The credential has been revoked."),
  key_revoked: oauth(auth(401, "The API key has been revoked.")),
  invalid_api_key: auth(401, "The credential is not valid."),
  missing_api_key: auth(401, "No credential was presented."),
  environment_mismatch: auth(401, "The credential belongs to the other environment."),
  audience_mismatch: auth(401, "The token audience does not match this API."),
  sso_ticket_expired: auth(401, "The sign-in ticket has expired."),
  insufficient_scope: auth(403, "The access token lacks the scope this endpoint requires."),
  scope_not_granted: auth(403, "The token is missing a required scope."),
  capability_denied: auth(403, "A staff capability or feature flag is required."),
  account_suspended: oauth(auth(403, "The partner account is suspended.")),
  // The partner dashboard (docs/dashboard.md): the person's role in the project does not allow the action.
  role_forbidden: auth(403, "Your role in this project does not allow this."),
  // The OAuth endpoints (RFC 6749 §5.2, spec 5.2)
  invalid_request: oauth(invalid(400, "The request is missing a parameter or is malformed.")),
  invalid_client: oauth(auth(401, "Client authentication failed.")),
  invalid_grant: oauth(invalid(400, "The grant is invalid, expired or revoked.")),
  unauthorized_client: oauth(invalid(400, "The client may not use this grant type.")),
  unsupported_grant_type: oauth(invalid(400, "The grant type is not supported.")),
  invalid_scope: oauth(invalid(400, "The requested scope is invalid or not granted.")),
  // Limits
  rate_limited: oauth({ status: 429, type: "rate_limit_error", retryable: true, message: "Too many requests; retry after the indicated delay." }),
  // Public intake (7.3)
  cms_page_not_found: invalid(404, "No such page."),
  form_required: invalid(422, "The `form` field is required."),
  invalid_email: invalid(422, "The email address is not valid."),
  invalid_dept: invalid(422, "The department is not recognised."),
  support_message_too_long: invalid(422, "The message is too long."),
  support_session_closed: invalid(409, "This support session is closed."),
  // Webhooks (7.3)
  webhook_endpoint_limit: invalid(422, "The webhook endpoint limit for this project has been reached."),
  webhook_endpoint_url_invalid: invalid(422, "The webhook URL is not acceptable."),
  webhook_event_unknown: invalid(422, "An enabled event type is not recognised."),
  webhook_signature_invalid: invalid(400, "The webhook signature did not verify."),
  webhook_signature_missing: invalid(400, "The webhook has no signature header."),
  signature_invalid: invalid(400, "The request signature did not verify."),
  // MCP (7.3)
  mcp_invalid_params: invalid(422, "The tool parameters failed validation."),
  mcp_method_not_found: invalid(404, "The JSON-RPC method is not recognised."),
  mcp_tool_not_found: invalid(404, "The tool is not recognised."),
  mcp_protocol_version_unsupported: invalid(400, "The MCP-Protocol-Version header names a protocol revision this server does not speak."),
  origin_not_allowed: invalid(403, "Requests from this Origin are not accepted."),
  // Faults
  internal_error: fault(500, "An unexpected error occurred."),
  server_error: oauth(fault(500, "An unexpected error occurred.")),
  service_unavailable: fault(503, "The service is temporarily unavailable."),
  temporarily_unavailable: oauth(fault(503, "The service is briefly unavailable.")),
} satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export interface ErrorDetail {
  field?: string;
  reason: string;
  message?: string;
}

export interface ApiErrorOptions {
  message?: string;
  detail?: ErrorDetail[];
  /** Known wait before a retry may succeed; rendered as `retry_after_ms` and `Retry-After` (whole seconds). */
  retryAfterMs?: number;
  headers?: Record<string, string>;
}

/**
 * The catalogue's message, except for a validation failure whose detail items all say what is wrong: then
 * their sentences, so a client that shows only `message` still shows which field to fix and how.
 */
function defaultMessage(code: ErrorCode, detail: readonly ErrorDetail[] | undefined): string {
  const sentences = (detail ?? []).map((item) => item.message).filter((message): message is string => Boolean(message));
  if (code === "validation_failed" && sentences.length > 0 && sentences.length === detail!.length) return sentences.join(" ");
  return ERROR_CATALOGUE[code].message;
}

/** The one error class: a catalogue code, a public message and optional detail. */
export class ApiError extends Error {
  override name = "ApiError";
  readonly code: ErrorCode;
  readonly detail?: ErrorDetail[];
  readonly retryAfterMs?: number;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, options: ApiErrorOptions = {}) {
    super(options.message ?? defaultMessage(code, options.detail));
    this.code = code;
    this.detail = options.detail;
    this.retryAfterMs = options.retryAfterMs;
    this.headers = options.headers ?? {};
  }

  /** Whether retrying the same request may succeed (spec 7.1 `retryable`). */
  get retryable(): boolean {
    return ERROR_CATALOGUE[this.code].retryable;
  }
}

/**
 * The one way to say an object by id is not there (or not the caller's, which reads the same): 404 `not_found`,
 * "No such <kind>: <id>.". An id the caller named in a body `field` is `resource_not_found` on that field. A
 * capability token (a payment link's) names nothing and is never echoed: pass no id. Where a person rather than
 * an integrator reads the answer (an applicant's link), `message` says it in their words.
 */
export function notFound(kind: string, id?: string, options: { field?: string; message?: string } = {}): ApiError {
  const message = options.message ?? (id === undefined ? `No such ${kind}.` : `No such ${kind}: ${id}.`);
  if (options.field === undefined) return new ApiError("not_found", { message });
  return new ApiError("resource_not_found", { message, detail: [{ field: options.field, reason: "not_found", message }] });
}

export function describeErrorCode(code: ErrorCode, ring: Ring): { status: number; type: ErrorType; retryable: boolean } {
  const entry: CatalogueEntry = ERROR_CATALOGUE[code];
  const status = ring === "public" && entry.publicStatus !== undefined ? entry.publicStatus : entry.status;
  return { status, type: entry.type, retryable: entry.retryable };
}

export interface ErrorEnvelope {
  error: {
    code: ErrorCode;
    type: ErrorType;
    message: string;
    detail?: ErrorDetail[];
    correlation_id: string;
    retryable: boolean;
    retry_after_ms?: number;
  };
}

export interface OAuthErrorBody {
  error: ErrorCode;
  error_description: string;
}

export interface SiteErrorBody {
  ok: false;
  error: string;
}

export interface RenderedError<Body> {
  /** The code the client is told (an OAuth endpoint answers in its own vocabulary). */
  code: ErrorCode;
  status: number;
  body: Body;
  headers: Record<string, string>;
}

/** `Retry-After` is whole seconds, at least one. */
function retryAfterSeconds(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 1000));
}

function retryHeaders(error: ApiError): Record<string, string> {
  return error.retryable && error.retryAfterMs !== undefined ? { "Retry-After": String(retryAfterSeconds(error.retryAfterMs)) } : {};
}

/** The envelope of spec 7.1 and the headers that go with it (without the request id, which the route adds). */
export function renderEnvelope(error: ApiError, correlationId: string, ring: Ring): RenderedError<ErrorEnvelope> {
  const { status, type, retryable } = describeErrorCode(error.code, ring);
  const body: ErrorEnvelope = {
    error: {
      code: error.code,
      type,
      message: error.message,
      ...(error.detail && error.detail.length > 0 ? { detail: error.detail } : {}),
      correlation_id: correlationId,
      retryable,
    },
  };
  const retry = retryHeaders(error);
  if (retry["Retry-After"]) body.error.retry_after_ms = Number(retry["Retry-After"]) * 1000;
  return { code: error.code, status, body, headers: { ...error.headers, ...retry, "X-Service-Correlation-Id": correlationId } };
}

/**
 * A code outside the OAuth vocabulary in that vocabulary's terms: faults become `server_error` or
 * `temporarily_unavailable`, anything else the client sent wrong `invalid_request` (naming the field).
 */
function asOAuthError(error: ApiError): ApiError {
  if (ERROR_CATALOGUE[error.code].oauth) return error;
  const status = ERROR_CATALOGUE[error.code].status;
  if (status === 503) return new ApiError("temporarily_unavailable", { message: "The service is briefly unavailable; retry shortly.", retryAfterMs: error.retryAfterMs });
  if (status >= 500) return new ApiError("server_error");
  const field = error.detail?.[0]?.field;
  return new ApiError("invalid_request", { message: field && !error.message.includes(field) ? `${error.message} (${field})` : error.message });
}

/** RFC 6749 §5.2: `error` and `error_description`, never cached. */
export function renderOAuthError(thrown: ApiError, correlationId: string): RenderedError<OAuthErrorBody> {
  const error = asOAuthError(thrown);
  // RFC 6749 §5.2: a 401 to a client that tried HTTP authentication names the scheme it should use.
  const challenge: Record<string, string> = error.code === "invalid_client" ? { "WWW-Authenticate": 'Basic realm="oauth"' } : {};
  return {
    code: error.code,
    status: ERROR_CATALOGUE[error.code].status,
    body: { error: error.code, error_description: error.message },
    headers: { ...challenge, ...error.headers, ...retryHeaders(error), "Cache-Control": "no-store", Pragma: "no-cache", "X-Service-Correlation-Id": correlationId },
  };
}

/** The site endpoints' shape (spec 7.4): `{ok: false, error}` with the message, and the catalogue's status. */
export function renderSiteError(error: ApiError, correlationId: string): RenderedError<SiteErrorBody> {
  return {
    code: error.code,
    status: describeErrorCode(error.code, "site").status,
    body: { ok: false, error: error.message },
    headers: { ...error.headers, ...retryHeaders(error), "X-Service-Correlation-Id": correlationId },
  };
}

/** JSON-RPC's parse error (-32700), which travels in a 200 as every JSON-RPC error does (spec 4.1, 7.4). */
export interface JsonRpcParseErrorBody {
  jsonrpc: "2.0";
  id: null;
  error: { code: -32700; message: string };
}

export function renderJsonRpcError(error: ApiError, correlationId: string, ring: Ring): RenderedError<JsonRpcParseErrorBody | ErrorEnvelope> {
  if (error.code !== "invalid_json") return renderEnvelope(error, correlationId, ring);
  return {
    code: error.code,
    status: 200,
    body: { jsonrpc: "2.0", id: null, error: { code: -32700, message: `Parse error: ${error.message}` } },
    headers: { "X-Service-Correlation-Id": correlationId },
  };
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);

/** An error page's policy: nothing runs or loads but its own inline style, and nobody may frame it. */
export const ERROR_PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** What a person reads for a code: a heading and what to do; the catalogue's message where it is written for them. */
function pageWording(error: ApiError): { heading: string; text: string } {
  if (error.code === "rate_limited") {
    const seconds = error.retryAfterMs === undefined ? 60 : retryAfterSeconds(error.retryAfterMs);
    const wait = seconds === 1 ? "1 second" : `${seconds} seconds`;
    return { heading: "Too many requests", text: `There have been too many requests from your connection. Wait ${wait}, then reload the page.` };
  }
  if (error.code === "not_found") return { heading: "Page not found", text: "This link is not valid. Check the address, or ask whoever sent it for a new one." };
  if (ERROR_CATALOGUE[error.code].status >= 500) return { heading: "Sorry, there is a problem", text: "Try again in a few minutes." };
  return { heading: "Sorry, that did not work", text: error.message };
}

/** An HTML page with the catalogue's status, for a person whose browser posted a form (format `page`). */
export function renderErrorPage(error: ApiError, correlationId: string): RenderedError<string> {
  const { heading, text } = pageWording(error);
  const body = `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${escapeHtml(heading)} · Lending Platform</title>
<style>body{font-family:system-ui,sans-serif;margin:0 auto;max-width:38rem;padding:2rem 1rem;line-height:1.5;color:#0b0c0c}</style></head>
<body><main><h1>${escapeHtml(heading)}</h1><p>${escapeHtml(text)}</p><p>Reference: ${correlationId}</p></main></body></html>
`;
  return {
    code: error.code,
    status: describeErrorCode(error.code, "site").status,
    body,
    headers: {
      ...error.headers,
      ...retryHeaders(error),
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": ERROR_PAGE_POLICY,
      "X-Content-Type-Options": "nosniff",
      "X-Service-Correlation-Id": correlationId,
    },
  };
}

export function renderError(error: ApiError, options: { format: ErrorFormat; ring: Ring; correlationId: string }): RenderedError<unknown> {
  if (options.format === "page") return renderErrorPage(error, options.correlationId);
  if (options.format === "oauth") return renderOAuthError(error, options.correlationId);
  if (options.format === "json-rpc") return renderJsonRpcError(error, options.correlationId, options.ring);
  if (options.format === "site") return renderSiteError(error, options.correlationId);
  return renderEnvelope(error, options.correlationId, options.ring);
}
