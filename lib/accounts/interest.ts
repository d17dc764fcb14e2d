// Interest accrual: the one place its rule is defined (docs/accounts.md, "Interest").
//
// An account's life is cut into monthly periods from the day it opened: period k runs from `opened_on` + (k−1)
// months to `opened_on` + k months (lib/accounts/calendar.ts `addMonths`), and instalment k falls due at the
// end of period k. Interest accrues every day at the APR taken as a nominal annual rate compounded monthly
// (the rate the schedule's annuity uses, lib/decisions/offer-terms.ts): one period's interest on a balance B
// is B × APR / 12, spread evenly over the period's actual days. So over a whole period on an unchanged
// balance, accrual gives exactly the schedule's interest for that instalment, penny for penny, and a period
// of 28 days accrues as much as one of 31.
//
// Rounding: the interest of each stretch of days on one balance within one period is rounded half-up to the
// penny, in BigInt: floor((B × bps × days + ½ × 120000 × periodDays) / (120000 × periodDays)).
import { addMonths, daysBetween } from "./calendar";

const MONTHLY_RATE_DENOMINATOR = 120_000n; // 10000 bps × 12 months

export interface AccrualInput {
  /** The balance interest accrues on, unchanged over the stretch. */
  principalPence: number;
  aprBps: number;
  /** The day the account opened: periods are counted from it. */
  openedOn: string;
  /** Accrue from the start of this day... */
  from: string;
  /** ...to the start of this day. */
  to: string;
}

/** The end of period `number` (and the due date of instalment `number`). */
export function periodEnd(openedOn: string, number: number): string {
  return addMonths(openedOn, number);
}

/** The number of the period `date` falls in (1 for the first month). */
export function periodContaining(openedOn: string, date: string): number {
  const approximate = Math.max(1, Math.floor(daysBetween(openedOn, date) / 31));
  let number = approximate;
  while (number > 1 && periodEnd(openedOn, number - 1) > date) number -= 1;
  while (periodEnd(openedOn, number) <= date) number += 1;
  return number;
}

/** Interest in whole pence on an unchanged balance from the start of `from` to the start of `to`. */
export function accrueInterest({ principalPence, aprBps, openedOn, from, to }: AccrualInput): number {
  if (to <= from || principalPence === 0 || aprBps === 0) return 0;
  if (from < openedOn) throw new RangeError(`Interest cannot accrue before the account opened (${from} < ${openedOn}).`);
  const balance = BigInt(principalPence);
  const apr = BigInt(aprBps);
  let total = 0n;
  let cursor = from;
  let number = periodContaining(openedOn, from);
  while (cursor < to) {
    const start = periodEnd(openedOn, number - 1);
    const end = periodEnd(openedOn, number);
    const stretchEnd = end < to ? end : to;
    const days = BigInt(daysBetween(cursor, stretchEnd));
    const periodDays = BigInt(daysBetween(start, end));
    const denominator = MONTHLY_RATE_DENOMINATOR * periodDays;
    total += (balance * apr * days + denominator / 2n) / denominator;
    cursor = stretchEnd;
    number += 1;
  }
  return Number(total);
}
