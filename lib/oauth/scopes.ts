// The partner scopes (spec 5.2). Each route declares the one it needs; a project is granted a set and a token
// carries a subset. Where the spec names no scope (payments, identity, events, webhooks) the choice is ours and
// documented in docs/authentication.md.
export const PARTNER_SCOPES = [
  "mcp.read",
  "apply:write",
  "applications:read",
  "applications:write",
  "decisions:read",
  "accounts.read",
  "accounts.manage",
  "payments:read",
  "payments:write",
  "identity:read",
  "identity:write",
  "events:read",
  "webhooks:manage",
  "partner:manage",
] as const;

export type PartnerScope = (typeof PARTNER_SCOPES)[number];

export function isPartnerScope(value: string): value is PartnerScope {
  return (PARTNER_SCOPES as readonly string[]).includes(value);
}
