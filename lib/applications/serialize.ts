import type { Application } from "../generated/prisma/client";

/** The columns the application object is made from (what the list query selects). */
export type ApplicationView = Pick<
  Application,
  | "id" | "environment" | "status" | "companyNumber" | "companyName" | "amountPence" | "termMonths" | "purpose" | "reference"
  | "handoffToken" | "expiresAt" | "createdAt" | "submittedAt" | "withdrawnAt" | "withdrawalReason" | "fundedAt" | "decisionId"
  | "introductionId" | "metadata"
>;
import { config } from "../env";

/** The hosted journey's address for an application: the unguessable token, never the id. */
export function handoffUrl(handoffToken: string): string {
  return `${config().APPLY_URL}/apply/${handoffToken}`;
}

/**
 * The application object (spec 2.2). `applicant` and `redirect_uri` are input only (they pre-fill and close the
 * hosted journey) and are not echoed; `decision` is the decision's id once decisioning has run.
 */
export function serializeApplication(application: ApplicationView) {
  return {
    id: application.id,
    object: "application" as const,
    livemode: application.environment === "live",
    status: application.status,
    business: { company_number: application.companyNumber, name: application.companyName },
    amount_pence: application.amountPence,
    term_months: application.termMonths,
    purpose: application.purpose,
    reference: application.reference,
    handoff_url: handoffUrl(application.handoffToken),
    expires_at: application.expiresAt.toISOString(),
    created_at: application.createdAt.toISOString(),
    submitted_at: application.submittedAt?.toISOString() ?? null,
    withdrawn_at: application.withdrawnAt?.toISOString() ?? null,
    withdrawal_reason: application.withdrawalReason,
    funded_at: application.fundedAt?.toISOString() ?? null,
    decision: application.decisionId,
    account_id: null,
    introduction_id: application.introductionId,
    metadata: application.metadata as Record<string, string>,
  };
}

export type ApplicationObject = ReturnType<typeof serializeApplication>;
