// The servicing arithmetic as pure functions (lib/accounts): schedules, daily interest, allocation, payoff and
// the collection plan, checked on examples worked by hand and, with fast-check, on many (amount, term, APR).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { accruedTo, allocateRepayment, applyToInstalments, balanceAsOf, planCollection, type BalanceState, type InstalmentState } from "@/lib/accounts/allocation";
import { addMonths, daysBetween } from "@/lib/accounts/calendar";
import { accrueInterest, periodContaining } from "@/lib/accounts/interest";
import { flexMinimumRepayment, termLoanSchedule } from "@/lib/accounts/schedule";
import { MAX_AMOUNT_PENCE, MAX_TERM_MONTHS, MIN_AMOUNT_PENCE, MIN_TERM_MONTHS } from "@/lib/decisions/pricing-table";

describe("the term-loan schedule", () => {
  it("sums exactly to the principal, with consistent instalments, for many amounts, terms and APRs", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: MIN_AMOUNT_PENCE, max: MAX_AMOUNT_PENCE }),
        fc.integer({ min: MIN_TERM_MONTHS, max: MAX_TERM_MONTHS }),
        fc.integer({ min: 0, max: 3_000 }),
        fc.date({ min: new Date("2026-01-01T00:00:00Z"), max: new Date("2027-12-31T00:00:00Z"), noInvalidDate: true }),
        (principalPence, termMonths, aprBps, opened) => {
          const openedOn = opened.toISOString().slice(0, 10);
          const schedule = termLoanSchedule({ principalPence, aprBps, termMonths, openedOn });
          expect(schedule).toHaveLength(termMonths);
          expect(schedule.reduce((sum, item) => sum + item.principalPence, 0)).toBe(principalPence);
          let balance = principalPence;
          schedule.forEach((item, index) => {
            expect(item.number).toBe(index + 1);
            expect(item.amountPence).toBe(item.principalPence + item.interestPence);
            expect(Number.isSafeInteger(item.interestPence) && item.interestPence >= 0).toBe(true);
            expect(item.principalPence).toBeGreaterThan(0);
            // Each instalment's interest is exactly what accrues on the balance over its period.
            const from = index === 0 ? openedOn : schedule[index - 1]!.dueDate;
            expect(accrueInterest({ principalPence: balance, aprBps, openedOn, from, to: item.dueDate })).toBe(item.interestPence);
            balance -= item.principalPence;
            expect(item.dueDate).toBe(addMonths(openedOn, index + 1));
            if (index < termMonths - 1) expect(item.amountPence).toBe(schedule[0]!.amountPence);
          });
          expect(balance).toBe(0);
        },
      ),
      { numRuns: 300, seed: 20_261_127 },
    );
  });

  it("falls due on the opening day each month, on the month's last day when it is shorter", () => {
    const dates = termLoanSchedule({ principalPence: 1_200_00, aprBps: 0, termMonths: 4, openedOn: "2028-01-31" }).map((item) => item.dueDate);
    expect(dates).toEqual(["2028-02-29", "2028-03-31", "2028-04-30", "2028-05-31"]);
  });

  it("is the level annuity a worked example gives", () => {
    // £10,000 at 24% over 12 months: r = 2%, payment = 1,000,000 × 0.02 / (1 − 1.02^−12) = 94,559.60 → 94,560.
    const schedule = termLoanSchedule({ principalPence: 1_000_000, aprBps: 2400, termMonths: 12, openedOn: "2027-01-15" });
    expect(schedule[0]).toEqual({ number: 1, dueDate: "2027-02-15", principalPence: 74_560, interestPence: 20_000, amountPence: 94_560 });
    expect(schedule[11]!.amountPence).toBeLessThanOrEqual(94_560);
  });
});

describe("daily interest", () => {
  it("accrues a period's monthly interest evenly over its actual days, rounded half-up", () => {
    // Period 1 of an account opened 2027-01-15 runs to 2027-02-15: 31 days; a month's interest on £10,000 at 12% is £100.
    const opened = "2027-01-15";
    expect(accrueInterest({ principalPence: 1_000_000, aprBps: 1200, openedOn: opened, from: opened, to: "2027-02-15" })).toBe(10_000);
    expect(accrueInterest({ principalPence: 1_000_000, aprBps: 1200, openedOn: opened, from: opened, to: "2027-01-16" })).toBe(323); // 10000/31 = 322.58
    expect(accrueInterest({ principalPence: 1_000_000, aprBps: 1200, openedOn: opened, from: opened, to: opened })).toBe(0);
    // Period 2 (2027-02-15 to 03-15) has 28 days: 10000/28 = 357.14 a day.
    expect(accrueInterest({ principalPence: 1_000_000, aprBps: 1200, openedOn: opened, from: "2027-02-15", to: "2027-02-16" })).toBe(357);
    // Across a boundary: 1 day of period 1 and 1 of period 2, each rounded.
    expect(accrueInterest({ principalPence: 1_000_000, aprBps: 1200, openedOn: opened, from: "2027-02-14", to: "2027-02-16" })).toBe(323 + 357);
    expect(accrueInterest({ principalPence: 0, aprBps: 1200, openedOn: opened, from: opened, to: "2028-01-01" })).toBe(0);
  });

  it("finds the period a day falls in", () => {
    expect(periodContaining("2027-01-31", "2027-01-31")).toBe(1);
    expect(periodContaining("2027-01-31", "2027-02-27")).toBe(1);
    expect(periodContaining("2027-01-31", "2027-02-28")).toBe(2);
    expect(periodContaining("2027-01-31", "2028-01-31")).toBe(13);
    expect(daysBetween("2027-02-28", "2027-03-31")).toBe(31);
  });
});

const OPEN: BalanceState = {
  product: "business_term_loan",
  status: "performing",
  aprBps: 1200,
  termMonths: 3,
  openedOn: "2027-01-15",
  principalOutstandingPence: 1_000_000,
  interestAccruedPence: 0,
  feesOutstandingPence: 0,
  interestAccruedThrough: "2027-01-15",
};

function instalments(...rows: Partial<InstalmentState>[]): InstalmentState[] {
  return rows.map((row, index) => ({ number: index + 1, dueDate: addMonths("2027-01-15", index + 1), principalPence: 330_000, interestPence: 10_000, amountPence: 340_000, paidPence: 0, status: "scheduled", ...row }));
}

describe("allocation and payoff", () => {
  it("applies money to interest first, then fees, then principal", () => {
    const owed = { principalOutstandingPence: 1_000, interestAccruedPence: 30, feesOutstandingPence: 5 };
    expect(allocateRepayment(owed, 20)).toEqual({ interestPence: 20, feesPence: 0, principalPence: 0 });
    expect(allocateRepayment(owed, 33)).toEqual({ interestPence: 30, feesPence: 3, principalPence: 0 });
    expect(allocateRepayment(owed, 535)).toEqual({ interestPence: 30, feesPence: 5, principalPence: 500 });
    expect(allocateRepayment(owed, 1_035)).toEqual({ interestPence: 30, feesPence: 5, principalPence: 1_000 });
    expect(() => allocateRepayment(owed, 1_036)).toThrow(RangeError);
    expect(() => allocateRepayment(owed, -1)).toThrow(RangeError);
  });

  it("gives a payoff of principal plus interest to date plus fees, and arrears as what fell due unpaid", () => {
    const state = { ...OPEN, feesOutstandingPence: 250 };
    const rows = instalments({ status: "missed" }, { status: "partially_paid", paidPence: 40_000 }, {});
    expect(balanceAsOf(state, rows, "2027-01-15")).toEqual({ principal_outstanding_pence: 1_000_000, interest_accrued_pence: 0, arrears_pence: 640_000, payoff_pence: 1_000_250 });
    expect(balanceAsOf(state, rows, "2027-02-15")).toEqual({ principal_outstanding_pence: 1_000_000, interest_accrued_pence: 10_000, arrears_pence: 640_000, payoff_pence: 1_010_250 });
    // Settled and closed accounts accrue nothing more.
    expect(balanceAsOf({ ...OPEN, status: "settled", principalOutstandingPence: 0 }, [], "2028-01-01").payoff_pence).toBe(0);
    expect(accruedTo(OPEN, "2027-02-15")).toMatchObject({ interestAccruedPence: 10_000, interestAccruedThrough: "2027-02-15" });
  });

  it("pays instalments in arrears oldest first, then those falling due; one falling due left unpaid is missed", () => {
    const rows = instalments({ status: "missed" }, { status: "partially_paid", paidPence: 40_000 }, {});
    expect(applyToInstalments(rows, [3], 500_000)).toEqual([
      { number: 1, paidPence: 340_000, status: "paid" },
      { number: 2, paidPence: 200_000, status: "partially_paid" },
      { number: 3, paidPence: 0, status: "missed" },
    ]);
    expect(applyToInstalments(rows, [3], 1_000_000)).toEqual([
      { number: 1, paidPence: 340_000, status: "paid" },
      { number: 2, paidPence: 340_000, status: "paid" },
      { number: 3, paidPence: 340_000, status: "paid" },
    ]);
  });
});

describe("the collection plan", () => {
  it("collects the instalment falling due plus arrears, and the payoff on the final due date", () => {
    const rows = instalments({ status: "missed" }, {}, {});
    const second = planCollection({ ...OPEN, interestAccruedPence: 10_000, interestAccruedThrough: "2027-02-15" }, rows, "2027-03-15");
    expect(second).toMatchObject({ dueDate: "2027-03-15", amountPence: 680_000, newInstalment: false, instalment: { number: 2 } });
    const final = planCollection({ ...OPEN, principalOutstandingPence: 340_000, interestAccruedThrough: "2027-03-15" }, instalments({ status: "paid" }, { status: "paid" }, {}), "2027-04-15");
    // The payoff on the final due date: 340,000 principal and one month's interest (3,400).
    expect(final).toMatchObject({ amountPence: 343_400, instalment: { number: 3 } });
    expect(planCollection({ ...OPEN, principalOutstandingPence: 0 }, instalments({}, {}, {}), "2027-02-15")).toBeNull();
  });

  it("sets a Flex minimum repayment of the period's interest and an even share of the drawn principal", () => {
    expect(flexMinimumRepayment({ period: 1, termMonths: 12, principalPence: 120_001, interestPence: 1_200 })).toEqual({ principalPence: 10_001, interestPence: 1_200, amountPence: 11_201 });
    expect(flexMinimumRepayment({ period: 12, termMonths: 12, principalPence: 5_000, interestPence: 50 })).toEqual({ principalPence: 5_000, interestPence: 50, amountPence: 5_050 });
    expect(flexMinimumRepayment({ period: 15, termMonths: 12, principalPence: 5_000, interestPence: 0 }).principalPence).toBe(5_000);
    const flex: BalanceState = { ...OPEN, product: "flex_facility", termMonths: 12 };
    expect(planCollection(flex, [], "2027-02-15")).toMatchObject({ amountPence: 10_000 + Math.ceil(1_000_000 / 12), newInstalment: true, instalment: { number: 1, interestPence: 10_000 } });
    expect(planCollection({ ...flex, principalOutstandingPence: 0 }, [], "2027-02-15")).toBeNull();
  });
});
