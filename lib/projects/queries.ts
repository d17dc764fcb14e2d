// The tenant's project as its owner sees it, for the partner MCP tools' configuration snapshot.
import { db } from "../db";
import type { Project } from "../generated/prisma/client";
import type { Tenant } from "../tenant";

/** The tenant's project row; it exists for as long as a token names it. */
export function readTenantProject(tenant: Tenant): Promise<Project> {
  return db().project.findUniqueOrThrow({ where: { id: tenant.projectId } });
}
