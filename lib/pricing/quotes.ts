// Representative quotes, computed in integer pence from the pricing configuration. The one formula, for the
// Business Loan (GET /public/v1/quote/onetime, and the MCP get_quote tool):
//
//   principal          = amount in pence
//   interest           = principal × daily_rate × term_days, rounded half up to the penny
//   fee                = establishment_fee
//   cap                = principal × total_cost_cap_multiple, rounded down to the penny
//   total cost         = min(fee + interest, cap): when capped, interest is cut first, then the fee
//   total repayable    = principal + total cost
//   periods            = ceil(term_days / period length): weekly 7, fortnightly 14, monthly 30 days
//   payment each       = floor(total repayable / periods); the final payment takes the remainder, so the
//                        payments add up to the total repayable exactly
//
// Rates are turned into exact integers once (parts per million; the cap multiple in basis points) so no
// floating point touches a penny.
import type { PricingFigures } from "./schemas";

export const FREQUENCIES = { weekly: 7, fortnightly: 14, monthly: 30 } as const;
export type Frequency = keyof typeof FREQUENCIES;

const PPM = 1_000_000n;

function toPence(pounds: number): bigint {
  return BigInt(Math.round(pounds * 100));
}

function ratePpm(rate: number): bigint {
  return BigInt(Math.round(rate * 1_000_000));
}

function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (numerator * 2n + denominator) / (2n * denominator);
}

export interface OneTimeQuotePence {
  product: "business_loan";
  currency: "GBP";
  principal: number;
  term_days: number;
  frequency: Frequency;
  establishment_fee: number;
  total_interest: number;
  total_cost: number;
  total_repayable: number;
  periods: number;
  payment_each: number;
  final_payment: number;
  cap_applied: boolean;
}

/** The Business Loan quote in pence. Inputs must already be within the configured range (checked by the caller). */
export function quoteOneTime(figures: PricingFigures["business_loan"], input: { amountPounds: number; termDays: number; frequency: Frequency }): OneTimeQuotePence {
  const principal = BigInt(input.amountPounds) * 100n;
  const days = BigInt(input.termDays);
  const uncappedInterest = divideHalfUp(principal * ratePpm(figures.daily_rate) * days, PPM);
  const uncappedFee = toPence(figures.establishment_fee_pounds);
  const cap = (principal * BigInt(Math.round(figures.total_cost_cap_multiple * 10_000))) / 10_000n;
  const capApplied = uncappedFee + uncappedInterest > cap;
  const fee = capApplied && uncappedFee > cap ? cap : uncappedFee;
  const interest = capApplied ? cap - fee : uncappedInterest;
  const totalCost = fee + interest;
  const totalRepayable = principal + totalCost;
  const periods = BigInt(Math.ceil(input.termDays / FREQUENCIES[input.frequency]));
  const paymentEach = totalRepayable / periods;
  const finalPayment = totalRepayable - paymentEach * (periods - 1n);
  return {
    product: "business_loan",
    currency: "GBP",
    principal: Number(principal),
    term_days: input.termDays,
    frequency: input.frequency,
    establishment_fee: Number(fee),
    total_interest: Number(interest),
    total_cost: Number(totalCost),
    total_repayable: Number(totalRepayable),
    periods: Number(periods),
    payment_each: Number(paymentEach),
    final_payment: Number(finalPayment),
    cap_applied: capApplied,
  };
}

const toPounds = (pence: number): number => pence / 100;

/** The public ring's shape: the same quote in pounds, money keys ending `_pounds`. */
export function oneTimeQuoteInPounds(quote: OneTimeQuotePence, figures: PricingFigures["business_loan"], pricingVersion: number) {
  return {
    product: quote.product,
    currency: quote.currency,
    principal_pounds: toPounds(quote.principal),
    term_days: quote.term_days,
    frequency: quote.frequency,
    daily_rate: figures.daily_rate,
    establishment_fee_pounds: toPounds(quote.establishment_fee),
    total_interest_pounds: toPounds(quote.total_interest),
    total_cost_pounds: toPounds(quote.total_cost),
    total_repayable_pounds: toPounds(quote.total_repayable),
    periods: quote.periods,
    payment_each_pounds: toPounds(quote.payment_each),
    final_payment_pounds: toPounds(quote.final_payment),
    cost_cap_applied: quote.cap_applied,
    pricing_version: pricingVersion,
  };
}

export interface FlexPreviewPence {
  limit: number;
  draw: number;
  months: number;
  draw_fee: number;
  total_interest: number;
  total_repayable: number;
  schedule: Array<{ month: number; payment: number; principal: number; interest: number; balance_after: number }>;
}

/**
 * A Flex draw repaid over `months`: equal principal instalments (the last takes the remainder), interest each
 * month on the balance outstanding at the start of it (monthly_rate, half up to the penny), and the draw fee
 * (draw × draw_fee_rate, half up) added to the first payment.
 */
export function previewFlex(figures: PricingFigures["flex"], input: { limitPounds: number; drawPounds: number; months: number }): FlexPreviewPence {
  const draw = BigInt(input.drawPounds) * 100n;
  const months = BigInt(input.months);
  const fee = divideHalfUp(draw * ratePpm(figures.draw_fee_rate), PPM);
  const instalment = draw / months;
  const schedule: FlexPreviewPence["schedule"] = [];
  let balance = draw;
  let totalInterest = 0n;
  for (let month = 1n; month <= months; month += 1n) {
    const interest = divideHalfUp(balance * ratePpm(figures.monthly_rate), PPM);
    const principal = month === months ? balance : instalment;
    balance -= principal;
    totalInterest += interest;
    const payment = principal + interest + (month === 1n ? fee : 0n);
    schedule.push({ month: Number(month), payment: Number(payment), principal: Number(principal), interest: Number(interest), balance_after: Number(balance) });
  }
  return {
    limit: input.limitPounds * 100,
    draw: Number(draw),
    months: input.months,
    draw_fee: Number(fee),
    total_interest: Number(totalInterest),
    total_repayable: Number(draw + fee + totalInterest),
    schedule,
  };
}

export function flexPreviewInPounds(preview: FlexPreviewPence, figures: PricingFigures["flex"], pricingVersion: number) {
  return {
    product: "flex" as const,
    currency: "GBP" as const,
    limit_pounds: toPounds(preview.limit),
    draw_pounds: toPounds(preview.draw),
    months: preview.months,
    monthly_rate: figures.monthly_rate,
    draw_fee_pounds: toPounds(preview.draw_fee),
    total_interest_pounds: toPounds(preview.total_interest),
    total_repayable_pounds: toPounds(preview.total_repayable),
    schedule: preview.schedule.map((row) => ({
      month: row.month,
      payment_pounds: toPounds(row.payment),
      principal_pounds: toPounds(row.principal),
      interest_pounds: toPounds(row.interest),
      balance_after_pounds: toPounds(row.balance_after),
    })),
    pricing_version: pricingVersion,
  };
}
