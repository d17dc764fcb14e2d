// What the applicant does to finish an application, on the hosted journey's pages or on a white-label partner's
// own screens through the API (docs/white-label.md): submit it once every required consent is given, and accept
// the offer, which funds it. Each takes the tenant and, from an idempotent route, the route's transaction.
import { fundApplication } from "../accounts/funding";
import { currentConsentText, type ConsentType } from "../application-consents/catalogue";
import { missingConsents } from "../application-consents/service";
import { db, inTransaction } from "../db";
import { ApiError } from "../errors";
import type { Prisma } from "../generated/prisma/client";
import { assertMove } from "../lifecycle";
import type { Tenant } from "../tenant";
import { lockOwnApplicationOrThrow, submitApplication } from "./service";
import { APPLICATION_LIFECYCLE } from "./state-machine";

interface ApplicantAction {
  tenant: Tenant;
  /** The request's time on the tenant's clock. */
  now: Date;
  id: string;
  /** The caller's transaction, for the action to commit with its other writes. */
  transaction?: Prisma.TransactionClient;
}

function consentRequired(id: string, missing: readonly ConsentType[]): ApiError {
  return new ApiError("consent_required", {
    message: `Application ${id} cannot be submitted until the applicant has given every required consent; missing: ${missing.join(", ")}.`,
    detail: missing.map((type) => ({
      field: `consents.${type}`,
      reason: "not_granted",
      message: `The applicant has not agreed to the ${type} text (current version ${currentConsentText(type).version}).`,
    })),
  });
}

/**
 * Submits for decisioning (`created` → `submitted`, `application.submitted`; decisioning is queued once the
 * transaction commits). Not the tenant's: 404 `not_found`. Not `created`: 409 `conflict`. A required consent
 * missing: 422 `consent_required`, one detail item per consent.
 */
export async function submitCompletedApplication(options: ApplicantAction & { declaredAnnualTurnoverPence?: number }) {
  const { tenant, now, id, declaredAnnualTurnoverPence } = options;
  return inTransaction(options.transaction ?? db(), async (transaction) => {
    // Locked, so no consent is recorded between the gate and the move.
    const application = await lockOwnApplicationOrThrow(transaction, tenant, id);
    assertMove(APPLICATION_LIFECYCLE, application.status, "submit");
    const missing = await missingConsents(id, transaction);
    if (missing.length > 0) throw consentRequired(id, missing);
    return submitApplication({ tenant, now, id, declaredAnnualTurnoverPence, transaction });
  });
}

/**
 * The borrower accepts the offer, signing it with their name: the application is funded at once, with the
 * events of funding (lib/accounts/funding.ts), and returned `funded` with its `account_id`. Not the tenant's:
 * 404 `not_found`. Not `approved`: 409 `conflict`.
 */
export async function acceptOffer(options: ApplicantAction & { signatoryName: string }) {
  const { tenant, now, id, signatoryName } = options;
  return inTransaction(options.transaction ?? db(), async (transaction) => {
    const application = await lockOwnApplicationOrThrow(transaction, tenant, id);
    assertMove(APPLICATION_LIFECYCLE, application.status, "fund");
    return (await fundApplication({ tenant, now, applicationId: id, signatoryName, transaction })).application;
  });
}
