// Who may see a project's dashboard: its team's members only. To anyone else the project does not exist (404), so
// its id cannot be probed; a member's role then decides each action (lib/team/permissions.ts).
import { ApiError, notFound } from "../errors";
import { assertCan, type DashboardAction, type ProjectRole } from "../team/permissions";
import { roleOf } from "../team/service";
import type { Tenant } from "../tenant";
import { dashboardParamsSchema, type DashboardParams } from "./schemas";

export interface DashboardMember {
  userId: string;
  role: ProjectRole;
  tenant: Tenant;
}

/** The signed-in person as a member of the project in the address, allowed `action`; else 401, 404 or 403. */
export async function dashboardMemberOrThrow(options: { userId: string | null; params: DashboardParams; action: DashboardAction }): Promise<DashboardMember> {
  const { userId, params, action } = options;
  if (!userId) throw new ApiError("unauthenticated", { message: "Sign in to use the dashboard." });
  const role = await roleOf({ projectId: params.project, userId });
  if (!role) throw notFound("project", params.project);
  assertCan(role, action);
  return { userId, role, tenant: { projectId: params.project, environment: params.environment } };
}

/** The project and environment of an address under /dashboard/{project}/{environment}/ (its other parameters aside); else 404. */
export function dashboardParamsOf(params: unknown): DashboardParams {
  const { project, environment } = (params ?? {}) as Record<string, unknown>;
  const parsed = dashboardParamsSchema.safeParse({ project, environment });
  if (!parsed.success) throw notFound("project");
  return parsed.data;
}
