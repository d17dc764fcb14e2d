// The applications API (spec 4.2) and the journey moves the test helpers drive. Status changes go through the
// state machine; this module owns validation against the registry, tenancy and the shapes on the wire.
import { clock } from "../clock";
import { config } from "../env";
import { db, readRows, type DatabaseClient } from "../db";
import { inBatchedTransaction, type Statements } from "../statements";
import { Prisma, type Application } from "../generated/prisma/client";
import { assertEnvironment, type Principal } from "../http/auth";
import { ApiError } from "../http/errors";
import { paginate, renderListEnvelope, type PageRequest } from "../http/pagination";
import { RenderedJson } from "../http/rendered-json";
import { newId, randomToken } from "../ids";
import { afterCommit } from "../jobs/background";
import { companyRegistry } from "../registry/registry";
import { RegistryUnavailableError } from "../registry/errors";
import type { CompanyLookupFailure } from "../registry/registry";
import { offerEventObject, serializeDecision } from "../decisions/serialize";
import { lockApplication, openApplication, transitionApplication } from "./state-machine";
import type { CreateApplicationInput, listApplicationsQuerySchema } from "./schemas";
import { applicationJsonSql, serializeApplication } from "./serialize";
import type { z } from "zod";

const DAY_MS = 86_400_000;

const LOOKUP_MESSAGES: Record<CompanyLookupFailure, string> = {
  invalid_format: "A company number is 8 characters: 8 digits, or 2 capital letters and 6 digits.",
  company_not_found: "No company is registered under this number.",
  not_incorporated: "Only UK limited companies and LLPs can borrow; this number is not an incorporated body.",
  company_dissolved: "This company has been dissolved.",
};

function companyNumberRejected(reason: CompanyLookupFailure): ApiError {
  return new ApiError("validation_failed", {
    detail: [{ field: "business.company_number", reason, message: LOOKUP_MESSAGES[reason] }],
  });
}

/** https everywhere; plain http only to localhost, and only in the sandbox (for local development). */
function assertRedirectUriAllowed(redirectUri: string | undefined, environment: Principal["environment"]): void {
  if (redirectUri === undefined) return;
  const url = new URL(redirectUri);
  if (url.protocol === "https:") return;
  const local = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  if (environment === "sandbox" && local) return;
  throw new ApiError("validation_failed", {
    detail: [{
      field: "redirect_uri",
      reason: "must_be_https",
      message: environment === "sandbox" ? "redirect_uri must be https (or http on localhost)." : "redirect_uri must be https.",
    }],
  });
}

async function lookUpCompany(companyNumber: string, environment: Principal["environment"]) {
  try {
    return await companyRegistry(environment).lookup(companyNumber);
  } catch (error) {
    if (error instanceof RegistryUnavailableError) {
      throw new ApiError("service_unavailable", { message: "The company registry is not answering; retry shortly.", retryAfterMs: 5_000 });
    }
    throw error;
  }
}


/** Opens an application in `statements`' transaction, or in a batched transaction of its own. */
export async function createApplication(principal: Principal, input: CreateApplicationInput, statements?: Statements) {
  assertRedirectUriAllowed(input.redirect_uri, principal.environment);
  const lookup = await lookUpCompany(input.business.company_number, principal.environment);
  if (!lookup.found) throw companyNumberRejected(lookup.reason);
  const now = clock.now();
  const open = (transaction: Statements) =>
    openApplication(
      transaction,
      {
        id: newId("application"),
        projectId: principal.projectId,
        environment: principal.environment,
        companyNumber: lookup.company.companyNumber,
        companyName: lookup.company.name,
        companyKind: lookup.company.kind,
        incorporatedOn: lookup.company.incorporatedOn,
        amountPence: input.amount_pence,
        termMonths: input.term_months,
        purpose: input.purpose ?? null,
        reference: input.reference ?? null,
        applicantEmail: input.applicant?.email ?? null,
        applicantFirstName: input.applicant?.first_name ?? null,
        redirectUri: input.redirect_uri ?? null,
        introductionId: input.introduction_id ?? null,
        metadata: input.metadata ?? {},
        handoffToken: randomToken(32),
        expiresAt: new Date(now.getTime() + config().APPLICATION_EXPIRY_DAYS * DAY_MS),
      },
      now,
    );
  const application = await (statements ? open(statements) : inBatchedTransaction(open));
  return serializeApplication(application);
}

function noSuchApplication(id: string): ApiError {
  return new ApiError("not_found", { message: `No such application: ${id}.` });
}

/** The caller's application: another project's is 404, the other environment's 401 `environment_mismatch`. */
export async function getOwnApplicationOrThrow(principal: Principal, id: string, database: DatabaseClient = db()): Promise<Application> {
  const application = await database.application.findUnique({ where: { id } });
  if (!application || application.projectId !== principal.projectId) throw noSuchApplication(id);
  assertEnvironment(principal, { livemode: application.environment === "live" });
  return application;
}

// The point read and the list are the hottest reads: one query each on the fast lane (lib/db.ts), with
// PostgreSQL rendering the objects (applicationJsonSql).
export async function retrieveApplication(principal: Principal, id: string): Promise<RenderedJson> {
  const [application] = await readRows<{ environment: string; json: string }>(Prisma.sql`SELECT environment::text AS environment,
    ${applicationJsonSql()} AS json FROM applications WHERE id = ${id} AND project_id = ${principal.projectId}`);
  if (!application) throw noSuchApplication(id);
  assertEnvironment(principal, { livemode: application.environment === "live" });
  return new RenderedJson(application.json);
}

export async function listApplications(options: { principal: Principal; query: z.output<typeof listApplicationsQuerySchema>; url: string }): Promise<RenderedJson> {
  const { principal, query } = options;
  const filters = [
    Prisma.sql`project_id = ${principal.projectId}`,
    Prisma.sql`environment = ${principal.environment}::"Environment"`,
    ...(query.status ? [Prisma.sql`status = ${query.status}::"ApplicationStatus"`] : []),
    ...(query.reference ? [Prisma.sql`reference = ${query.reference}`] : []),
    ...(query.created_after ? [Prisma.sql`created_at > ${query.created_after}`] : []),
  ];
  const page = await paginate({
    kind: "application",
    page: query satisfies PageRequest,
    url: options.url,
    fetch: (window) => {
      const cursor = !window.id ? [] : "lt" in window.id ? [Prisma.sql`id < ${window.id.lt}`] : [Prisma.sql`id > ${window.id.gt}`];
      const order = window.orderBy.id === "asc" ? Prisma.sql`ASC` : Prisma.sql`DESC`;
      return readRows<{ id: string; json: string }>(Prisma.sql`SELECT id, ${applicationJsonSql()} AS json FROM applications
        WHERE ${Prisma.join([...filters, ...cursor], " AND ")} ORDER BY id ${order} LIMIT ${window.take}`);
    },
    // The cursor must be one of the caller's applications in this environment; filters do not apply to it.
    exists: async (id) => {
      const rows = await readRows<{ id: string }>(Prisma.sql`SELECT id FROM applications
        WHERE id = ${id} AND project_id = ${principal.projectId} AND environment = ${principal.environment}::"Environment"`);
      return rows.length === 1;
    },
    serialize: (row) => new RenderedJson(row.json),
  });
  return renderListEnvelope(page);
}

/**
 * Withdraws before funding (spec 3.1). Already withdrawn: returned unchanged, no event. Funded or expired:
 * 409 `conflict`. Concurrent withdraws queue on the row lock, so exactly one moves it and writes the event.
 */
export async function withdrawApplication(principal: Principal, id: string, reason: string | undefined) {
  await getOwnApplicationOrThrow(principal, id);
  return db().$transaction(async (transaction) => {
    const application = (await lockApplication(transaction, { id, projectId: principal.projectId }))!;
    if (application.status === "withdrawn") return serializeApplication(application);
    const now = clock.now();
    const withdrawn = await transitionApplication(transaction, application, "withdraw", {
      now,
      changes: { withdrawnAt: now, withdrawalReason: reason ?? null },
    });
    return serializeApplication(withdrawn);
  });
}

/**
 * The applicant finishes the journey and consents: `created` → `submitted`, then decisioning is queued.
 * Used by the hosted journey and the sandbox test helper.
 */
export async function submitApplication(options: { projectId: string; id: string; declaredAnnualTurnoverPence?: number; queueDecisioning?: boolean }) {
  const submitted = await db().$transaction(async (transaction) => {
    const application = await lockApplication(transaction, { id: options.id, projectId: options.projectId });
    if (!application) throw noSuchApplication(options.id);
    const now = clock.now();
    return transitionApplication(transaction, application, "submit", {
      now,
      changes: {
        submittedAt: now,
        consentedAt: now,
        declaredAnnualTurnoverPence: options.declaredAnnualTurnoverPence ?? application.declaredAnnualTurnoverPence,
      },
    });
  });
  // The seed decides its applications itself, before the process that ran it closes the database.
  if (options.queueDecisioning !== false) afterCommit.applicationSubmitted(submitted.id);
  return serializeApplication(submitted);
}

/**
 * The expiry operation the background drivers call: a `created` application past `expires_at` becomes
 * `expired`. Idempotent, and a row another worker holds is skipped. `force` expires it now (test helper).
 */
export async function expireApplication(id: string, options: { projectId?: string; force?: boolean } = {}): Promise<Application | null> {
  return db().$transaction(async (transaction) => {
    const [row] = await transaction.$queryRaw<{ id: string }[]>`SELECT id FROM applications WHERE id = ${id} FOR UPDATE SKIP LOCKED`;
    if (!row) return null;
    const application = await transaction.application.findFirst({ where: { id, ...(options.projectId ? { projectId: options.projectId } : {}) } });
    if (!application) return null;
    const now = clock.now();
    if (!options.force && (application.status !== "created" || application.expiresAt > now)) return null;
    return transitionApplication(transaction, application, "expire", { now, changes: options.force ? { expiresAt: now } : {} });
  });
}

/** The test helper's expiry: 404 for an unknown id, 409 unless the application is `created`. */
export async function expireApplicationNow(projectId: string, id: string) {
  const application = await db().application.findFirst({ where: { id, projectId } });
  if (!application) throw noSuchApplication(id);
  const expired = await expireApplication(id, { projectId, force: true });
  if (!expired) throw new ApiError("conflict", { message: "The application is busy; retry." });
  return serializeApplication(expired);
}

/** Created applications past their expiry, for the expiry sweep. */
export async function findExpiredApplications(limit: number): Promise<string[]> {
  const rows = await db().application.findMany({
    where: { status: "created", expiresAt: { lte: clock.now() } },
    select: { id: true },
    orderBy: { expiresAt: "asc" },
    take: limit,
  });
  return rows.map((row) => row.id);
}

/**
 * The borrower accepts the offer and the loan is disbursed: `approved` → `funded`, firing `offer.accepted` and
 * `application.funded`. Sandbox test helper only until servicing accounts arrive.
 */
export async function fundApplication(projectId: string, id: string) {
  return db().$transaction(async (transaction) => {
    const application = await lockApplication(transaction, { id, projectId });
    if (!application) throw noSuchApplication(id);
    const decision = await transaction.decision.findUnique({ where: { applicationId: id } });
    const now = clock.now();
    const funded = await transitionApplication(transaction, application, "fund", {
      now,
      changes: { fundedAt: now },
      eventObjects: decision ? { "offer.accepted": offerEventObject(decision, application) } : {},
    });
    return serializeApplication(funded);
  });
}

export async function countExpiredApplications(): Promise<number> {
  return db().application.count({ where: { status: "created", expiresAt: { lte: clock.now() } } });
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
