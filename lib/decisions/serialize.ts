import type { Application, Decision } from "../generated/prisma/client";
import type { Condition } from "./engine";
import { schedulePreview, type OfferTerms } from "./offer-terms";

export const REASON_MESSAGES: Record<string, string> = {
  adverse_credit: "The business or its directors have adverse credit history.",
  affordability: "The repayments are not affordable on the business's turnover.",
  identity_unverified: "The identity of the business or its directors could not be verified.",
  insufficient_trading_history: "The business has not been trading long enough.",
  out_of_appetite: "The request is outside our lending appetite.",
};

function serializeOffer(terms: OfferTerms | null) {
  if (!terms) return null;
  return {
    principal_pence: terms.principal_pence,
    apr_bps: terms.apr_bps,
    term_months: terms.term_months,
    monthly_repayment_pence: terms.monthly_repayment_pence,
    total_repayable_pence: terms.total_repayable_pence,
    total_interest_pence: terms.total_interest_pence,
    first_repayment_date: terms.schedule[0]?.due_date ?? null,
    schedule_preview: schedulePreview(terms),
  };
}

/** The decision object of `GET /decisions/{id}` (spec 2.3, with the fields it leaves to us). */
export function serializeDecision(decision: Decision, application: Pick<Application, "reference">) {
  return {
    id: decision.id,
    object: "decision" as const,
    livemode: decision.environment === "live",
    application_id: decision.applicationId,
    outcome: decision.outcome,
    approved_amount_pence: decision.approvedAmountPence,
    apr_bps: decision.aprBps,
    reference: application.reference,
    version: decision.version,
    reasons: decision.reasons.map((code) => ({ code, message: REASON_MESSAGES[code] ?? code })),
    conditions: decision.conditions as unknown as Condition[],
    offer: serializeOffer(decision.offerTerms as unknown as OfferTerms | null),
    locked: decision.lockedAt !== null,
    decided_at: decision.decidedAt.toISOString(),
    created_at: decision.createdAt.toISOString(),
  };
}

/** `decision.completed`'s `data.object`: exactly the fields spec 6.2 lists. */
export function decisionEventObject(decision: Decision, application: Pick<Application, "reference">) {
  return {
    id: decision.id,
    object: "decision" as const,
    application_id: decision.applicationId,
    outcome: decision.outcome,
    approved_amount_pence: decision.approvedAmountPence,
    apr_bps: decision.aprBps,
    reference: application.reference,
  };
}

/**
 * `offer.accepted`'s `data.object`: the accepted offer, what it belongs to, and its acceptance: when, and whether
 * the borrower signed it by typing their name (false when the sandbox test helper accepted it). The name itself
 * stays with the decision: events carry no personal data.
 */
export function offerEventObject(decision: Decision, application: Pick<Application, "reference">) {
  return {
    object: "offer" as const,
    decision_id: decision.id,
    application_id: decision.applicationId,
    reference: application.reference,
    ...serializeOffer(decision.offerTerms as unknown as OfferTerms | null),
    accepted_at: decision.acceptedAt?.toISOString() ?? null,
    signed: decision.signatoryName !== null,
  };
}
