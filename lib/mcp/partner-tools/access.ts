// Who calls the partner tools, and which scope opens each family of them (spec 5.2), in both spellings
// (docs/mcp.md has the table), so none can skip the check: a token without it neither sees the tool in
// `tools/list` nor may call it. The `account.read` tools read personal data, and every call of theirs is audited.
import type { Tenant } from "../../tenant";
import type { ToolAccess } from "../tools";

/**
 * Who calls the partner server, as plain data: the tenant the token acts for, the scopes it was granted (which
 * open the tools), and the OAuth client and token id an audited call's row names.
 */
export interface PartnerCaller {
  tenant: Tenant;
  /** The request's time on the tenant's clock: what the tools count "today" and "the last days" from. */
  now: Date;
  scopes: ReadonlySet<string>;
  clientId: string;
  /** The token's `jti`. */
  tokenId: string;
}

export const ACCESS = {
  decisioning: { scope: "mcp.read", siteScope: "decisioning:read", audited: false },
  applications: { scope: "account.read", siteScope: "applications:read", audited: true },
  customers: { scope: "account.read", siteScope: "customers:read", audited: true },
  loans: { scope: "account.read", siteScope: "loans:read", audited: true },
  ops: { scope: "ops.read", siteScope: "ops:read", audited: false },
  metrics: { scope: "owner.read", siteScope: "metrics:read", audited: false },
  config: { scope: "owner.read", siteScope: "config:read", audited: false },
} as const satisfies Record<string, ToolAccess>;
