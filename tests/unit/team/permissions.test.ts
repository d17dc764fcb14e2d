// The dashboard's one permission table: what each role may do.
import { describe, expect, it } from "vitest";
import { ApiError, describeErrorCode } from "@/lib/errors";
import { assertCan, can, DASHBOARD_ACTIONS, PROJECT_ROLES, type DashboardAction, type ProjectRole } from "@/lib/team/permissions";

const EXPECTED: Record<ProjectRole, DashboardAction[]> = {
  viewer: ["read"],
  developer: ["read", "manage_webhooks", "create_key", "set_key_origins", "manage_sub_accounts"],
  owner: ["read", "manage_webhooks", "create_key", "set_key_origins", "roll_key", "revoke_key", "revoke_tokens", "manage_team", "release_decision", "read_audit_log", "manage_sub_accounts"],
};

describe("can(role, action)", () => {
  for (const role of PROJECT_ROLES) {
    it(`lets a ${role} do exactly ${EXPECTED[role].join(", ")}`, () => {
      expect(DASHBOARD_ACTIONS.filter((action) => can(role, action))).toEqual(EXPECTED[role]);
    });
  }

  it("gives each role everything the role below it has", () => {
    for (const action of DASHBOARD_ACTIONS) {
      if (can("viewer", action)) expect(can("developer", action)).toBe(true);
      if (can("developer", action)) expect(can("owner", action)).toBe(true);
    }
  });

  it("refuses what a role lacks with 403 role_forbidden", () => {
    expect(() => assertCan("owner", "revoke_key")).not.toThrow();
    let refused: unknown;
    try {
      assertCan("developer", "revoke_key");
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe("role_forbidden");
    expect(describeErrorCode((refused as ApiError).code, "site").status).toBe(403);
  });
});
