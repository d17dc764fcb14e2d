// What every dashboard page shows around its own content: the person's projects (for the switcher), the project
// and environment in the address, what their role lets them do there, and whether its beta sections exist.
import { readProjectState } from "../projects/project-state";
import { can, DASHBOARD_ACTIONS, type DashboardAction, type ProjectRole } from "../team/permissions";
import { membershipsOf } from "../team/service";
import type { DashboardParams } from "./schemas";

export interface DashboardView {
  userId: string;
  projects: Array<{ id: string; name: string; role: ProjectRole }>;
  current: { id: string; name: string; role: ProjectRole; environment: DashboardParams["environment"] };
  allowed: Record<DashboardAction, boolean>;
  /** Whether the project has the `beta` capability: its Sub-accounts, Introductions and Payouts sections exist only then. */
  beta: boolean;
}

/** The view, or null when the person is not a member of the project in the address (the page is then a 404). */
export async function dashboardView({ userId, params }: { userId: string; params: DashboardParams }): Promise<DashboardView | null> {
  const memberships = await membershipsOf(userId);
  const projects = memberships.map((member) => ({ id: member.projectId, name: member.projectName, role: member.role }));
  const current = projects.find((project) => project.id === params.project);
  if (!current) return null;
  const allowed = Object.fromEntries(DASHBOARD_ACTIONS.map((action) => [action, can(current.role, action)])) as Record<DashboardAction, boolean>;
  // The per-process project cache the API's admission reads: no query on most pages.
  const beta = (await readProjectState(current.id))?.capabilities.includes("beta") ?? false;
  return { userId, projects, current: { ...current, environment: params.environment }, allowed, beta };
}
