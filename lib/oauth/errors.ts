// Errors of the OAuth endpoints, in RFC 6749 §5.2 form (`error`, `error_description`), not the API envelope.

export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "invalid_scope"
  | "key_revoked"
  | "account_suspended"
  | "rate_limited"
  | "server_error"
  | "temporarily_unavailable";

const STATUS: Record<OAuthErrorCode, number> = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
  key_revoked: 401,
  account_suspended: 403,
  rate_limited: 429,
  server_error: 500,
  temporarily_unavailable: 503,
};

export class OAuthError extends Error {
  override name = "OAuthError";
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: OAuthErrorCode,
    readonly description: string,
    headers: Record<string, string> = {},
  ) {
    super(description);
    this.status = STATUS[code];
    // RFC 6749 §5.2: a 401 to a client that tried HTTP authentication names the scheme it should use.
    this.headers = code === "invalid_client" ? { "WWW-Authenticate": 'Basic realm="oauth"', ...headers } : headers;
  }
}

export function renderOAuthError(error: OAuthError): { status: number; body: { error: string; error_description: string }; headers: Record<string, string> } {
  return {
    status: error.status,
    body: { error: error.code, error_description: error.description },
    headers: { ...error.headers, "Cache-Control": "no-store", Pragma: "no-cache" },
  };
}
