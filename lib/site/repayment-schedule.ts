// A Business Loan quote's payments one by one, for the calculator's chart and its table: `periods` payments of
// `payment_each` (the last takes the remainder, lib/pricing/quotes.ts), each falling one period after the last.
import { FREQUENCIES, type Frequency } from "../pricing/quotes";

export interface QuoteForSchedule {
  term_days: number;
  frequency: Frequency;
  periods: number;
  payment_each_pence: number;
  final_payment_pence: number;
  total_repayable_pence: number;
}

export interface ScheduledPayment {
  number: number;
  /** Days after the loan is paid out; the last payment falls on the term's final day. */
  dueDay: number;
  amountPence: number;
  leftAfterPence: number;
}

export function repaymentSchedule(quote: QuoteForSchedule): ScheduledPayment[] {
  const schedule: ScheduledPayment[] = [];
  let left = quote.total_repayable_pence;
  for (let number = 1; number <= quote.periods; number += 1) {
    const last = number === quote.periods;
    const amountPence = last ? quote.final_payment_pence : quote.payment_each_pence;
    left -= amountPence;
    schedule.push({ number, dueDay: last ? quote.term_days : Math.min(number * FREQUENCIES[quote.frequency], quote.term_days), amountPence, leftAfterPence: left });
  }
  return schedule;
}
