// The calculator's quote, in pence, whether the server worked it out (the first view, or a visitor without
// JavaScript) or the browser asked the public quote endpoint (which answers in pounds, spec 2.1).
import type { Frequency, OneTimeQuotePence } from "@/lib/pricing/quotes";

export interface QuoteView {
  principal_pence: number;
  term_days: number;
  frequency: Frequency;
  establishment_fee_pence: number;
  total_interest_pence: number;
  total_cost_pence: number;
  total_repayable_pence: number;
  periods: number;
  payment_each_pence: number;
  final_payment_pence: number;
  cost_cap_applied: boolean;
}

export function quoteViewOfPence(quote: OneTimeQuotePence): QuoteView {
  return {
    principal_pence: quote.principal,
    term_days: quote.term_days,
    frequency: quote.frequency,
    establishment_fee_pence: quote.establishment_fee,
    total_interest_pence: quote.total_interest,
    total_cost_pence: quote.total_cost,
    total_repayable_pence: quote.total_repayable,
    periods: quote.periods,
    payment_each_pence: quote.payment_each,
    final_payment_pence: quote.final_payment,
    cost_cap_applied: quote.cap_applied,
  };
}

const pence = (pounds: number): number => Math.round(pounds * 100);

/** GET /public/v1/quote/onetime's body (lib/pricing/quotes.ts `oneTimeQuoteInPounds`). */
export interface PublicQuoteBody {
  principal_pounds: number;
  term_days: number;
  frequency: Frequency;
  establishment_fee_pounds: number;
  total_interest_pounds: number;
  total_cost_pounds: number;
  total_repayable_pounds: number;
  periods: number;
  payment_each_pounds: number;
  final_payment_pounds: number;
  cost_cap_applied: boolean;
}

export function quoteViewOfPounds(body: PublicQuoteBody): QuoteView {
  return {
    principal_pence: pence(body.principal_pounds),
    term_days: body.term_days,
    frequency: body.frequency,
    establishment_fee_pence: pence(body.establishment_fee_pounds),
    total_interest_pence: pence(body.total_interest_pounds),
    total_cost_pence: pence(body.total_cost_pounds),
    total_repayable_pence: pence(body.total_repayable_pounds),
    periods: body.periods,
    payment_each_pence: pence(body.payment_each_pounds),
    final_payment_pence: pence(body.final_payment_pounds),
    cost_cap_applied: body.cost_cap_applied,
  };
}
