import { describe, expect, it } from "vitest";
import { AMOUNT_BANDS, aprBpsFor, PRICING_TABLE, TERM_BANDS } from "@/lib/decisions/pricing-table";

const BOUNDARY_TERMS = [3, 12, 13, 24, 25, 36, 37, 60];

describe("APR for an amount and term", () => {
  it.each([
    { amountPence: 100_000, expected: [2400, 2400, 2100, 2100, 1900, 1900, 1700, 1700] },
    { amountPence: 2_499_999, expected: [2400, 2400, 2100, 2100, 1900, 1900, 1700, 1700] },
    { amountPence: 2_500_000, expected: [1900, 1900, 1700, 1700, 1500, 1500, 1300, 1300] },
    { amountPence: 9_999_999, expected: [1900, 1900, 1700, 1700, 1500, 1500, 1300, 1300] },
    { amountPence: 10_000_000, expected: [1500, 1500, 1300, 1300, 1100, 1100, 900, 900] },
    { amountPence: 25_000_000, expected: [1500, 1500, 1300, 1300, 1100, 1100, 900, 900] },
  ])("prices $amountPence pence at each term band boundary", ({ amountPence, expected }) => {
    expect(BOUNDARY_TERMS.map((termMonths) => aprBpsFor({ amountPence, termMonths }))).toEqual(expected);
  });

  it.each([
    { amountPence: 99_999, termMonths: 12 },
    { amountPence: 25_000_001, termMonths: 12 },
    { amountPence: 1_000_000, termMonths: 2 },
    { amountPence: 1_000_000, termMonths: 61 },
    { amountPence: 0, termMonths: 12 },
    { amountPence: -1_000_000, termMonths: 12 },
    { amountPence: 1_000_000.5, termMonths: 12 },
    { amountPence: 1_000_000, termMonths: 12.5 },
    { amountPence: Number.NaN, termMonths: 12 },
    { amountPence: 1_000_000, termMonths: Number.POSITIVE_INFINITY },
  ])("refuses $amountPence pence over $termMonths months with a RangeError", (input) => {
    expect(() => aprBpsFor(input)).toThrow(RangeError);
  });
});

describe("the published pricing table", () => {
  it("tiles £1,000–£250,000 and 3–60 months with no gaps or overlaps", () => {
    expect(AMOUNT_BANDS[0]?.min_pence).toBe(100_000);
    expect(AMOUNT_BANDS.at(-1)?.max_pence).toBe(25_000_000);
    AMOUNT_BANDS.slice(1).forEach((band, index) => expect(band.min_pence).toBe(AMOUNT_BANDS[index]!.max_pence + 1));
    expect(TERM_BANDS[0]?.min_months).toBe(3);
    expect(TERM_BANDS.at(-1)?.max_months).toBe(60);
    TERM_BANDS.slice(1).forEach((band, index) => expect(band.min_months).toBe(TERM_BANDS[index]!.max_months + 1));
    expect(PRICING_TABLE).toHaveLength(AMOUNT_BANDS.length * TERM_BANDS.length);
  });

  it("charges between 900 and 2400 bps, never more for a larger amount or a longer term", () => {
    for (const band of PRICING_TABLE) {
      expect(band.apr_bps).toBeGreaterThanOrEqual(900);
      expect(band.apr_bps).toBeLessThanOrEqual(2400);
      for (const other of PRICING_TABLE) {
        if (other.min_amount_pence >= band.min_amount_pence && other.min_term_months >= band.min_term_months) {
          expect(other.apr_bps).toBeLessThanOrEqual(band.apr_bps);
        }
      }
    }
  });

  it("is frozen plain data that survives JSON unchanged, so it can be published as is", () => {
    expect(Object.isFrozen(PRICING_TABLE)).toBe(true);
    expect(PRICING_TABLE.every((band) => Object.isFrozen(band))).toBe(true);
    expect(JSON.parse(JSON.stringify(PRICING_TABLE))).toEqual(PRICING_TABLE);
    expect(PRICING_TABLE[0]).toEqual({
      min_amount_pence: 100_000,
      max_amount_pence: 2_499_999,
      min_term_months: 3,
      max_term_months: 12,
      apr_bps: 2400,
    });
  });

  it("agrees with aprBpsFor at every corner of every band", () => {
    for (const band of PRICING_TABLE) {
      for (const amountPence of [band.min_amount_pence, band.max_amount_pence]) {
        for (const termMonths of [band.min_term_months, band.max_term_months]) {
          expect(aprBpsFor({ amountPence, termMonths })).toBe(band.apr_bps);
        }
      }
    }
  });
});
