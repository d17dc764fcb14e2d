// The published APR table for business term loans. Price falls as the loan grows and as the term lengthens:
// small, short loans carry the same fixed underwriting and servicing cost over less interest-bearing balance.
// The table is data so the same object can be served to partners and shown in the docs unchanged.

export interface AmountBand {
  readonly min_pence: number;
  readonly max_pence: number;
}

export interface TermBand {
  readonly min_months: number;
  readonly max_months: number;
}

export interface PricingBand {
  readonly min_amount_pence: number;
  readonly max_amount_pence: number;
  readonly min_term_months: number;
  readonly max_term_months: number;
  readonly apr_bps: number;
}

export const MIN_AMOUNT_PENCE = 100_000;
export const MAX_AMOUNT_PENCE = 25_000_000;
export const MIN_TERM_MONTHS = 3;
export const MAX_TERM_MONTHS = 60;

export const AMOUNT_BANDS: readonly AmountBand[] = Object.freeze([
  Object.freeze({ min_pence: 100_000, max_pence: 2_499_999 }), // £1,000 – £24,999.99
  Object.freeze({ min_pence: 2_500_000, max_pence: 9_999_999 }), // £25,000 – £99,999.99
  Object.freeze({ min_pence: 10_000_000, max_pence: 25_000_000 }), // £100,000 – £250,000
]);

export const TERM_BANDS: readonly TermBand[] = Object.freeze([
  Object.freeze({ min_months: 3, max_months: 12 }),
  Object.freeze({ min_months: 13, max_months: 24 }),
  Object.freeze({ min_months: 25, max_months: 36 }),
  Object.freeze({ min_months: 37, max_months: 60 }),
]);

// Rows follow AMOUNT_BANDS, columns follow TERM_BANDS.
const APR_BPS_GRID: readonly (readonly number[])[] = [
  //  3–12  13–24  25–36  37–60 months
  [2400, 2100, 1900, 1700], // £1,000 – £24,999.99
  [1900, 1700, 1500, 1300], // £25,000 – £99,999.99
  [1500, 1300, 1100, 900], // £100,000 – £250,000
];

export const PRICING_TABLE: readonly PricingBand[] = Object.freeze(
  AMOUNT_BANDS.flatMap((amountBand, amountIndex) =>
    TERM_BANDS.map((termBand, termIndex) =>
      Object.freeze({
        min_amount_pence: amountBand.min_pence,
        max_amount_pence: amountBand.max_pence,
        min_term_months: termBand.min_months,
        max_term_months: termBand.max_months,
        apr_bps: APR_BPS_GRID[amountIndex]![termIndex]!,
      }),
    ),
  ),
);

export function aprBpsFor({ amountPence, termMonths }: { amountPence: number; termMonths: number }): number {
  if (!Number.isSafeInteger(amountPence) || amountPence < MIN_AMOUNT_PENCE || amountPence > MAX_AMOUNT_PENCE) {
    throw new RangeError(`amountPence must be a whole number of pence from ${MIN_AMOUNT_PENCE} to ${MAX_AMOUNT_PENCE}; got ${amountPence}.`);
  }
  if (!Number.isSafeInteger(termMonths) || termMonths < MIN_TERM_MONTHS || termMonths > MAX_TERM_MONTHS) {
    throw new RangeError(`termMonths must be a whole number from ${MIN_TERM_MONTHS} to ${MAX_TERM_MONTHS}; got ${termMonths}.`);
  }
  const band = PRICING_TABLE.find(
    (candidate) =>
      amountPence >= candidate.min_amount_pence &&
      amountPence <= candidate.max_amount_pence &&
      termMonths >= candidate.min_term_months &&
      termMonths <= candidate.max_term_months,
  );
  // Unreachable while the bands tile the validated range; the pricing-table tests check that they do.
  if (!band) throw new RangeError(`No pricing band covers ${amountPence} pence over ${termMonths} months.`);
  return band.apr_bps;
}
