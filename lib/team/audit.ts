// The dashboard's audit log (docs/dashboard.md, "Audit log"): one row per action, naming who (a user id, or `cli`),
// what, and which object, by id only. Secrets, names and emails never reach it.
import { clock } from "../clock";
import { db, type DatabaseClient } from "../db";
import type { Environment } from "../generated/prisma/client";
import { newId } from "../ids";

/** The admin command line, as the actor of what an operator does there. */
export const CLI_ACTOR = "cli";

export const AUDITED_ACTIONS = [
  "key.created",
  "key.rolled",
  "key.revoked",
  "member.added",
  "member.role_changed",
  "member.removed",
  "decision.released",
  "webhook_endpoint.created",
  "webhook_endpoint.updated",
  "webhook_endpoint.disabled",
  "webhook_endpoint.enabled",
  "webhook_endpoint.secret_rolled",
  "webhook_endpoint.recovered",
  "event.replayed",
  "member.invited",
  "tokens.revoked",
  "key.origins_changed",
  "member.invitation_cancelled",
  "sub_account.created",
] as const;
export type AuditedAction = (typeof AUDITED_ACTIONS)[number];

export interface AuditRecord {
  projectId: string;
  environment?: Environment;
  actorId: string;
  action: AuditedAction;
  objectId?: string;
}

export async function recordAudit(database: DatabaseClient, record: AuditRecord): Promise<void> {
  await database.dashboardAuditEntry.create({
    data: {
      id: newId("auditEntry"),
      projectId: record.projectId,
      environment: record.environment ?? null,
      actorId: record.actorId,
      action: record.action,
      objectId: record.objectId ?? null,
      createdAt: clock.now(),
    },
  });
}

/** The project's latest entries, newest first; with `environment`, that environment's and those of no environment (the team's). */
export function listAuditEntries({ projectId, environment, limit = 50 }: { projectId: string; environment?: Environment; limit?: number }) {
  const where = environment ? { projectId, OR: [{ environment }, { environment: null }] } : { projectId };
  return db().dashboardAuditEntry.findMany({ where, orderBy: { id: "desc" }, take: limit });
}
