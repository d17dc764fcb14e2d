// Who may do what in the partner dashboard (docs/dashboard.md, "Roles"): one table, read by the pages to hide the
// controls a role lacks and by every dashboard action to refuse them (403 `role_forbidden`).
import { ApiError } from "../errors";

export const PROJECT_ROLES = ["owner", "developer", "viewer"] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];

export const DASHBOARD_ACTIONS = [
  "read",
  "manage_webhooks",
  "create_key",
  "set_key_origins",
  "roll_key",
  "revoke_key",
  "revoke_tokens",
  "manage_team",
  "release_decision",
  "read_audit_log",
  "manage_sub_accounts",
] as const;
export type DashboardAction = (typeof DASHBOARD_ACTIONS)[number];

// Viewers read; developers also manage webhooks, create keys, say which pages may use a publishable key and create
// sub-accounts (the API's `accounts.manage`, beta); owners also hold everything that cannot be undone
// or that changes who may act (rolling and revoking keys, revoking tokens, the team, releasing a locked decision),
// and the audit log of who did those things.
const ALLOWED: Record<ProjectRole, ReadonlySet<DashboardAction>> = {
  viewer: new Set(["read"]),
  developer: new Set(["read", "manage_webhooks", "create_key", "set_key_origins", "manage_sub_accounts"]),
  owner: new Set(DASHBOARD_ACTIONS),
};

export function can(role: ProjectRole, action: DashboardAction): boolean {
  return ALLOWED[role].has(action);
}

export function assertCan(role: ProjectRole, action: DashboardAction): void {
  if (!can(role, action)) throw new ApiError("role_forbidden");
}
