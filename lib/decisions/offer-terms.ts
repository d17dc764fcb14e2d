// The arithmetic of a loan offer: level monthly repayment, totals and the repayment schedule, all in integer
// pence.
//
// Rate convention and rounding rule — the one place they are defined:
//   - The APR is a nominal annual rate compounded monthly: r = aprBps / 10000 / 12 = aprBps / 120000.
//   - The level payment is the annuity P·r / (1 − (1+r)^−n), or P / n when r = 0, rounded UP to the whole
//     penny. It is evaluated exactly as the fraction P·a·(120000+a)^n / (120000·((120000+a)^n − 120000^n)),
//     with a = aprBps, in BigInt, so no floating point is involved and the ceiling never lands a penny high
//     because a float came out as 88849.000000001.
//   - Each month's interest is balance·a / 120000 rounded half-up to the penny, i.e. floor((balance·a + 60000)
//     / 120000) in BigInt (balances are never negative, so half-up needs no sign handling).
//   - Principal part = payment − interest. Every payment but the last is the level payment; the last is the
//     remaining balance plus that month's interest, so the balance ends at exactly 0 and
//     sum(payments) = principal + sum(interest) with no penny lost.
//
// What the rule guarantees about the last payment F against the level payment M: with A the exact annuity
// and δ = M − A in [0, 1), F − M = Σₖ (εₖ − δ)·(1+r)^(n−k), where εₖ in (−½, ½] is month k's interest
// rounding. So F ≤ M whenever δ ≥ ½ (always when r = 0), and otherwise F − M ≤ (½ − δ)·((1+r)^n − 1) / r.
// Within the pricing table that bound is at most 46 pence (1700 bps over 60 months); the roundings mostly
// cancel, so the excess is usually none and at most a few pence.
//
// Terms far outside the product (decades of tiny payments, or high APRs over decades, where (1+r)^n turns
// penny roundings into pounds) are refused with a RangeError rather than bent into a schedule: when
// ½·((1+r)^n − 1) / r exceeds M, rounding alone could more than double the final payment, and a non-final
// payment must repay some principal and leave some for the final month. So F ≤ 2M always, and neither refusal
// can happen within the pricing table.
import { daysInMonth } from "../accounts/calendar";

export interface ScheduleRow {
  number: number;
  due_date: string;
  payment_pence: number;
  principal_pence: number;
  interest_pence: number;
  balance_after_pence: number;
}

export interface OfferTerms {
  principal_pence: number;
  apr_bps: number;
  term_months: number;
  monthly_repayment_pence: number;
  total_repayable_pence: number;
  total_interest_pence: number;
  schedule: ScheduleRow[];
}

export interface ComputeOfferTermsOptions {
  principalPence: number;
  aprBps: number;
  termMonths: number;
  /** `YYYY-MM-DD`; later due dates fall on the same day of the month, clamped to the month's last day. */
  firstRepaymentDate: string;
}

const MAX_SCHEDULE_MONTHS = 600;
const MAX_APR_BPS = 10_000;

const MONTHLY_RATE_DENOMINATOR = 120_000n; // 10000 bps × 12 months
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

export function computeOfferTerms({ principalPence, aprBps, termMonths, firstRepaymentDate }: ComputeOfferTermsOptions): OfferTerms {
  assertOfferInputs({ principalPence, aprBps, termMonths });
  const firstDate = parseDate(firstRepaymentDate);

  const principal = BigInt(principalPence);
  const apr = BigInt(aprBps);
  const levelPayment = levelPaymentPence(principal, apr, termMonths);
  if (roundingDriftCanExceed(levelPayment, apr, termMonths)) {
    throw unrepayable(
      { principalPence, aprBps, termMonths },
      `penny roundings compounded over the term could add more than the level payment of ${levelPayment} pence to the final payment`,
    );
  }

  const schedule: ScheduleRow[] = [];
  let balance = principal;
  let totalRepayable = 0n;
  for (let number = 1; number <= termMonths; number += 1) {
    const interest = (balance * apr + MONTHLY_RATE_DENOMINATOR / 2n) / MONTHLY_RATE_DENOMINATOR;
    const isFinal = number === termMonths;
    const payment = isFinal ? balance + interest : levelPayment;
    const principalPart = payment - interest;
    const balanceAfter = balance - principalPart;
    if (!isFinal && (principalPart <= 0n || balanceAfter <= 0n)) {
      throw unrepayable(
        { principalPence, aprBps, termMonths },
        principalPart <= 0n
          ? `the level payment of ${levelPayment} pence repays no principal in month ${number}`
          : `the level payment of ${levelPayment} pence clears the loan before month ${termMonths}`,
      );
    }
    schedule.push({
      number,
      due_date: formatDate(addMonthsClamped(firstDate, number - 1)),
      payment_pence: toSafeNumber(payment, "payment"),
      principal_pence: toSafeNumber(principalPart, "principal part"),
      interest_pence: toSafeNumber(interest, "interest"),
      balance_after_pence: toSafeNumber(balanceAfter, "balance"),
    });
    totalRepayable += payment;
    balance = balanceAfter;
  }

  return {
    principal_pence: principalPence,
    apr_bps: aprBps,
    term_months: termMonths,
    monthly_repayment_pence: toSafeNumber(levelPayment, "monthly repayment"),
    total_repayable_pence: toSafeNumber(totalRepayable, "total repayable"),
    total_interest_pence: toSafeNumber(totalRepayable - principal, "total interest"),
    schedule,
  };
}

/** The first `count` rows of the schedule, for the decision's preview. */
export function schedulePreview(terms: OfferTerms, count = 3): ScheduleRow[] {
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`count must be a whole number ≥ 0; got ${count}.`);
  return terms.schedule.slice(0, count);
}

function assertOfferInputs({ principalPence, aprBps, termMonths }: Omit<ComputeOfferTermsOptions, "firstRepaymentDate">): void {
  if (!Number.isSafeInteger(principalPence) || principalPence <= 0) {
    throw new RangeError(`principalPence must be a whole number of pence above 0; got ${principalPence}.`);
  }
  if (!Number.isSafeInteger(aprBps) || aprBps < 0 || aprBps > MAX_APR_BPS) {
    throw new RangeError(`aprBps must be a whole number from 0 to ${MAX_APR_BPS}; got ${aprBps}.`);
  }
  if (!Number.isSafeInteger(termMonths) || termMonths < 1 || termMonths > MAX_SCHEDULE_MONTHS) {
    throw new RangeError(`termMonths must be a whole number from 1 to ${MAX_SCHEDULE_MONTHS}; got ${termMonths}.`);
  }
}

function unrepayable({ principalPence, aprBps, termMonths }: Omit<ComputeOfferTermsOptions, "firstRepaymentDate">, reason: string): RangeError {
  return new RangeError(`${principalPence} pence at ${aprBps} bps over ${termMonths} months has no level whole-penny schedule: ${reason}.`);
}

function levelPaymentPence(principal: bigint, apr: bigint, termMonths: number): bigint {
  const months = BigInt(termMonths);
  if (apr === 0n) return ceilDivide(principal, months);
  const growth = (MONTHLY_RATE_DENOMINATOR + apr) ** months;
  const base = MONTHLY_RATE_DENOMINATOR ** months;
  return ceilDivide(principal * apr * growth, MONTHLY_RATE_DENOMINATOR * (growth - base));
}

// True when ½·S > M, with S = ((1+r)^n − 1) / r = 120000·(growth − base) / (a·base): the upper bound on the
// final payment's drift above the level payment, less the δ term. With r = 0 interest never rounds, so there is
// no upward drift.
function roundingDriftCanExceed(levelPayment: bigint, apr: bigint, termMonths: number): boolean {
  if (apr === 0n) return false;
  const months = BigInt(termMonths);
  const growth = (MONTHLY_RATE_DENOMINATOR + apr) ** months;
  const base = MONTHLY_RATE_DENOMINATOR ** months;
  return MONTHLY_RATE_DENOMINATOR * (growth - base) > 2n * levelPayment * apr * base;
}

function ceilDivide(numerator: bigint, denominator: bigint): bigint {
  return (numerator + denominator - 1n) / denominator;
}

function toSafeNumber(value: bigint, name: string): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new RangeError(`The ${name} of ${value} pence is beyond the safe integer range.`);
  }
  return Number(value);
}

interface CalendarDate {
  year: number;
  month: number; // 1–12
  day: number;
}

function parseDate(value: string): CalendarDate {
  const match = DATE_PATTERN.exec(value);
  const [year, month, day] = match ? [Number(match[1]), Number(match[2]), Number(match[3])] : [0, 0, 0];
  if (!match || year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    throw new RangeError(`firstRepaymentDate must be a calendar date as YYYY-MM-DD; got ${JSON.stringify(value)}.`);
  }
  return { year, month, day };
}

// Each date is computed from the anchor day, not from the previous (possibly clamped) date, so a loan first
// due on the 31st is due on the 31st again in every month that has one.
function addMonthsClamped(anchor: CalendarDate, months: number): CalendarDate {
  const monthIndex = anchor.month - 1 + months;
  const year = anchor.year + Math.floor(monthIndex / 12);
  const month = (monthIndex % 12) + 1;
  return { year, month, day: Math.min(anchor.day, daysInMonth(year, month)) };
}

function formatDate({ year, month, day }: CalendarDate): string {
  if (year > 9999) throw new RangeError(`A due date falls after the year 9999.`);
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}
