// Project capabilities: features the platform switches on for a partner by agreement, never the partner itself
// (the admin CLI sets them). `white_label` is the white-label flow of spec 1: the partner drives the screens and
// handles applicants' personal data, which needs a data-protection review first; it unlocks the identity
// checks and an application's consents, affordability, submit and accept (docs/white-label.md). `beta` is for the beta constructs, whose "access is granted by agreement" (spec 9).
import { clock } from "../clock";
import type { Database } from "../db";
import { ApiError, notFound } from "../errors";
import { lockRow } from "../row-lock";
import { forgetProjectState, readProjectState } from "./project-state";

export const PROJECT_CAPABILITIES = ["white_label", "beta"] as const;
export type ProjectCapability = (typeof PROJECT_CAPABILITIES)[number];

// Spec 7.2: 403 `capability_denied` when a feature flag is required. The message says how to get it.
const DENIED_MESSAGES: Record<ProjectCapability, string> = {
  white_label:
    "This endpoint belongs to the white-label flow, which is not enabled for this project. Ask us to enable the white_label capability (it follows a data-protection review), or send the applicant through the hosted journey at the application's handoff_url, which collects identity, bank turnover and consents itself (docs/hosted-journey.md).",
  beta: "This endpoint is in beta, which is not enabled for this project. Ask us to enable the beta capability for the project.",
};

export function isProjectCapability(value: string): value is ProjectCapability {
  return (PROJECT_CAPABILITIES as readonly string[]).includes(value);
}

/** 403 `capability_denied` unless the project has the capability. Reads the per-process project cache. */
export async function assertCapability(projectId: string, capability: ProjectCapability): Promise<void> {
  const state = await readProjectState(projectId);
  if (state?.capabilities.includes(capability)) return;
  throw new ApiError("capability_denied", { message: DENIED_MESSAGES[capability] });
}

/** The project's capabilities, in catalogue order. Unknown project: 404 `not_found`. */
export async function readProjectCapabilities(database: Database, projectId: string): Promise<ProjectCapability[]> {
  const project = await database.project.findUnique({ where: { id: projectId }, select: { capabilities: true } });
  if (!project) throw notFound("project", projectId);
  return PROJECT_CAPABILITIES.filter((capability) => project.capabilities.includes(capability));
}

export interface CapabilityChange {
  enable?: readonly ProjectCapability[];
  disable?: readonly ProjectCapability[];
}

/**
 * Switches capabilities on and off (switching one on twice changes nothing) and returns the project's
 * capabilities afterwards. Every app process drops its copy of the project as the change commits, so the
 * gate opens or closes at once. Unknown project: 404 `not_found`.
 */
export async function changeProjectCapabilities(database: Database, projectId: string, change: CapabilityChange): Promise<ProjectCapability[]> {
  const capabilities = await database.$transaction(async (transaction) => {
    // Two operators changing one project's capabilities at once must not undo each other's change.
    if (!(await lockRow(transaction, "projects", projectId))) throw notFound("project", projectId);
    const { capabilities: current } = await transaction.project.findUniqueOrThrow({ where: { id: projectId }, select: { capabilities: true } });
    const wanted = new Set(current);
    for (const capability of change.enable ?? []) wanted.add(capability);
    for (const capability of change.disable ?? []) wanted.delete(capability);
    const next = PROJECT_CAPABILITIES.filter((capability) => wanted.has(capability));
    await transaction.project.update({ where: { id: projectId }, data: { capabilities: next, updatedAt: clock.now() } });
    return next;
  });
  forgetProjectState(projectId);
  return capabilities;
}
