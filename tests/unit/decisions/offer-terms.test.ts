import { describe, expect, it } from "vitest";
import { computeOfferTerms, type OfferTerms, schedulePreview } from "@/lib/decisions/offer-terms";
import { aprBpsFor } from "@/lib/decisions/pricing-table";

const FIRST_DATE = "2026-01-31";

function offer(principalPence: number, aprBps: number, termMonths: number, firstRepaymentDate = FIRST_DATE): OfferTerms {
  return computeOfferTerms({ principalPence, aprBps, termMonths, firstRepaymentDate });
}

// A deliberately plain re-derivation in ordinary numbers: the float annuity formula, Math.round for half-up
// interest (exact here: balance·aprBps is an integer, so a true .5 quotient is representable and anything else
// is at least 1/120000 away from one), and a running balance.
function referenceSchedule(principal: number, aprBps: number, termMonths: number) {
  const rate = aprBps / 10000 / 12;
  const level = rate === 0 ? Math.ceil(principal / termMonths) : Math.ceil((principal * rate) / (1 - (1 + rate) ** -termMonths));
  const rows: Array<{ payment: number; interest: number; balanceAfter: number }> = [];
  let balance = principal;
  for (let month = 1; month <= termMonths; month += 1) {
    const interest = Math.round((balance * aprBps) / 120000);
    const payment = month === termMonths ? balance + interest : level;
    balance -= payment - interest;
    rows.push({ payment, interest, balanceAfter: balance });
  }
  return { level, rows };
}

function exactAnnuity(principal: number, aprBps: number, termMonths: number): number {
  const rate = aprBps / 120000;
  return rate === 0 ? principal / termMonths : (principal * rate) / (1 - (1 + rate) ** -termMonths);
}

// The bound derived in offer-terms.ts: F − M ≤ (½ − δ)·((1+r)^n − 1)/r when δ = M − A < ½, else F ≤ M.
function finalPaymentExcessBound(principal: number, aprBps: number, termMonths: number, level: number): number {
  const rate = aprBps / 120000;
  const delta = level - exactAnnuity(principal, aprBps, termMonths);
  if (rate === 0 || delta >= 0.5) return 0;
  const amplification = ((1 + rate) ** termMonths - 1) / rate;
  return Math.floor((0.5 - delta) * amplification + 1e-9);
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

describe("golden offers", () => {
  it("repays £10,000 at 12% over 12 months in eleven payments of £888.49 and a final £888.47", () => {
    const expectedLevel = Math.ceil((1_000_000 * 0.01) / (1 - 1.01 ** -12));
    expect(expectedLevel).toBe(88_849);

    const terms = offer(1_000_000, 1200, 12);
    expect(terms).toMatchObject({
      principal_pence: 1_000_000,
      apr_bps: 1200,
      term_months: 12,
      monthly_repayment_pence: 88_849,
      total_repayable_pence: 1_066_186,
      total_interest_pence: 66_186,
    });
    expect(terms.schedule[0]).toEqual({
      number: 1,
      due_date: "2026-01-31",
      payment_pence: 88_849,
      principal_pence: 78_849,
      interest_pence: 10_000,
      balance_after_pence: 921_151,
    });
    expect(terms.schedule[11]).toEqual({
      number: 12,
      due_date: "2026-12-31",
      payment_pence: 88_847,
      principal_pence: 87_967,
      interest_pence: 880,
      balance_after_pence: 0,
    });
  });

  it.each([
    { principal: 100_000, apr: 2400, term: 3, level: 34_676, total: 104_026, last: 34_674 },
    { principal: 2_500_000, apr: 1500, term: 36, level: 86_664, total: 3_119_875, last: 86_635 },
    { principal: 25_000_000, apr: 900, term: 60, level: 518_959, total: 31_137_532, last: 518_951 },
  ])("repays $principal pence at $apr bps over $term months with $level a month and $total in all", ({ principal, apr, term, level, total, last }) => {
    const terms = offer(principal, apr, term);
    expect(terms.monthly_repayment_pence).toBe(level);
    expect(terms.total_repayable_pence).toBe(total);
    expect(terms.total_interest_pence).toBe(total - principal);
    expect(terms.schedule.at(-1)?.payment_pence).toBe(last);
  });
});

describe("schedule invariants across amounts, terms and rates", () => {
  const amounts = [100_000, 123_457, 2_500_000, 25_000_000];
  const terms = [3, 7, 12, 36, 60];
  const aprs = [0, 1, 999, 1500, 2400];
  const combinations = amounts.flatMap((principal) => terms.flatMap((term) => aprs.map((apr) => ({ principal, term, apr }))));

  it("matches a straightforward re-implementation row by row", () => {
    for (const { principal, term, apr } of combinations) {
      const terms = offer(principal, apr, term);
      const reference = referenceSchedule(principal, apr, term);
      expect(terms.monthly_repayment_pence, `${principal}/${apr}/${term}`).toBe(reference.level);
      expect(
        terms.schedule.map((row) => ({ payment: row.payment_pence, interest: row.interest_pence, balanceAfter: row.balance_after_pence })),
        `${principal}/${apr}/${term}`,
      ).toEqual(reference.rows);
    }
  });

  it("accounts for every penny: payments sum to principal plus interest and the balance ends at 0", () => {
    for (const { principal, term, apr } of combinations) {
      const { schedule, total_repayable_pence, total_interest_pence } = offer(principal, apr, term);
      const payments = schedule.map((row) => row.payment_pence);
      expect(schedule).toHaveLength(term);
      expect(total_repayable_pence).toBe(sum(payments));
      expect(total_interest_pence).toBe(total_repayable_pence - principal);
      expect(sum(payments)).toBe(principal + sum(schedule.map((row) => row.interest_pence)));
      expect(sum(schedule.map((row) => row.principal_pence))).toBe(principal);
      expect(schedule.at(-1)?.balance_after_pence).toBe(0);
    }
  });

  it("keeps every row consistent, with balances positive and falling until the last", () => {
    for (const { principal, term, apr } of combinations) {
      const { schedule } = offer(principal, apr, term);
      let balanceBefore = principal;
      schedule.forEach((row, index) => {
        expect(row.number).toBe(index + 1);
        expect(row.payment_pence).toBe(row.principal_pence + row.interest_pence);
        expect(row.balance_after_pence).toBe(balanceBefore - row.principal_pence);
        expect(row.principal_pence).toBeGreaterThan(0);
        if (index < term - 1) expect(row.balance_after_pence).toBeGreaterThan(0);
        balanceBefore = row.balance_after_pence;
      });
    }
  });

  it("charges the level payment every month but the last, the annuity rounded up to the penny", () => {
    for (const { principal, term, apr } of combinations) {
      const { schedule, monthly_repayment_pence: level } = offer(principal, apr, term);
      const annuity = exactAnnuity(principal, apr, term);
      expect(level).toBeGreaterThanOrEqual(annuity - 1e-6);
      expect(level - 1).toBeLessThan(annuity - 1e-6);
      for (const row of schedule.slice(0, -1)) expect(row.payment_pence).toBe(level);
    }
  });

  it("ends with a final payment above zero and within the proven rounding-drift bound of the level payment", () => {
    for (const { principal, term, apr } of combinations) {
      const { schedule, monthly_repayment_pence: level } = offer(principal, apr, term);
      const last = schedule.at(-1)!.payment_pence;
      expect(last).toBeGreaterThan(0);
      expect(last - level, `${principal}/${apr}/${term}`).toBeLessThanOrEqual(finalPaymentExcessBound(principal, apr, term, level));
      expect(last).toBeLessThanOrEqual(2 * level);
    }
  });

  it("can end a few pence above the level payment when interest roundings drift up", () => {
    const terms = offer(100_000, 1500, 60);
    expect(terms.schedule.at(-1)!.payment_pence - terms.monthly_repayment_pence).toBe(2);
    expect(finalPaymentExcessBound(100_000, 1500, 60, terms.monthly_repayment_pence)).toBeGreaterThanOrEqual(2);
  });

  it("returns only safe integers for money, counts and numbers", () => {
    for (const { principal, term, apr } of combinations) {
      const terms = offer(principal, apr, term);
      const { schedule, ...totals } = terms;
      for (const value of Object.values(totals)) expect(Number.isSafeInteger(value)).toBe(true);
      for (const row of schedule) {
        const { due_date: _dueDate, ...amounts } = row;
        for (const value of Object.values(amounts)) expect(Number.isSafeInteger(value)).toBe(true);
      }
    }
  });

  it("never refuses an offer priced from the pricing table, and ends within 46 pence of the level payment", () => {
    const amounts = [100_000, 2_499_999, 2_500_000, 9_999_999, 10_000_000, 25_000_000];
    for (let amount = 100_000; amount <= 25_000_000; amount += 248_713) amounts.push(amount);
    for (let term = 3; term <= 60; term += 1) {
      for (const amount of amounts) {
        const terms = offer(amount, aprBpsFor({ amountPence: amount, termMonths: term }), term);
        expect(terms.schedule.at(-1)!.payment_pence - terms.monthly_repayment_pence).toBeLessThanOrEqual(46);
      }
    }
  });
});

describe("zero APR", () => {
  it("splits the principal into level payments rounded up, the last taking the remainder, with no interest", () => {
    const terms = offer(100_000, 0, 7);
    expect(terms.monthly_repayment_pence).toBe(14_286);
    expect(terms.schedule.map((row) => row.payment_pence)).toEqual([14_286, 14_286, 14_286, 14_286, 14_286, 14_286, 14_284]);
    expect(terms.schedule.every((row) => row.interest_pence === 0)).toBe(true);
    expect(terms.total_interest_pence).toBe(0);
    expect(terms.total_repayable_pence).toBe(100_000);
  });

  it("charges equal payments when the principal divides evenly", () => {
    const terms = offer(120_000, 0, 12);
    expect(terms.schedule.every((row) => row.payment_pence === 10_000)).toBe(true);
    expect(terms.total_repayable_pence).toBe(120_000);
  });

  it("gives the remainder to the last payment for an awkward principal", () => {
    const terms = offer(123_457, 0, 60);
    expect(terms.monthly_repayment_pence).toBe(2058);
    expect(terms.schedule.at(-1)?.payment_pence).toBe(123_457 - 59 * 2058);
    expect(terms.total_interest_pence).toBe(0);
  });
});

describe("due dates", () => {
  const dueDates = (firstRepaymentDate: string, termMonths: number) =>
    offer(1_000_000, 1200, termMonths, firstRepaymentDate).schedule.map((row) => row.due_date);

  it("clamps to the end of short months but returns to the anchor day of 31", () => {
    expect(dueDates("2026-01-31", 5)).toEqual(["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31"]);
  });

  it("falls on 29 February in a leap year", () => {
    expect(dueDates("2028-01-31", 3)).toEqual(["2028-01-31", "2028-02-29", "2028-03-31"]);
    expect(dueDates("2027-12-29", 3)).toEqual(["2027-12-29", "2028-01-29", "2028-02-29"]);
  });

  it("anchors a 29 February start to the 29th, clamping in common years", () => {
    const dates = dueDates("2028-02-29", 49);
    expect(dates.slice(0, 2)).toEqual(["2028-02-29", "2028-03-29"]);
    expect(dates[12]).toBe("2029-02-28");
    expect(dates[48]).toBe("2032-02-29");
  });

  it("rolls over the year and keeps the day of the month", () => {
    expect(dueDates("2026-11-30", 4)).toEqual(["2026-11-30", "2026-12-30", "2027-01-30", "2027-02-28"]);
  });

  it("does not depend on the local time zone", () => {
    const originalZone = process.env.TZ;
    try {
      const byZone = ["UTC", "Pacific/Kiritimati", "America/Adak"].map((zone) => {
        process.env.TZ = zone;
        return dueDates("2026-01-31", 24);
      });
      expect(byZone[1]).toEqual(byZone[0]);
      expect(byZone[2]).toEqual(byZone[0]);
    } finally {
      if (originalZone === undefined) delete process.env.TZ;
      else process.env.TZ = originalZone;
    }
  });
});

describe("schedule preview", () => {
  const terms = offer(1_000_000, 1200, 12);

  it("shows the first three rows by default", () => {
    expect(schedulePreview(terms)).toEqual(terms.schedule.slice(0, 3));
  });

  it("shows as many rows as asked, up to the whole schedule", () => {
    expect(schedulePreview(terms, 1)).toEqual([terms.schedule[0]]);
    expect(schedulePreview(terms, 0)).toEqual([]);
    expect(schedulePreview(terms, 50)).toEqual(terms.schedule);
  });

  it("refuses a negative or fractional count", () => {
    expect(() => schedulePreview(terms, -1)).toThrow(RangeError);
    expect(() => schedulePreview(terms, 1.5)).toThrow(RangeError);
  });
});

describe("input validation", () => {
  it.each([
    { principalPence: 0 },
    { principalPence: -100_000 },
    { principalPence: 100_000.5 },
    { principalPence: Number.NaN },
    { principalPence: Number.MAX_SAFE_INTEGER + 1 },
    { aprBps: -1 },
    { aprBps: 10_001 },
    { aprBps: 1200.5 },
    { termMonths: 0 },
    { termMonths: 601 },
    { termMonths: 12.5 },
    { firstRepaymentDate: "2026-02-30" },
    { firstRepaymentDate: "2025-02-29" },
    { firstRepaymentDate: "2026-13-01" },
    { firstRepaymentDate: "2026-00-10" },
    { firstRepaymentDate: "2026-1-31" },
    { firstRepaymentDate: "2026-01-31T00:00:00Z" },
    { firstRepaymentDate: "0000-01-01" },
    { firstRepaymentDate: "" },
  ])("refuses %o with a RangeError", (override) => {
    const input = { principalPence: 1_000_000, aprBps: 1200, termMonths: 12, firstRepaymentDate: FIRST_DATE, ...override };
    expect(() => computeOfferTerms(input)).toThrow(RangeError);
  });

  it("accepts the edges of the allowed ranges", () => {
    expect(offer(1, 0, 1).schedule).toEqual([
      { number: 1, due_date: FIRST_DATE, payment_pence: 1, principal_pence: 1, interest_pence: 0, balance_after_pence: 0 },
    ]);
    expect(offer(25_000_000, 0, 600).schedule.at(-1)).toMatchObject({ number: 600, due_date: "2075-12-31", balance_after_pence: 0 });
    expect(offer(1_000_000, 10_000, 12).total_interest_pence).toBeGreaterThan(0);
  });

  it("refuses terms whose level payment would clear the loan before the last month", () => {
    expect(() => offer(100_000, 0, 600)).toThrow(/clears the loan before month 600/);
    expect(() => offer(5, 0, 12)).toThrow(RangeError);
  });

  it("refuses terms where compounded penny roundings could more than double the final payment", () => {
    expect(() => offer(25_000_000, 5000, 600)).toThrow(/penny roundings compounded/);
    expect(() => offer(100_411, 3000, 240)).toThrow(RangeError);
  });
});
