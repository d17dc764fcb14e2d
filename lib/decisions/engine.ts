// The decision engine: an application in, an outcome out, with no I/O and no randomness, so a refresh on the
// same data gives the same answer. Besides the application it weighs what the journey collected: the newest
// identity check's outcome and the company's turnover, declared by the applicant and seen through open banking
// (the twelve months of the newest affordability record, added up). Where both turnovers are known the lower
// counts: a company is lent what the smaller figure affords.
//
// Sandbox (the contract integrators test against), by the company number's last four digits:
//   0001 declined adverse_credit            0005 declined out_of_appetite
//   0002 declined affordability              0006 referred (stays in_review until resolved)
//   0003 declined insufficient_trading_history  0007 approved for half the amount, rounded down to whole pounds
//   0004 declined identity_unverified       anything else: approved in full
// then, for the endings that approve (0007 and anything else), what the journey collected:
//   a failed identity check → declined identity_unverified; open-banking turnover → the affordability rules
//   below (4 and 5) on the amount the ending approves; an identity check in review → referred.
//   A declared turnover alone is not weighed in the sandbox.
//
// Live, in order (documented in docs/applications.md, "The live engine"), where "named" means the applicant and
// every director or person with significant control the journey's About you or any identity check named, each
// judged by the newest check that named them:
//   1. Anyone named failed their newest check                   → declined identity_unverified
//   2. Trading history under 12 months since incorporation      → declined insufficient_trading_history
//   3. Amount above the appetite ceiling for the trading history → declined out_of_appetite
//      (under 24 months: £50,000; under 60 months: £150,000; otherwise the product maximum)
//   4. No turnover, declared or open-banking                     → referred (an underwriter asks for it)
//   5. Amount above 40% of turnover                              → declined affordability
//   6. Amount above 20% of turnover                              → offered 20% of turnover, rounded down to
//      whole pounds (declined affordability if that is under the product minimum)
//   7. Something an approval needs is missing                   → referred, with a condition for each thing:
//      anyone named in review (identity_review); nobody named, or someone named no check has named
//      (identity_not_verified); no open-banking affordability record (affordability_missing)
//   8. Otherwise                                                  → approved for the amount offered
// A live loan is never approved without knowing who the borrower is and what the bank says it turns over; the
// referral says what is missing, and an underwriter (or a new check and a refresh) takes it from there.
// Credit-bureau checks (adverse_credit) need a provider the live engine does not call yet; it never returns
// that reason on its own.
import type { IdentityResult } from "../identity/schemas";
import { aprBpsFor, MAX_AMOUNT_PENCE, MIN_AMOUNT_PENCE } from "./pricing-table";
import { computeOfferTerms, type OfferTerms } from "./offer-terms";
import type { TenantEnvironment } from "../tenant";

export const DECLINE_REASONS = ["adverse_credit", "affordability", "identity_unverified", "insufficient_trading_history", "out_of_appetite"] as const;
export type DeclineReason = (typeof DECLINE_REASONS)[number];
export type Outcome = "approved" | "declined" | "referred";

export interface Condition {
  code: string;
  description: string;
}

export interface EngineInput {
  environment: TenantEnvironment;
  companyNumber: string;
  /** YYYY-MM-DD */
  incorporatedOn: string;
  amountPence: number;
  termMonths: number;
  declaredAnnualTurnoverPence: number | null;
  /** The twelve months of the newest affordability record (open banking), added up; null without one. */
  openBankingAnnualTurnoverPence: number | null;
  /** The newest identity check's outcome; null when none has been run (the sandbox weighs this). */
  identity: IdentityResult | null;
  /**
   * Live: each person named on the application (the journey's applicant and directors, and everyone any identity
   * check named), with the result the newest check that named them gave; null for one no check has named.
   */
  namedPeopleIdentity: (IdentityResult | null)[];
  /** When the decision is made: trading history and the first repayment date run from here. */
  now: Date;
}

export interface EngineDecision {
  outcome: Outcome;
  approvedAmountPence: number;
  aprBps: number;
  reasons: DeclineReason[];
  conditions: Condition[];
  offerTerms: OfferTerms | null;
}

const SANDBOX_DECLINES: Record<string, DeclineReason> = {
  "0001": "adverse_credit",
  "0002": "affordability",
  "0003": "insufficient_trading_history",
  "0004": "identity_unverified",
  "0005": "out_of_appetite",
};
const SANDBOX_REFERRED_SUFFIX = "0006";
const SANDBOX_HALF_SUFFIX = "0007";

const MINIMUM_TRADING_MONTHS = 12;
const APPETITE_CEILINGS: readonly { underMonths: number; maxPence: number }[] = [
  { underMonths: 24, maxPence: 5_000_000 },
  { underMonths: 60, maxPence: 15_000_000 },
];
const AFFORDABLE_SHARE_PERCENT = 20;
const DECLINE_ABOVE_SHARE_PERCENT = 40;

/** Loans above £100,000 are secured by a director's personal guarantee. */
const GUARANTEE_ABOVE_PENCE = 10_000_000;

export function runDecisionEngine(input: EngineInput): EngineDecision {
  return input.environment === "sandbox" ? decideSandbox(input) : decideLive(input);
}

const IDENTITY_REVIEW: Condition = {
  code: "identity_review",
  description: "An underwriter is reviewing the identity check of the company's directors or people with significant control.",
};

function decideSandbox(input: EngineInput): EngineDecision {
  const suffix = input.companyNumber.slice(-4);
  const reason = SANDBOX_DECLINES[suffix];
  if (reason) return declined(input, reason);
  if (suffix === SANDBOX_REFERRED_SUFFIX) return referred(input);
  if (input.identity === "failed") return declined(input, "identity_unverified");
  const amount = suffix === SANDBOX_HALF_SUFFIX ? wholePoundsDown(Math.floor(input.amountPence / 2)) : input.amountPence;
  // Declared turnover alone never decided a sandbox application; only open banking's figures bring the rules in.
  const offered = input.openBankingAnnualTurnoverPence === null ? amount : affordableAmount(amount, assessedTurnoverPence(input)!);
  if (offered === null) return declined(input, "affordability");
  if (input.identity === "review_required") return referred(input, IDENTITY_REVIEW);
  return approved(input, offered);
}

function decideLive(input: EngineInput): EngineDecision {
  if (input.namedPeopleIdentity.includes("failed")) return declined(input, "identity_unverified");
  const tradingMonths = monthsBetween(input.incorporatedOn, input.now);
  if (tradingMonths < MINIMUM_TRADING_MONTHS) return declined(input, "insufficient_trading_history");
  const ceiling = APPETITE_CEILINGS.find((band) => tradingMonths < band.underMonths)?.maxPence ?? MAX_AMOUNT_PENCE;
  if (input.amountPence > ceiling) return declined(input, "out_of_appetite");
  const turnover = assessedTurnoverPence(input);
  if (turnover === null) return referred(input, ...missingForLiveApproval(input));
  const offered = affordableAmount(input.amountPence, turnover);
  if (offered === null) return declined(input, "affordability");
  const missing = missingForLiveApproval(input);
  if (missing.length > 0) return referred(input, ...missing);
  return approved(input, offered);
}

/** What a live approval still needs: the conditions of the referral that waits for it, in a fixed order. */
function missingForLiveApproval(input: EngineInput): Condition[] {
  const missing: Condition[] = [];
  const named = input.namedPeopleIdentity;
  if (named.includes("review_required")) missing.push(IDENTITY_REVIEW);
  const unchecked = named.filter((result) => result === null).length;
  if (named.length === 0) {
    missing.push({ code: "identity_not_verified", description: "No identity check has verified the applicant and the company's directors." });
  } else if (unchecked > 0) {
    missing.push({ code: "identity_not_verified", description: `${unchecked} of the ${named.length} people named on the application have no identity check.` });
  }
  if (input.openBankingAnnualTurnoverPence === null) {
    missing.push({ code: "affordability_missing", description: "No affordability record: twelve months of the company's turnover from open banking are needed." });
  }
  return missing;
}

/** The turnover affordability is judged on: the lower of declared and open-banking where both are known. */
export function assessedTurnoverPence(input: Pick<EngineInput, "declaredAnnualTurnoverPence" | "openBankingAnnualTurnoverPence">): number | null {
  const known = [input.declaredAnnualTurnoverPence, input.openBankingAnnualTurnoverPence].filter((turnover): turnover is number => turnover !== null);
  return known.length === 0 ? null : Math.min(...known);
}

/**
 * What `turnoverPence` affords of `amountPence`: all of it up to 20% of turnover; above that, up to 40%, 20% of
 * turnover rounded down to whole pounds; nothing (null: declined) above 40%, or when that 20% is under the
 * product minimum.
 */
function affordableAmount(amountPence: number, turnoverPence: number): number | null {
  if (amountPence * 100 > turnoverPence * DECLINE_ABOVE_SHARE_PERCENT) return null;
  if (amountPence * 100 <= turnoverPence * AFFORDABLE_SHARE_PERCENT) return amountPence;
  const affordable = wholePoundsDown(Math.floor((turnoverPence * AFFORDABLE_SHARE_PERCENT) / 100));
  return affordable < MIN_AMOUNT_PENCE ? null : affordable;
}

/**
 * The price is looked up for the amount offered; an offer below the product minimum (a sandbox half of the
 * smallest loan) is priced as the minimum.
 */
function aprFor(input: EngineInput, amountPence: number): number {
  return aprBpsFor({ amountPence: Math.max(amountPence, MIN_AMOUNT_PENCE), termMonths: input.termMonths });
}

function approved(input: EngineInput, amountPence: number): EngineDecision {
  const aprBps = aprFor(input, amountPence);
  const conditions: Condition[] = [];
  if (amountPence < input.amountPence) {
    conditions.push({ code: "reduced_amount", description: `Approved for ${amountPence} pence of the ${input.amountPence} requested.` });
  }
  if (amountPence > GUARANTEE_ABOVE_PENCE) {
    conditions.push({ code: "personal_guarantee", description: "A director's personal guarantee is required before funding." });
  }
  const offerTerms = computeOfferTerms({
    principalPence: amountPence,
    aprBps,
    termMonths: input.termMonths,
    firstRepaymentDate: oneMonthAfter(input.now),
  });
  return { outcome: "approved", approvedAmountPence: amountPence, aprBps, reasons: [], conditions, offerTerms };
}

function declined(_input: EngineInput, reason: DeclineReason): EngineDecision {
  return { outcome: "declined", approvedAmountPence: 0, aprBps: 0, reasons: [reason], conditions: [], offerTerms: null };
}

function referred(input: EngineInput, ...why: Condition[]): EngineDecision {
  return {
    outcome: "referred",
    approvedAmountPence: 0,
    aprBps: aprFor(input, input.amountPence),
    reasons: [],
    conditions: [{ code: "manual_review", description: "An underwriter is reviewing the application." }, ...why],
    offerTerms: null,
  };
}

function wholePoundsDown(pence: number): number {
  return Math.floor(pence / 100) * 100;
}

/** Whole calendar months from a YYYY-MM-DD date to an instant (UTC), never negative. */
export function monthsBetween(fromDate: string, to: Date): number {
  const [year, month, day] = fromDate.split("-").map(Number) as [number, number, number];
  let months = (to.getUTCFullYear() - year) * 12 + (to.getUTCMonth() + 1 - month);
  if (to.getUTCDate() < day) months -= 1;
  return Math.max(0, months);
}

/** The first repayment falls one calendar month after the decision (clamped to the month's last day). */
export function oneMonthAfter(now: Date): string {
  const year = now.getUTCFullYear();
  const monthIndex = now.getUTCMonth() + 1;
  const target = new Date(Date.UTC(year, monthIndex, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(now.getUTCDate(), lastDay));
  return target.toISOString().slice(0, 10);
}

/** An underwriter's answer to a referral: the same offer arithmetic as the engine's own approvals. */
export function manualDecision(input: EngineInput, outcome: "approved" | "declined", reason: DeclineReason = "affordability"): EngineDecision {
  return outcome === "approved" ? approved(input, input.amountPence) : declined(input, reason);
}
