// Owner-level project actions, exposed through the admin CLI (and later the dashboard).
import { clock } from "../clock";
import type { Database } from "../db";
import { notFound } from "../errors";
import { forgetProjectState } from "./project-state";
import type { TenantEnvironment } from "../tenant";

async function updateProject(database: Database, projectId: string, data: Parameters<Database["project"]["update"]>[0]["data"]) {
  const result = await database.project.updateMany({ where: { id: projectId }, data: { ...data, updatedAt: clock.now() } });
  if (result.count === 0) throw notFound("project", projectId);
  forgetProjectState(projectId);
}

/** A suspended project can neither mint tokens nor use the ones it has (403 account_suspended). */
export function setProjectStatus(database: Database, projectId: string, status: "active" | "suspended"): Promise<void> {
  return updateProject(database, projectId, { status });
}

/** Every access token of the environments given, minted up to now, stops working (401 token_revoked). */
export function revokeOutstandingTokens(database: Database, projectId: string, environments: TenantEnvironment[]): Promise<void> {
  const now = clock.now();
  return updateProject(database, projectId, {
    ...(environments.includes("sandbox") ? { sandboxTokensNotBefore: now } : {}),
    ...(environments.includes("live") ? { liveTokensNotBefore: now } : {}),
  });
}
