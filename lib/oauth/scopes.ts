// The partner scopes (spec 5.2). Each route declares the one it needs; a project is granted a set and a token
// carries a subset. Where the spec names no scope (payments, identity, events, webhooks) the choice is ours and
// documented in docs/authentication.md.

/** Every partner scope; a new project is granted all but the operator's (below) unless created with others. */
export const PARTNER_SCOPES = [
  "mcp.read",
  "account.read",
  "ops.read",
  "owner.read",
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

/**
 * Partner scopes granted only to a project created with them: `ops.read` opens `enquiry_list`, whose counts are
 * the platform's enquiries and complaints, not any project's (spec 5.2 puts it beside `queue_status`).
 */
const OPERATOR_SCOPES: readonly PartnerScope[] = ["ops.read"];

/** What a new project is granted unless it is created with other scopes, in both environments. */
export const DEFAULT_SCOPES: readonly PartnerScope[] = PARTNER_SCOPES.filter((scope) => !OPERATOR_SCOPES.includes(scope));

/**
 * The site OAuth scheme's spellings of the MCP scopes (spec 5.2, colon form), each opening the partner MCP
 * server's tools it names (lib/mcp/partner-tools/access.ts; docs/mcp.md has the table). A project is granted them only
 * when created with them; `applications:read` is in both sets.
 */
export const SITE_MCP_SCOPES = ["mcp:read", "customers:read", "loans:read", "ops:read", "decisioning:read", "metrics:read", "config:read"] as const;

/** What a project may be granted, and so what a token may carry. */
export const GRANTABLE_SCOPES = [...PARTNER_SCOPES, ...SITE_MCP_SCOPES] as const;

export type PartnerScope = (typeof PARTNER_SCOPES)[number];
export type GrantableScope = (typeof GRANTABLE_SCOPES)[number];

/**
 * Scopes another spelling stands for at a route: the MCP floor is `mcp.read` on the partner plane and `mcp:read`
 * in the site scheme (spec 5.2).
 */
export const SCOPE_SPELLINGS: Partial<Record<PartnerScope, readonly GrantableScope[]>> = { "mcp.read": ["mcp:read"] };
