// How the dashboard's read sections name what the API spells as codes, for a partner's team (the borrower area's
// words for statuses and products are in app/_components/loan-words.ts), and how they write instants and rates.
import type { EventType } from "@/lib/events/events";

export const EVENT_WORDS: Record<EventType, string> = {
  "application.created": "Application created",
  "application.submitted": "Application submitted by the applicant",
  "application.expired": "Application expired before it was finished",
  "application.withdrawn": "Application withdrawn",
  "application.funded": "Application funded",
  "decision.completed": "Decision made",
  "decision.referred": "Decision referred to an underwriter",
  "offer.accepted": "Offer accepted",
  "identity.verified": "Identity verified",
  "identity.review_required": "Identity check needs a review",
  "identity.failed": "Identity check failed",
  "account.activated": "Account opened",
  "account.updated": "Account changed",
  "account.closed": "Account closed",
  "payment.created": "Payment created",
  "payment.settled": "Payment settled",
  "payment.failed": "Payment failed",
  "payment.paid": "Payment paid",
  "payout.paid": "Payout paid",
  "mandate.revoked": "Direct Debit mandate cancelled",
  "consent.granted": "Consent given",
  "consent.withdrawn": "Consent withdrawn",
  "enquiry.created": "Enquiry received",
  "webhook_endpoint.disabled": "Webhook endpoint disabled",
  "webhook_endpoint.enabled": "Webhook endpoint enabled",
};

/** An event's type in words; a type this table does not know yet, as its code. */
export function eventWords(type: string): string {
  return EVENT_WORDS[type as EventType] ?? type;
}

export const DELIVERY_STATUS_WORDS: Record<string, string> = {
  pending: "Waiting to be sent",
  succeeded: "Delivered",
  failed: "Failed",
  abandoned: "Given up",
};

export const OUTCOME_WORDS: Record<string, string> = { approved: "Approved", declined: "Declined", referred: "Referred to an underwriter" };

/** Ledger entries as the lender's side reads them (the borrower area says "Money sent to you"). */
export const LEDGER_WORDS: Record<string, string> = {
  collection: "Collection",
  drawdown: "Drawdown (money sent to the borrower)",
  refund: "Refund",
  adjustment: "Adjustment",
};

export const PURPOSE_WORDS: Record<string, string> = {
  working_capital: "Working capital",
  asset_finance: "Asset finance",
  expansion: "Expansion",
  refinance: "Refinance",
  stock: "Stock",
};

/** A rate in basis points as a percentage: 1,750 bps is 17.5%. */
export function formatBps(bps: number): string {
  return `${(bps / 100).toLocaleString("en-GB", { maximumFractionDigits: 2 })}%`;
}

/** A revenue share's rate as a percentage to two decimals, as a statement writes it: 100 bps is 1.00%. */
export function formatShareRate(bps: number): string {
  return `${(bps / 100).toFixed(2)}%`;
}

/** The introduction's stages (spec 3.3) in words; `funded` is the one that earns. */
export const INTRODUCTION_STAGE_WORDS: Record<string, string> = { started: "Started", decisioned: "Decisioned", funded: "Funded", declined: "Declined" };

export const PAYOUT_STATUS_WORDS: Record<string, string> = { pending: "Pending", paid: "Paid" };
