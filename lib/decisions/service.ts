// Decisioning and the decisions API (spec 2.3, 4.4). Every write locks the application row and goes through
// the state machine, so a decision and its application's status never disagree.
import { Prisma, type Application, type Decision } from "../generated/prisma/client";
import { APPLICATION_LIFECYCLE, type ApplicationTrigger } from "../applications/state-machine";
import { lockApplication, transitionApplication } from "../applications/transition";
import { db, type DatabaseClient } from "../db";
import { tenantObjectOrThrow, type Tenant } from "../tenant";
import { ApiError, notFound } from "../errors";
import { newId } from "../ids";
import { canMove } from "../lifecycle";
import { manualDecision, runDecisionEngine, type DeclineReason, type EngineDecision, type EngineInput } from "./engine";
import { decisionEventObject, serializeDecision } from "./serialize";
import { latestAffordabilityFor } from "../affordability/service";
import { annualTurnoverPence } from "../affordability/serialize";
import type { IdentityResult } from "../identity/schemas";
import { identityOfNamedPeople, latestIdentityCheckFor, type NamedPerson } from "../identity/service";

const TRIGGER_BY_OUTCOME: Record<EngineDecision["outcome"], ApplicationTrigger> = {
  approved: "approve",
  declined: "decline",
  referred: "refer",
};

/**
 * The application and what its journey collected (the identity checks, the people the journey named and the
 * newest affordability record), as the engine takes them.
 */
async function engineInput(transaction: Prisma.TransactionClient, application: Application, now: Date): Promise<EngineInput> {
  const [identityCheck, affordability, namedPeopleIdentity] = await Promise.all([
    latestIdentityCheckFor(application.id, transaction),
    latestAffordabilityFor(application.id, transaction),
    application.environment === "live" ? namedPeopleIdentityOf(transaction, application.id) : [],
  ]);
  return {
    environment: application.environment,
    companyNumber: application.companyNumber,
    incorporatedOn: application.incorporatedOn,
    amountPence: application.amountPence,
    termMonths: application.termMonths,
    declaredAnnualTurnoverPence: application.declaredAnnualTurnoverPence === null ? null : Number(application.declaredAnnualTurnoverPence),
    openBankingAnnualTurnoverPence: affordability ? annualTurnoverPence(affordability.monthlyTurnoverPence) : null,
    identity: identityCheck?.status ?? null,
    namedPeopleIdentity,
    now,
  };
}

/** The applicant and directors the hosted journey named, with everyone the identity checks named: each one's newest result. */
async function namedPeopleIdentityOf(transaction: Prisma.TransactionClient, applicationId: string): Promise<(IdentityResult | null)[]> {
  const journey = await transaction.applicationJourney.findUnique({ where: { applicationId }, select: { people: true } });
  return identityOfNamedPeople(applicationId, (journey?.people ?? []) as unknown as NamedPerson[], transaction);
}

/**
 * Writes `outcome` as the application's decision (a new one, or the next version of the existing one) and moves
 * the application to match, with `decision.completed` (and `decision.referred`) in the same transaction.
 */
async function recordDecision(
  transaction: Prisma.TransactionClient,
  application: Application,
  outcome: EngineDecision,
  options: { existing: Decision | null; decidedBy: "sandbox" | "live" | "manual"; now: Date },
): Promise<{ decision: Decision; application: Application }> {
  const fields = {
    outcome: outcome.outcome,
    approvedAmountPence: outcome.approvedAmountPence,
    aprBps: outcome.aprBps,
    reasons: outcome.reasons,
    conditions: outcome.conditions as unknown as Prisma.InputJsonValue,
    offerTerms: outcome.offerTerms ? (outcome.offerTerms as unknown as Prisma.InputJsonValue) : Prisma.DbNull,
    decidedBy: options.decidedBy,
    decidedAt: options.now,
  };
  const decision = options.existing
    ? await transaction.decision.update({
        where: { id: options.existing.id },
        data: { ...fields, version: { increment: 1 } },
      })
    : await transaction.decision.create({
        data: {
          ...fields,
          id: newId("decision"),
          applicationId: application.id,
          projectId: application.projectId,
          environment: application.environment,
          createdAt: options.now,
        },
      });
  const moved = await transitionApplication(transaction, application, TRIGGER_BY_OUTCOME[outcome.outcome], {
    now: options.now,
    changes: { decisionId: decision.id },
    eventObjects: {
      "decision.completed": decisionEventObject(decision, application),
      "decision.referred": serializeDecision(decision, application),
    },
  });
  return { decision, application: moved };
}

export type DecisioningResult = "decided" | "nothing_to_do" | "busy";

/**
 * The decisioning operation the background drivers call: `submitted` → `in_review` → the engine's outcome.
 * Idempotent: an application that is not waiting for a decision is left alone, and one that another worker
 * holds is skipped (`FOR UPDATE SKIP LOCKED`), so running it twice, or in two processes, changes nothing.
 */
export async function decideSubmittedApplication(applicationId: string, now: Date): Promise<DecisioningResult> {
  return db().$transaction(async (transaction) => {
    let application = await lockApplication(transaction, applicationId, { skipLocked: true });
    if (!application) return (await db().application.count({ where: { id: applicationId } })) === 0 ? "nothing_to_do" : "busy";
    const existing = await transaction.decision.findUnique({ where: { applicationId } });
    if (application.status === "submitted") {
      application = await transitionApplication(transaction, application, "start_review", { now });
    } else if (application.status !== "in_review" || existing) {
      return "nothing_to_do";
    }
    await recordDecision(transaction, application, runDecisionEngine(await engineInput(transaction, application, now)), {
      existing,
      decidedBy: application.environment,
      now,
    });
    return "decided";
  });
}

/** Applications waiting for decisioning (for the sweep that catches anything an immediate run missed). */
export async function findApplicationsAwaitingDecision(limit: number): Promise<string[]> {
  const rows = await db().application.findMany({
    where: { OR: [{ status: "submitted" }, { status: "in_review", decision: { is: null } }] },
    select: { id: true },
    orderBy: { id: "asc" },
    take: limit,
  });
  return rows.map((row) => row.id);
}

export async function countApplicationsAwaitingDecision(): Promise<number> {
  return db().application.count({ where: { OR: [{ status: "submitted" }, { status: "in_review", decision: { is: null } }] } });
}

/** The project and environment of a decision, or null for an unknown id: whose clock an operator's move reads. */
export async function decisionTenant(id: string): Promise<Tenant | null> {
  return db().decision.findUnique({ where: { id }, select: { projectId: true, environment: true } });
}

export async function getOwnDecisionOrThrow(tenant: Tenant, id: string, database: DatabaseClient = db()) {
  const decision = await database.decision.findFirst({ where: { id, projectId: tenant.projectId }, include: { application: true } });
  return tenantObjectOrThrow(tenant, decision, () => notFound("decision", id));
}

export async function retrieveDecision({ tenant, id }: { tenant: Tenant; id: string }) {
  const decision = await getOwnDecisionOrThrow(tenant, id);
  return serializeDecision(decision, decision.application);
}

function assertUnlocked(decision: Decision): void {
  if (decision.lockedAt) throw new ApiError("decision_locked", { message: `Decision ${decision.id} is locked; it cannot change until released.` });
}

/**
 * Re-runs the engine on the application's current data. The decision keeps its id and gains a version; each
 * version fires `decision.completed`, so the event history holds every outcome.
 */
export async function refreshDecision({ tenant, now, id }: { tenant: Tenant; now: Date; id: string }) {
  const { applicationId } = await getOwnDecisionOrThrow(tenant, id);
  return db().$transaction(async (transaction) => {
    const application = (await lockApplication(transaction, applicationId))!;
    // Read under the application's lock: a concurrent refresh or lock has finished by now.
    const current = await transaction.decision.findUniqueOrThrow({ where: { id } });
    assertUnlocked(current);
    if (!canMove(APPLICATION_LIFECYCLE, application.status, "approve")) {
      throw new ApiError("conflict", { message: `The application is ${application.status}; its decision can no longer be refreshed.` });
    }
    const outcome = runDecisionEngine(await engineInput(transaction, application, now));
    const result = await recordDecision(transaction, application, outcome, { existing: current, decidedBy: application.environment, now });
    return serializeDecision(result.decision, result.application);
  });
}

/**
 * An underwriter's (or the sandbox test helper's) answer to a referred decision: the helper's is limited to its
 * tenant's decisions; an underwriter (the CLI) acts for whichever tenant holds it.
 */
export async function resolveReferral(options: { decisionId: string; now: Date; outcome: "approved" | "declined"; reason?: DeclineReason; tenant?: Tenant }) {
  return db().$transaction(async (transaction) => {
    const { tenant, decisionId, now } = options;
    const missing = () => notFound("decision", decisionId);
    const found = await transaction.decision.findFirst({ where: { id: decisionId, ...(tenant ? { projectId: tenant.projectId } : {}) } });
    const decision = tenant ? tenantObjectOrThrow(tenant, found, missing) : found;
    if (!decision) throw missing();
    const application = (await lockApplication(transaction, decision.applicationId))!;
    const current = await transaction.decision.findUniqueOrThrow({ where: { id: decision.id } });
    assertUnlocked(current);
    if (current.outcome !== "referred" || application.status !== "in_review") {
      throw new ApiError("conflict", { message: `Decision ${current.id} is ${current.outcome}, not referred; only a referral can be resolved.` });
    }
    const outcome = manualDecision(await engineInput(transaction, application, now), options.outcome, options.reason);
    const result = await recordDecision(transaction, application, outcome, { existing: current, decidedBy: "manual", now });
    return serializeDecision(result.decision, result.application);
  });
}

export class DecisionLockError extends Error {
  override name = "DecisionLockError";
}

/** Locks a declined decision against change (spec 2.3). Operator action, from the CLI. */
export async function lockDecision(id: string, lockedBy: string, now: Date) {
  const decision = await db().decision.findUnique({ where: { id }, include: { application: true } });
  if (!decision) throw new DecisionLockError(`No such decision: ${id}`);
  if (decision.outcome !== "declined") throw new DecisionLockError(`Only a declined decision can be locked; ${id} is ${decision.outcome}`);
  if (decision.lockedAt) return serializeDecision(decision, decision.application);
  const locked = await db().decision.update({ where: { id }, data: { lockedAt: now, lockedBy } });
  return serializeDecision(locked, decision.application);
}

/**
 * Releases a lock; owner-level: the CLI operator, for any decision (releasing one not locked changes nothing), or a
 * project's owner in the dashboard, given their `tenant`: only that tenant's decision (else 404, or 401 for the
 * other environment's), and only a locked one (else 409 `conflict`: a second press of the button, say). Who
 * released it is the caller's to record (the dashboard's audit log).
 */
export async function releaseDecision(id: string, options: { tenant?: Tenant; transaction?: DatabaseClient } = {}) {
  const { tenant, transaction: database = db() } = options;
  const decision = tenant
    ? await getOwnDecisionOrThrow(tenant, id, database)
    : await database.decision.findUnique({ where: { id }, include: { application: true } });
  if (!decision) throw new DecisionLockError(`No such decision: ${id}`);
  if (tenant && !decision.lockedAt) throw new ApiError("conflict", { message: `Decision ${id} is not locked.` });
  const released = await database.decision.update({ where: { id }, data: { lockedAt: null, lockedBy: null } });
  return serializeDecision(released, decision.application);
}
