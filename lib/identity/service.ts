// Identity checks (spec 4.4): the directors and people with significant control of an application's company
// are checked by the environment's identity provider; the check is `verified` when every person is,
// `review_required` when anyone is referred to manual review, and `failed` when anyone failed. The check and its
// event (`identity.verified`, `identity.review_required` or `identity.failed`) are written in the caller's
// transaction. The partner API calls this through
// `POST /identity/checks` (white-label projects only); the hosted journey and the decision engine call
// `runIdentityCheck` and `latestIdentityCheckFor` directly.
import type { ApplicationStatus } from "../applications/schemas";
import { tenantNow } from "../tenant-clock";
import { db, type DatabaseClient } from "../db";
import { ApiError } from "../errors";
import { recordEvents, type EventType } from "../events/events";
import type { Prisma } from "../generated/prisma/client";
import { newId } from "../ids";
import { describeError, log } from "../log";
import { assertSameEnvironment, type Tenant } from "../tenant";
import { identityProviderFor } from "./choose-provider";
import { IdentityProviderUnavailableError, type IdentityCheckAnswer, type IdentityCheckRequest, type IdentityProvider, type IdentityResult } from "./provider";
import type { IdentityPerson } from "./schemas";
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

export interface RunIdentityCheckOptions {
  tenant: Tenant;
  applicationId: string;
  people: readonly IdentityPerson[];
  /** The check and its event are written here, so they commit with the caller's other writes or not at all. */
  transaction: Prisma.TransactionClient;
}

/**
 * Checks the people and records the outcome with its event. The application must be the tenant's (another
 * project's, or none: 404 `resource_not_found` on `application_id`; the other environment's: 401
 * `environment_mismatch`) and not yet decided (409 `conflict`). No provider for live, or one that does not
 * answer: 503 `service_unavailable`, and nothing is written.
 */
export async function runIdentityCheck({ tenant, applicationId, people, transaction }: RunIdentityCheckOptions): Promise<VerificationObject> {
  const application = await transaction.application.findUnique({
    where: { id: applicationId },
    select: { id: true, projectId: true, environment: true, status: true, companyNumber: true, reference: true },
  });
  if (!application || application.projectId !== tenant.projectId) {
    throw new ApiError("resource_not_found", {
      message: `No such application: ${applicationId}.`,
      detail: [{ field: "application_id", reason: "not_found", message: `No such application: ${applicationId}.` }],
    });
  }
  assertSameEnvironment(tenant, application);
  if (!IDENTITY_CHECKABLE_STATUSES.includes(application.status)) {
    throw new ApiError("conflict", {
      message: `Application ${applicationId} is ${application.status}: identity is checked before a decision, while an application is created, submitted or in_review.`,
    });
  }
  const provider = identityProviderFor(tenant.environment);
  if (!provider) {
    throw new ApiError("service_unavailable", {
      message: "Live identity checks are not available: no identity provider is configured for the live environment. Sandbox checks work with a sandbox token.",
    });
  }
  const id = newId("identityCheck");
  const answer = await askProvider(provider, { reference: id, companyNumber: application.companyNumber, people });
  const status = checkStatus(answer.results);
  const checked: CheckedPerson[] = people.map(({ first_name, last_name, date_of_birth, role }, index) => ({
    first_name,
    last_name,
    date_of_birth,
    role,
    result: answer.results[index]!,
  }));
  const now = await tenantNow(tenant);
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
  if (!check || check.projectId !== tenant.projectId) throw new ApiError("not_found", { message: `No such identity check: ${id}.` });
  assertSameEnvironment(tenant, check);
  return serializeIdentityCheck(check, check.application);
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
