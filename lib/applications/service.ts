// The applications API (spec 4.2) and the journey moves the test helpers drive. Status changes go through the
// state machine; this module owns validation against the registry, tenancy and the shapes on the wire.
import { clock } from "../clock";
import { announceCommitted } from "../commit-signals";
import { db, inTransaction, whenCommitted, type DatabaseClient } from "../db";
import { Prisma, type Application } from "../generated/prisma/client";
import { ApiError, notFound } from "../errors";
import { serializeDecision } from "../decisions/serialize";
import { tenantObjectOrThrow, tenantWhere, type Tenant } from "../tenant";
import { lockApplication, transitionApplication } from "./transition";
import { serializeApplication } from "./serialize";

/** The project and environment of an application, or null for an unknown id: whose clock background work reads. */
export async function applicationTenant(id: string): Promise<Tenant | null> {
  return db().application.findUnique({ where: { id }, select: { projectId: true, environment: true } });
}

/** The caller's application: another project's is 404, the other environment's 401 `environment_mismatch`. */
export async function getOwnApplicationOrThrow(tenant: Tenant, id: string, database: DatabaseClient = db()): Promise<Application> {
  return tenantObjectOrThrow(tenant, await database.application.findUnique({ where: { id } }), () => notFound("application", id));
}

/** `getOwnApplicationOrThrow`, with the row locked until `transaction` ends (see `lockApplication`). */
export async function lockOwnApplicationOrThrow(transaction: Prisma.TransactionClient, tenant: Tenant, id: string): Promise<Application> {
  return tenantObjectOrThrow(tenant, await lockApplication(transaction, id), () => notFound("application", id));
}

/**
 * Withdraws before funding (spec 3.1). Already withdrawn: returned unchanged, no event. Funded or expired:
 * 409 `conflict`. Concurrent withdraws queue on the row lock, so exactly one moves it and writes the event.
 */
export async function withdrawApplication({ tenant, now, id, reason }: { tenant: Tenant; now: Date; id: string; reason?: string }) {
  await getOwnApplicationOrThrow(tenant, id);
  return db().$transaction(async (transaction) => {
    const application = (await lockApplication(transaction, id))!;
    if (application.status === "withdrawn") return serializeApplication(application);
    const withdrawn = await transitionApplication(transaction, application, "withdraw", {
      now,
      changes: { withdrawnAt: now, withdrawalReason: reason ?? null },
    });
    return serializeApplication(withdrawn);
  });
}

export interface SubmitApplicationOptions {
  tenant: Tenant;
  /** The time on the tenant's clock the submission and its consent carry. */
  now: Date;
  id: string;
  declaredAnnualTurnoverPence?: number;
  /** False: decisioning is left to the caller (the seed decides its applications itself). */
  queueDecisioning?: boolean;
  /** The caller's transaction, for its writes to commit with the move; decisioning is queued once it commits. */
  transaction?: Prisma.TransactionClient;
}

/**
 * The applicant finishes the journey and consents: `created` → `submitted`, then decisioning is queued. The
 * consent gate is the caller's (lib/applications/applicant-actions.ts); the sandbox test helper and the seed
 * submit without it.
 */
export async function submitApplication(options: SubmitApplicationOptions) {
  const submitted = await inTransaction(options.transaction ?? db(), async (transaction) => {
    const locked = await lockApplication(transaction, options.id);
    const application = tenantObjectOrThrow(options.tenant, locked, () => notFound("application", options.id));
    const { now } = options;
    const moved = await transitionApplication(transaction, application, "submit", {
      now,
      changes: {
        submittedAt: now,
        consentedAt: now,
        declaredAnnualTurnoverPence: options.declaredAnnualTurnoverPence ?? application.declaredAnnualTurnoverPence,
      },
    });
    if (options.queueDecisioning !== false) whenCommitted(transaction, () => announceCommitted("application.submitted", moved.id));
    return moved;
  });
  return serializeApplication(submitted);
}

/**
 * The expiry operation the background drivers call: a `created` application past `expires_at` at `now` (its
 * project's time, lib/tenant-clock.ts, which the caller takes) becomes `expired`. Idempotent, and a row another
 * worker holds is skipped. `force` expires it now (test helper). A sandbox clock's advance passes its own
 * transaction, and its step's `to` as `now`.
 */
export async function expireApplication(
  id: string,
  options: { now: Date; force?: boolean; transaction?: Prisma.TransactionClient },
): Promise<Application | null> {
  const expire = async (transaction: Prisma.TransactionClient) => {
    // An advance waits for a row the sweep holds: everything due by its new time must have run when it answers.
    const application = await lockApplication(transaction, id, { skipLocked: !options.transaction });
    if (!application) return null;
    const { now } = options;
    if (!options.force && (application.status !== "created" || application.expiresAt > now)) return null;
    return transitionApplication(transaction, application, "expire", { now, changes: options.force ? { expiresAt: now } : {} });
  };
  return options.transaction ? expire(options.transaction) : db().$transaction(expire);
}

/** The test helper's expiry: 404 for an unknown id, 409 unless the application is `created`. */
export async function expireApplicationNow({ tenant, now, id }: { tenant: Tenant; now: Date; id: string }) {
  tenantObjectOrThrow(tenant, await db().application.findFirst({ where: { id, projectId: tenant.projectId } }), () => notFound("application", id));
  const expired = await expireApplication(id, { now, force: true });
  if (!expired) throw new ApiError("conflict", { message: "The application is busy; retry." });
  return serializeApplication(expired);
}

/**
 * Created applications past their expiry, each on its project's clock: live and never-advanced sandboxes on real
 * time (the (status, expires_at) index), and each advanced sandbox on real time plus its offset.
 */
function expiredApplicationsSql(now: Date, limit: number): Prisma.Sql {
  return Prisma.sql`(SELECT id, expires_at FROM applications WHERE status = 'created' AND expires_at <= ${now}
      ORDER BY expires_at LIMIT ${limit})
    UNION
    (SELECT application.id, application.expires_at FROM sandbox_clocks clock
      JOIN applications application ON application.project_id = clock.project_id AND application.environment = 'sandbox'
        AND application.status = 'created'
      WHERE application.expires_at <= ${now}::timestamptz + clock.offset_days * interval '1 day'
      ORDER BY application.expires_at LIMIT ${limit})`;
}

/** Created applications past their expiry, for the expiry sweep. */
export async function findExpiredApplications(limit: number): Promise<string[]> {
  const rows = await db().$queryRaw<{ id: string }[]>`SELECT id FROM (${expiredApplicationsSql(clock.now(), limit)}) due
    ORDER BY expires_at, id LIMIT ${limit}`;
  return rows.map((row) => row.id);
}

export async function countExpiredApplications(): Promise<number> {
  const [row] = await db().$queryRaw<{ count: number }[]>`SELECT count(*)::int AS count FROM (${expiredApplicationsSql(clock.now(), 2_147_483_647)}) due`;
  return row?.count ?? 0;
}

/**
 * A sandbox clock's advance (lib/sandbox-clock): a batch of the tenant's created applications past their expiry
 * at `to` (the first `limit` after the id `after`, in id order), expired in the advance's transaction as of
 * `to`; returns the ids it found.
 */
export async function expireDueApplications(options: { transaction: Prisma.TransactionClient; tenant: Tenant; to: Date; after: string | null; limit: number }): Promise<string[]> {
  const { transaction, tenant, to, after, limit } = options;
  const due = await transaction.application.findMany({
    where: { ...tenantWhere(tenant), status: "created", expiresAt: { lte: to }, ...(after === null ? {} : { id: { gt: after } }) },
    select: { id: true },
    orderBy: { id: "asc" },
    take: limit,
  });
  for (const { id } of due) await expireApplication(id, { now: to, transaction });
  return due.map((row) => row.id);
}

/** The operator's view (CLI `application show`): the application, its decision and its event history. */
export async function describeApplication(id: string) {
  const application = await db().application.findUnique({ where: { id }, include: { decision: true } });
  if (!application) return null;
  const events = await db().event.findMany({
    where: { projectId: application.projectId, environment: application.environment, createdAt: { gte: application.createdAt } },
    orderBy: { id: "asc" },
  });
  const relevant = events.filter((event) => {
    const object = event.object as { id?: string; application_id?: string };
    return object.id === id || object.application_id === id;
  });
  return {
    project_id: application.projectId,
    application: serializeApplication(application),
    decision: application.decision ? serializeDecision(application.decision, application) : null,
    events: relevant.map((event) => ({ id: event.id, type: event.type, created_at: event.createdAt.toISOString() })),
  };
}
