// Identity checks (spec 4.4): the directors and people with significant control of an application's company
// are checked by the environment's identity provider; the check is `verified` when every person is,
// `review_required` when anyone is referred to manual review, and `failed` when anyone failed. The check and its
// event (`identity.verified`, `identity.review_required` or `identity.failed`) are written in the caller's
// transaction, opened once the provider has answered; an application takes at most IDENTITY_CHECKS_PER_DAY
// checks in 24 hours. The partner API calls this through
// `POST /identity/checks` (white-label projects only); the hosted journey and the decision engine call
// `runIdentityCheck` and `latestIdentityCheckFor` directly.
import type { ApplicationStatus } from "../applications/schemas";
import { lockApplication } from "../applications/transition";
import { clock } from "../clock";
import { db, transact, type DatabaseClient } from "../db";
import type { DeferredTransaction } from "../deferred-transaction";
import { ApiError, notFound } from "../errors";
import { recordEvents, type EventType } from "../events/events";
import type { Application } from "../generated/prisma/client";
import { newId } from "../ids";
import { describeError, log } from "../log";
import { tenantObjectOrThrow, type Tenant } from "../tenant";
import { identityProviderFor } from "./choose-provider";
import { IdentityProviderUnavailableError, type IdentityCheckAnswer, type IdentityCheckRequest, type IdentityProvider } from "./provider";
import type { IdentityPerson, IdentityResult } from "./schemas";
import { serializeIdentityCheck, serializeIdentityCheckEvent, type CheckedPerson, type VerificationObject } from "./serialize";

/**
 * Identity is checked before a decision is made: while the applicant completes the journey (`created`),
 * while decisioning is queued (`submitted`) or running, a referral included (`in_review`). Once decided, funded
 * or closed, a check would change nothing: 409 `conflict`.
 */
export const IDENTITY_CHECKABLE_STATUSES: readonly ApplicationStatus[] = ["created", "submitted", "in_review"];

const EVENT_TYPES: Record<IdentityResult, EventType> = {
  verified: "identity.verified",
  review_required: "identity.review_required",
  failed: "identity.failed",
};

/** The check's outcome: failed when anyone failed, else in review when anyone is, else verified. */
function checkStatus(results: readonly IdentityResult[]): IdentityResult {
  if (results.includes("failed")) return "failed";
  return results.includes("review_required") ? "review_required" : "verified";
}

const PROVIDER_RETRY_AFTER_MS = 5_000;

/**
 * Live checks are paid for: an application takes at most this many in any 24 hours (real time, whatever a test
 * clock says), counting calls still waiting for the provider.
 */
export const IDENTITY_CHECKS_PER_DAY = 3;
const CAP_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface RunIdentityCheckOptions {
  tenant: Tenant;
  /** The request's time on the tenant's clock, which the record and its event carry. */
  now: Date;
  applicationId: string;
  people: readonly IdentityPerson[];
  /**
   * Where the check and its event are written, opened only once the provider has answered, so no transaction
   * or pooled connection waits on it. The caller may write more in it afterwards (the journey's answers).
   */
  transaction: DeferredTransaction;
  /** The statuses the application may be in, when fewer than IDENTITY_CHECKABLE_STATUSES (the journey's: `created`). */
  checkableStatuses?: readonly ApplicationStatus[];
}

type CheckableApplication = Pick<Application, "id" | "projectId" | "environment" | "status" | "companyNumber" | "reference">;

/** The tenant's application, checkable: 404 `resource_not_found` on `application_id`, 401 `environment_mismatch`, 409 `conflict`. */
function assertCheckable(
  tenant: Tenant,
  applicationId: string,
  found: CheckableApplication | null,
  statuses: readonly ApplicationStatus[],
): CheckableApplication {
  const application = tenantObjectOrThrow(tenant, found, () => notFound("application", applicationId, { field: "application_id" }));
  if (!statuses.includes(application.status)) {
    throw new ApiError("conflict", {
      message: `Application ${applicationId} is ${application.status}: identity is checked before a decision, while an application is ${new Intl.ListFormat("en-GB", { type: "disjunction" }).format(statuses)}.`,
    });
  }
  return application;
}

/**
 * Checks the people and records the outcome with its event. The application must be the tenant's (another
 * project's, or none: 404 `resource_not_found` on `application_id`; the other environment's: 401
 * `environment_mismatch`) and not yet decided (409 `conflict`), and have had fewer than
 * `IDENTITY_CHECKS_PER_DAY` checks in the last 24 hours (429 `rate_limited`, with when the next may run). No
 * provider for live, or one that does not answer: 503 `service_unavailable`, and nothing is written.
 *
 * In three steps, so the provider's answer (up to 4 s) holds no transaction: the call is recorded against the
 * cap under the application's row lock and committed; the provider is asked; then `transaction` is opened and
 * the check written, the application's state checked again under its lock.
 */
export async function runIdentityCheck(options: RunIdentityCheckOptions): Promise<VerificationObject> {
  const { tenant, now, applicationId, people, transaction: deferred, checkableStatuses = IDENTITY_CHECKABLE_STATUSES } = options;
  const select = { id: true, projectId: true, environment: true, status: true, companyNumber: true, reference: true } as const;
  const application = assertCheckable(tenant, applicationId, await db().application.findUnique({ where: { id: applicationId }, select }), checkableStatuses);
  const provider = identityProviderFor(tenant.environment);
  if (!provider) {
    throw new ApiError("service_unavailable", {
      message: "Live identity checks are not available: no identity provider is configured for the live environment. Sandbox checks work with a sandbox token.",
    });
  }
  const id = newId("identityCheck");
  await recordAttempt(tenant, applicationId, id, checkableStatuses);
  let answer: IdentityCheckAnswer;
  try {
    answer = await askProvider(provider, { reference: id, companyNumber: application.companyNumber, people });
  } catch (error) {
    // A call the provider did not answer is not counted against the cap.
    await db().identityCheckAttempt.deleteMany({ where: { id } });
    throw error;
  }
  const status = checkStatus(answer.results);
  const checked: CheckedPerson[] = people.map(({ first_name, last_name, date_of_birth, role }, index) => ({
    first_name,
    last_name,
    date_of_birth,
    role,
    result: answer.results[index]!,
  }));
  const transaction = await deferred.open();
  // Decided or closed while the provider answered: the check would change nothing (409, as before the call).
  assertCheckable(tenant, applicationId, await lockApplication(transaction, applicationId), checkableStatuses);
  const check = await transaction.identityCheck.create({
    data: {
      id,
      projectId: tenant.projectId,
      environment: tenant.environment,
      applicationId,
      status,
      people: checked,
      provider: provider.name,
      providerReference: answer.providerReference,
      createdAt: now,
    },
  });
  const verification = serializeIdentityCheck(check, application);
  await recordEvents(transaction, [{ projectId: tenant.projectId, environment: tenant.environment, type: EVENT_TYPES[status], object: serializeIdentityCheckEvent(check, application), createdAt: now }]);
  return verification;
}

/**
 * Counts a call to the provider against the application's cap, or refuses it (429 `rate_limited`, retryable
 * once the oldest call counted is 24 hours old). Under the application's row lock, so concurrent requests
 * count each other's calls; the status is checked again there.
 */
async function recordAttempt(tenant: Tenant, applicationId: string, id: string, statuses: readonly ApplicationStatus[]): Promise<void> {
  await transact(async (transaction) => {
    assertCheckable(tenant, applicationId, await lockApplication(transaction, applicationId), statuses);
    const now = clock.now();
    const windowStart = new Date(now.getTime() - CAP_WINDOW_MS);
    // Calls older than the window count for nothing: each application keeps only its last 24 hours.
    await transaction.identityCheckAttempt.deleteMany({ where: { applicationId, attemptedAt: { lte: windowStart } } });
    const counted = await transaction.identityCheckAttempt.findMany({
      where: { applicationId, attemptedAt: { gt: windowStart } },
      select: { attemptedAt: true },
      orderBy: { attemptedAt: "asc" },
    });
    if (counted.length >= IDENTITY_CHECKS_PER_DAY) {
      const nextAt = new Date(counted[counted.length - IDENTITY_CHECKS_PER_DAY]!.attemptedAt.getTime() + CAP_WINDOW_MS);
      throw new IdentityCheckCapError(applicationId, nextAt, nextAt.getTime() - now.getTime());
    }
    await transaction.identityCheckAttempt.create({ data: { id, applicationId, attemptedAt: now } });
  });
}

/** An application over its daily cap of identity checks: 429 `rate_limited`, and when the next may run. */
export class IdentityCheckCapError extends ApiError {
  constructor(
    applicationId: string,
    /** When the oldest check counted leaves the 24 hours. */
    readonly nextCheckAt: Date,
    retryAfterMs: number,
  ) {
    super("rate_limited", {
      message: `Application ${applicationId} has had ${IDENTITY_CHECKS_PER_DAY} identity checks in the last 24 hours, the most it may have; the next can run from ${nextCheckAt.toISOString()}.`,
      retryAfterMs,
    });
  }
}

async function askProvider(provider: IdentityProvider, request: IdentityCheckRequest): Promise<IdentityCheckAnswer> {
  try {
    return await provider.check(request);
  } catch (error) {
    if (!(error instanceof IdentityProviderUnavailableError)) throw error;
    log.warn("identity provider unavailable", { provider: provider.name, identity_check_id: request.reference, status: error.status, ...describeError(error) });
    throw new ApiError("service_unavailable", { message: "The identity provider is not answering; retry shortly.", retryAfterMs: PROVIDER_RETRY_AFTER_MS });
  }
}

/** One of the tenant's checks: another project's is 404 `not_found`, the other environment's 401 `environment_mismatch`. */
export async function retrieveIdentityCheck({ tenant, id }: { tenant: Tenant; id: string }): Promise<VerificationObject> {
  const check = await db().identityCheck.findUnique({ where: { id }, include: { application: { select: { reference: true } } } });
  const own = tenantObjectOrThrow(tenant, check, () => notFound("identity check", id));
  return serializeIdentityCheck(own, own.application);
}

/** The application's most recent identity check, or null when it has none (for the decision engine and the journey). */
export async function latestIdentityCheckFor(applicationId: string, database: DatabaseClient = db()): Promise<VerificationObject | null> {
  const check = await database.identityCheck.findFirst({
    where: { applicationId },
    orderBy: { id: "desc" },
    include: { application: { select: { reference: true } } },
  });
  return check ? serializeIdentityCheck(check, check.application) : null;
}

/** A person as a check or the journey names them. */
export type NamedPerson = Pick<IdentityPerson, "first_name" | "last_name" | "date_of_birth">;

/** The same names (case and surrounding spaces aside) and date of birth are the same person. */
function personKey({ first_name, last_name, date_of_birth }: NamedPerson): string {
  return [first_name.trim().toLocaleLowerCase("en-GB"), last_name.trim().toLocaleLowerCase("en-GB"), date_of_birth].join("\u0000");
}

/** A person whose names and date of birth are still held: erased past their retention, no one can be told apart. */
function isNamed(person: Partial<NamedPerson>): person is NamedPerson {
  return typeof person.first_name === "string" && typeof person.last_name === "string" && typeof person.date_of_birth === "string";
}

/**
 * Each person named on the application, with the result the newest identity check that named them gave, or
 * null when none has: for the live decision engine. Named are everyone any of the application's checks named
 * and `alsoNamed` (the hosted journey's applicant and directors). Results only: no one's name leaves here. A
 * person whose details were erased names no one, so an erased application has nobody verified.
 */
export async function identityOfNamedPeople(applicationId: string, alsoNamed: readonly NamedPerson[], database: DatabaseClient = db()): Promise<(IdentityResult | null)[]> {
  const checks = await database.identityCheck.findMany({ where: { applicationId }, orderBy: { id: "desc" }, select: { people: true } });
  const newest = new Map<string, IdentityResult>();
  for (const check of checks) {
    for (const { result, ...person } of check.people as unknown as (Partial<NamedPerson> & { result: IdentityResult })[]) {
      if (!isNamed(person)) continue;
      const key = personKey(person);
      if (!newest.has(key)) newest.set(key, result);
    }
  }
  const named = new Set([...alsoNamed.filter(isNamed).map(personKey), ...newest.keys()]);
  return [...named].map((key) => newest.get(key) ?? null);
}
