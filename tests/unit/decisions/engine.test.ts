// The decision engine (lib/decisions/engine.ts): pure, so every case is an input and its exact outcome. Sandbox
// answers by the company number's last four digits (brief and docs/sandbox); live applies its documented rules in
// order. Prices come from the published APR table; offer terms from the offer arithmetic.
import { describe, expect, it } from "vitest";
import { manualDecision, monthsBetween, oneMonthAfter, runDecisionEngine, type EngineDecision, type EngineInput } from "@/lib/decisions/engine";
import { computeOfferTerms } from "@/lib/decisions/offer-terms";
import { aprBpsFor } from "@/lib/decisions/pricing-table";

const NOW = new Date("2026-06-15T12:00:00.000Z");

function sandbox(companyNumber: string, overrides: Partial<EngineInput> = {}): EngineInput {
  return {
    environment: "sandbox",
    companyNumber,
    incorporatedOn: "1969-07-01",
    amountPence: 1_234_567,
    termMonths: 24,
    declaredAnnualTurnoverPence: null,
    openBankingAnnualTurnoverPence: null,
    identity: null,
    namedPeopleIdentity: [],
    now: NOW,
    ...overrides,
  };
}

/**
 * A live application with everything an approval needs collected: the applicant verified, and an affordability
 * record whose turnover is far above the declared one, so the declared turnover is what the rules weigh.
 */
function live(overrides: Partial<EngineInput> = {}): EngineInput {
  return {
    environment: "live",
    companyNumber: "12345678",
    incorporatedOn: "2020-01-01",
    amountPence: 2_000_000,
    termMonths: 36,
    declaredAnnualTurnoverPence: 50_000_000,
    openBankingAnnualTurnoverPence: 10_000_000_000,
    identity: "verified",
    namedPeopleIdentity: ["verified"],
    now: NOW,
    ...overrides,
  };
}

function declinedFor(reason: string): EngineDecision {
  return { outcome: "declined", approvedAmountPence: 0, aprBps: 0, reasons: [reason as never], conditions: [], offerTerms: null };
}

const REFERRED_CONDITIONS = [{ code: "manual_review", description: "An underwriter is reviewing the application." }];
const AFFORDABILITY_MISSING = { code: "affordability_missing", description: "No affordability record: twelve months of the company's turnover from open banking are needed." };
const GUARANTEE = { code: "personal_guarantee", description: "A director's personal guarantee is required before funding." };

function reduced(approvedPence: number, requestedPence: number) {
  return { code: "reduced_amount", description: `Approved for ${approvedPence} pence of the ${requestedPence} requested.` };
}

/** Asserts an approval's exact figures and that its offer is the offer arithmetic's for them, first due a month on. */
function expectApproval(decision: EngineDecision, expected: { amountPence: number; aprBps: number; termMonths: number; conditions: unknown[]; firstDueDate: string }) {
  expect(decision).toMatchObject({
    outcome: "approved",
    approvedAmountPence: expected.amountPence,
    aprBps: expected.aprBps,
    reasons: [],
    conditions: expected.conditions,
  });
  expect(decision.offerTerms).toEqual(
    computeOfferTerms({ principalPence: expected.amountPence, aprBps: expected.aprBps, termMonths: expected.termMonths, firstRepaymentDate: expected.firstDueDate }),
  );
  const terms = decision.offerTerms!;
  expect(terms).toMatchObject({ principal_pence: expected.amountPence, apr_bps: expected.aprBps, term_months: expected.termMonths });
  expect(terms.total_repayable_pence).toBe(terms.principal_pence + terms.total_interest_pence);
  expect(terms.schedule).toHaveLength(expected.termMonths);
  expect(terms.schedule[0]!.due_date).toBe(expected.firstDueDate);
}

describe("the sandbox engine's magic numbers", () => {
  it.each([
    ["12340001", "adverse_credit"],
    ["12340002", "affordability"],
    ["12340003", "insufficient_trading_history"],
    ["12340004", "identity_unverified"],
    ["SC120005", "out_of_appetite"],
  ])("declines %s for %s with no amount, price, conditions or offer", (companyNumber, reason) => {
    expect(runDecisionEngine(sandbox(companyNumber))).toEqual(declinedFor(reason));
  });

  it("refers 0006 with the manual_review condition, a price for the amount asked, and no offer", () => {
    expect(runDecisionEngine(sandbox("12340006"))).toEqual({
      outcome: "referred",
      approvedAmountPence: 0,
      aprBps: 2100,
      reasons: [],
      conditions: REFERRED_CONDITIONS,
      offerTerms: null,
    });
    expect(aprBpsFor({ amountPence: 1_234_567, termMonths: 24 })).toBe(2100);
  });

  it("approves 0007 for half the amount rounded down to whole pounds: £12,345.67 asked, £6,172 offered", () => {
    const decision = runDecisionEngine(sandbox("12340007"));

    expectApproval(decision, { amountPence: 617_200, aprBps: 2100, termMonths: 24, conditions: [reduced(617_200, 1_234_567)], firstDueDate: "2026-07-15" });
  });

  it("approves 0007 on the smallest loan for £500, priced as the product minimum", () => {
    const decision = runDecisionEngine(sandbox("00010007", { amountPence: 100_000, termMonths: 12 }));

    expect(aprBpsFor({ amountPence: 100_000, termMonths: 12 })).toBe(2400);
    expectApproval(decision, { amountPence: 50_000, aprBps: 2400, termMonths: 12, conditions: [reduced(50_000, 100_000)], firstDueDate: "2026-07-15" });
  });

  it("prices the 0007 half by the band of the amount offered, not the amount asked", () => {
    // £30,000 asked (the £25k–£100k band, 1700 bps at 24 months); £15,000 offered (the smallest band, 2100 bps).
    const decision = runDecisionEngine(sandbox("12340007", { amountPence: 3_000_000 }));

    expectApproval(decision, { amountPence: 1_500_000, aprBps: 2100, termMonths: 24, conditions: [reduced(1_500_000, 3_000_000)], firstDueDate: "2026-07-15" });
  });

  it("approves any other number in full at the table's price with no conditions", () => {
    const decision = runDecisionEngine(sandbox("12345678"));

    expectApproval(decision, { amountPence: 1_234_567, aprBps: 2100, termMonths: 24, conditions: [], firstDueDate: "2026-07-15" });
  });

  it("asks for a personal guarantee on an approval above £100,000", () => {
    const decision = runDecisionEngine(sandbox("12345678", { amountPence: 10_000_100, termMonths: 60 }));

    expectApproval(decision, { amountPence: 10_000_100, aprBps: 900, termMonths: 60, conditions: [GUARANTEE], firstDueDate: "2026-07-15" });
  });

  it("asks for no guarantee at exactly £100,000", () => {
    const decision = runDecisionEngine(sandbox("12345678", { amountPence: 10_000_000, termMonths: 12 }));

    expectApproval(decision, { amountPence: 10_000_000, aprBps: 1500, termMonths: 12, conditions: [], firstDueDate: "2026-07-15" });
  });

  it("lists reduced_amount before personal_guarantee when a halved offer is still above £100,000", () => {
    const decision = runDecisionEngine(sandbox("12340007", { amountPence: 25_000_000, termMonths: 36 }));

    expectApproval(decision, {
      amountPence: 12_500_000,
      aprBps: 1100,
      termMonths: 36,
      conditions: [reduced(12_500_000, 25_000_000), GUARANTEE],
      firstDueDate: "2026-07-15",
    });
  });

  it("sets the first repayment one calendar month after the decision, clamped to the month's end", () => {
    const decision = runDecisionEngine(sandbox("12345678", { now: new Date("2026-01-31T23:30:00.000Z"), termMonths: 3 }));

    expect(decision.offerTerms!.schedule.map((row) => row.due_date)).toEqual(["2026-02-28", "2026-03-28", "2026-04-28"]);
  });

  it("ignores trading history and turnover: a company incorporated last month with no turnover is approved in full", () => {
    const decision = runDecisionEngine(
      sandbox("12345678", { incorporatedOn: "2026-05-20", declaredAnnualTurnoverPence: null, amountPence: 25_000_000, termMonths: 60 }),
    );

    expectApproval(decision, { amountPence: 25_000_000, aprBps: 900, termMonths: 60, conditions: [GUARANTEE], firstDueDate: "2026-07-15" });
  });

  it("declines 0003 for insufficient trading history even when the company has traded for decades", () => {
    expect(runDecisionEngine(sandbox("12340003", { incorporatedOn: "1969-07-01", declaredAnnualTurnoverPence: 900_000_000 }))).toEqual(
      declinedFor("insufficient_trading_history"),
    );
  });
});

describe("the live engine's rules, in order", () => {
  describe("1. trading history of at least 12 months", () => {
    it("passes a company incorporated exactly 12 months before the decision", () => {
      const decision = runDecisionEngine(live({ incorporatedOn: "2025-06-15" }));

      expectApproval(decision, { amountPence: 2_000_000, aprBps: 1900, termMonths: 36, conditions: [], firstDueDate: "2026-07-15" });
    });

    it("declines insufficient_trading_history at 11 months and 30 days", () => {
      expect(runDecisionEngine(live({ incorporatedOn: "2025-06-16" }))).toEqual(declinedFor("insufficient_trading_history"));
    });

    it("declines a company incorporated after the decision date", () => {
      expect(runDecisionEngine(live({ incorporatedOn: "2026-09-01" }))).toEqual(declinedFor("insufficient_trading_history"));
    });

    it("checks trading history before appetite and turnover", () => {
      expect(runDecisionEngine(live({ incorporatedOn: "2026-01-01", amountPence: 25_000_000, declaredAnnualTurnoverPence: null }))).toEqual(
        declinedFor("insufficient_trading_history"),
      );
    });
  });

  describe("2. the appetite ceiling for the trading history", () => {
    const rich = 1_000_000_000; // £10m turnover: affordability never binds in these cases

    it.each([
      ["12 months", "2025-06-15", 5_000_000],
      ["23 months", "2024-07-15", 5_000_000],
      ["24 months", "2024-06-15", 15_000_000],
      ["59 months", "2021-07-15", 15_000_000],
      ["60 months", "2021-06-15", 25_000_000],
    ])("approves in full at the ceiling after %s of trading", (_history, incorporatedOn, ceilingPence) => {
      const decision = runDecisionEngine(live({ incorporatedOn, amountPence: ceilingPence, declaredAnnualTurnoverPence: rich }));

      expect(decision).toMatchObject({ outcome: "approved", approvedAmountPence: ceilingPence, reasons: [] });
    });

    it.each([
      ["12 months", "2025-06-15", 5_000_001],
      ["23 months", "2024-07-15", 5_000_001],
      ["59 months", "2021-07-15", 15_000_001],
    ])("declines out_of_appetite a penny above the ceiling after %s of trading", (_history, incorporatedOn, amountPence) => {
      expect(runDecisionEngine(live({ incorporatedOn, amountPence, declaredAnnualTurnoverPence: rich }))).toEqual(declinedFor("out_of_appetite"));
    });

    it("raises the ceiling to £150,000 on the 24-month anniversary", () => {
      const decision = runDecisionEngine(live({ incorporatedOn: "2024-06-15", amountPence: 5_000_001, declaredAnnualTurnoverPence: rich }));

      expect(decision).toMatchObject({ outcome: "approved", approvedAmountPence: 5_000_001 });
    });

    it("lends up to the product maximum of £250,000 after 60 months", () => {
      const decision = runDecisionEngine(live({ incorporatedOn: "2021-06-15", amountPence: 25_000_000, termMonths: 60, declaredAnnualTurnoverPence: rich }));

      expectApproval(decision, { amountPence: 25_000_000, aprBps: 900, termMonths: 60, conditions: [GUARANTEE], firstDueDate: "2026-07-15" });
    });

    it("checks appetite before asking for turnover", () => {
      expect(runDecisionEngine(live({ incorporatedOn: "2025-06-15", amountPence: 5_000_001, declaredAnnualTurnoverPence: null }))).toEqual(
        declinedFor("out_of_appetite"),
      );
    });
  });

  describe("3. declared turnover", () => {
    it("refers an application with no declared turnover, priced for the amount asked", () => {
      expect(runDecisionEngine(live({ amountPence: 3_000_000, termMonths: 36, declaredAnnualTurnoverPence: null, openBankingAnnualTurnoverPence: null }))).toEqual({
        outcome: "referred",
        approvedAmountPence: 0,
        aprBps: 1500,
        reasons: [],
        conditions: [...REFERRED_CONDITIONS, AFFORDABILITY_MISSING],
        offerTerms: null,
      });
    });

    it("treats a declared turnover of zero as declared: declined affordability, not referred", () => {
      expect(runDecisionEngine(live({ declaredAnnualTurnoverPence: 0 }))).toEqual(declinedFor("affordability"));
    });
  });

  describe("4–6. affordability against declared turnover (£100,000 a year here)", () => {
    const turnover = 10_000_000;

    it("declines affordability a penny above 40% of turnover", () => {
      expect(runDecisionEngine(live({ amountPence: 4_000_001, declaredAnnualTurnoverPence: turnover }))).toEqual(declinedFor("affordability"));
    });

    it("approves exactly 40% of turnover for 20% of turnover, with reduced_amount", () => {
      const decision = runDecisionEngine(live({ amountPence: 4_000_000, declaredAnnualTurnoverPence: turnover }));

      expectApproval(decision, { amountPence: 2_000_000, aprBps: 1900, termMonths: 36, conditions: [reduced(2_000_000, 4_000_000)], firstDueDate: "2026-07-15" });
    });

    it("approves a penny above 20% of turnover for 20% of turnover", () => {
      const decision = runDecisionEngine(live({ amountPence: 2_000_001, declaredAnnualTurnoverPence: turnover }));

      expectApproval(decision, { amountPence: 2_000_000, aprBps: 1900, termMonths: 36, conditions: [reduced(2_000_000, 2_000_001)], firstDueDate: "2026-07-15" });
    });

    it("approves exactly 20% of turnover in full with no conditions", () => {
      const decision = runDecisionEngine(live({ amountPence: 2_000_000, declaredAnnualTurnoverPence: turnover }));

      expectApproval(decision, { amountPence: 2_000_000, aprBps: 1900, termMonths: 36, conditions: [], firstDueDate: "2026-07-15" });
    });

    it("approves well under 20% of turnover in full", () => {
      const decision = runDecisionEngine(live({ amountPence: 150_000, termMonths: 6, declaredAnnualTurnoverPence: turnover }));

      expectApproval(decision, { amountPence: 150_000, aprBps: 2400, termMonths: 6, conditions: [], firstDueDate: "2026-07-15" });
    });

    it("rounds 20% of turnover down to whole pounds and prices the amount offered", () => {
      // 20% of £100,009.99 is £20,001.998: offered £20,001, in the smallest band although £30,000 was asked.
      const decision = runDecisionEngine(live({ amountPence: 3_000_000, termMonths: 24, declaredAnnualTurnoverPence: 10_000_999 }));

      expectApproval(decision, { amountPence: 2_000_100, aprBps: 2100, termMonths: 24, conditions: [reduced(2_000_100, 3_000_000)], firstDueDate: "2026-07-15" });
    });

    it("declines affordability when 20% of turnover is under the £1,000 product minimum", () => {
      // 20% of £4,999.99 is £999.998, £999 in whole pounds; £1,500 asked is 30% of turnover.
      expect(runDecisionEngine(live({ amountPence: 150_000, declaredAnnualTurnoverPence: 499_999 }))).toEqual(declinedFor("affordability"));
    });

    it("approves for the product minimum when 20% of turnover is exactly £1,000", () => {
      const decision = runDecisionEngine(live({ amountPence: 150_000, termMonths: 12, declaredAnnualTurnoverPence: 500_000 }));

      expectApproval(decision, { amountPence: 100_000, aprBps: 2400, termMonths: 12, conditions: [reduced(100_000, 150_000)], firstDueDate: "2026-07-15" });
    });
  });

  it("ignores the sandbox's magic suffixes: a live 0001 that passes every rule is approved", () => {
    const decision = runDecisionEngine(live({ companyNumber: "12340001" }));

    expectApproval(decision, { amountPence: 2_000_000, aprBps: 1900, termMonths: 36, conditions: [], firstDueDate: "2026-07-15" });
  });
});

const IDENTITY_REVIEW = { code: "identity_review", description: "An underwriter is reviewing the identity check of the company's directors or people with significant control." };

describe("what the journey collected, in the sandbox", () => {
  it.each([
    ["12340001", "adverse_credit"],
    ["12340002", "affordability"],
    ["12340003", "insufficient_trading_history"],
    ["12340004", "identity_unverified"],
    ["SC120005", "out_of_appetite"],
  ])("keeps the magic decline of %s (%s) whatever identity and open banking say", (companyNumber, reason) => {
    for (const identity of ["failed", "review_required", "verified"] as const) {
      expect(runDecisionEngine(sandbox(companyNumber, { identity, openBankingAnnualTurnoverPence: 0 }))).toEqual(declinedFor(reason));
    }
  });

  it("keeps 0006 referred, with manual_review alone, whatever identity and open banking say", () => {
    const decision = runDecisionEngine(sandbox("12340006", { identity: "failed", openBankingAnnualTurnoverPence: 0 }));
    expect(decision).toMatchObject({ outcome: "referred", conditions: REFERRED_CONDITIONS });
  });

  it("declines identity_unverified when the newest identity check failed", () => {
    expect(runDecisionEngine(sandbox("12345678", { identity: "failed" }))).toEqual(declinedFor("identity_unverified"));
  });

  it("refers with identity_review beside manual_review when the newest identity check is in review", () => {
    expect(runDecisionEngine(sandbox("12345678", { identity: "review_required" }))).toEqual({
      outcome: "referred",
      approvedAmountPence: 0,
      aprBps: 2100,
      reasons: [],
      conditions: [...REFERRED_CONDITIONS, IDENTITY_REVIEW],
      offerTerms: null,
    });
  });

  it("approves in full when the identity check verified everyone", () => {
    expectApproval(runDecisionEngine(sandbox("12345678", { identity: "verified" })), { amountPence: 1_234_567, aprBps: 2100, termMonths: 24, conditions: [], firstDueDate: "2026-07-15" });
  });

  it("weighs no declared turnover without open banking: a tiny declared turnover is still approved in full", () => {
    expectApproval(runDecisionEngine(sandbox("12345678", { declaredAnnualTurnoverPence: 100 })), { amountPence: 1_234_567, aprBps: 2100, termMonths: 24, conditions: [], firstDueDate: "2026-07-15" });
  });

  it("declines affordability when open banking shows too little, though the declared turnover would pass", () => {
    // £12,345.67 asked: above 40% of £30,000 seen through open banking; within 20% of the £1m declared.
    expect(runDecisionEngine(sandbox("12345678", { declaredAnnualTurnoverPence: 100_000_000, openBankingAnnualTurnoverPence: 3_000_000 }))).toEqual(
      declinedFor("affordability"),
    );
  });

  it("declines affordability when the declared turnover is too little, though open banking would pass: the lower counts", () => {
    expect(runDecisionEngine(sandbox("12345678", { declaredAnnualTurnoverPence: 3_000_000, openBankingAnnualTurnoverPence: 100_000_000 }))).toEqual(
      declinedFor("affordability"),
    );
  });

  it("offers 20% of the lower turnover when the amount is between 20% and 40% of it", () => {
    const decision = runDecisionEngine(sandbox("12345678", { declaredAnnualTurnoverPence: 100_000_000, openBankingAnnualTurnoverPence: 5_000_000 }));
    expectApproval(decision, { amountPence: 1_000_000, aprBps: 2100, termMonths: 24, conditions: [reduced(1_000_000, 1_234_567)], firstDueDate: "2026-07-15" });
  });

  it("weighs open banking alone when nothing was declared", () => {
    expect(runDecisionEngine(sandbox("12345678", { openBankingAnnualTurnoverPence: 3_000_000 }))).toEqual(declinedFor("affordability"));
  });

  it("applies affordability to 0007's half: £12,345.67 asked, £6,172 offered, affordable on £31,000", () => {
    const decision = runDecisionEngine(sandbox("12340007", { openBankingAnnualTurnoverPence: 3_100_000 }));
    expectApproval(decision, { amountPence: 617_200, aprBps: 2100, termMonths: 24, conditions: [reduced(617_200, 1_234_567)], firstDueDate: "2026-07-15" });
  });

  it("declines a failed identity before affordability, and affordability before an identity review", () => {
    expect(runDecisionEngine(sandbox("12345678", { identity: "failed", openBankingAnnualTurnoverPence: 0 }))).toEqual(declinedFor("identity_unverified"));
    expect(runDecisionEngine(sandbox("12345678", { identity: "review_required", openBankingAnnualTurnoverPence: 0 }))).toEqual(declinedFor("affordability"));
  });
});

describe("what the journey collected, live", () => {
  it("declines identity_unverified first, before trading history", () => {
    expect(runDecisionEngine(live({ namedPeopleIdentity: ["verified", "failed"], incorporatedOn: "2026-05-01" }))).toEqual(declinedFor("identity_unverified"));
  });

  it("weighs open-banking turnover when nothing was declared, where it referred before", () => {
    expect(runDecisionEngine(live({ declaredAnnualTurnoverPence: null, openBankingAnnualTurnoverPence: 4_999_999 }))).toEqual(declinedFor("affordability"));
    expectApproval(runDecisionEngine(live({ declaredAnnualTurnoverPence: null, openBankingAnnualTurnoverPence: 10_000_000 })), {
      amountPence: 2_000_000,
      aprBps: 1900,
      termMonths: 36,
      conditions: [],
      firstDueDate: "2026-07-15",
    });
  });

  it("judges on the lower of declared and open-banking turnover, either way round", () => {
    // £20,000 asked: more than 40% of £49,999.99, within 20% of £500,000.
    expect(runDecisionEngine(live({ declaredAnnualTurnoverPence: 50_000_000, openBankingAnnualTurnoverPence: 4_999_999 }))).toEqual(declinedFor("affordability"));
    expect(runDecisionEngine(live({ declaredAnnualTurnoverPence: 4_999_999, openBankingAnnualTurnoverPence: 50_000_000 }))).toEqual(declinedFor("affordability"));
  });

  it("refers an affordable application whose identity check is in review, and declines an unaffordable one", () => {
    expect(runDecisionEngine(live({ namedPeopleIdentity: ["review_required"] }))).toMatchObject({ outcome: "referred", conditions: [...REFERRED_CONDITIONS, IDENTITY_REVIEW] });
    expect(runDecisionEngine(live({ namedPeopleIdentity: ["review_required"], declaredAnnualTurnoverPence: 100 }))).toEqual(declinedFor("affordability"));
  });

  it("approves only when everyone named is verified", () => {
    expect(runDecisionEngine(live({ namedPeopleIdentity: ["verified", "verified", "verified"] })).outcome).toBe("approved");
  });

  it("refers when nobody is named, saying no identity check has verified anyone", () => {
    expect(runDecisionEngine(live({ namedPeopleIdentity: [] }))).toEqual({
      outcome: "referred",
      approvedAmountPence: 0,
      aprBps: 1900,
      reasons: [],
      conditions: [...REFERRED_CONDITIONS, { code: "identity_not_verified", description: "No identity check has verified the applicant and the company's directors." }],
      offerTerms: null,
    });
  });

  it("refers when someone named has never been checked, counting them and naming no one", () => {
    expect(runDecisionEngine(live({ namedPeopleIdentity: ["verified", null] })).conditions).toEqual([
      ...REFERRED_CONDITIONS,
      { code: "identity_not_verified", description: "1 of the 2 people named on the application have no identity check." },
    ]);
  });

  it("refers without an affordability record, though the declared turnover affords the loan", () => {
    expect(runDecisionEngine(live({ openBankingAnnualTurnoverPence: null })).conditions).toEqual([...REFERRED_CONDITIONS, AFFORDABILITY_MISSING]);
  });

  it("lists everything an approval still needs, in one referral", () => {
    expect(runDecisionEngine(live({ namedPeopleIdentity: ["review_required", null], openBankingAnnualTurnoverPence: null })).conditions.map((condition) => condition.code)).toEqual([
      "manual_review",
      "identity_review",
      "identity_not_verified",
      "affordability_missing",
    ]);
  });

  it("does not weigh the newest check alone: a verified newest check with someone named failed before declines", () => {
    expect(runDecisionEngine(live({ identity: "verified", namedPeopleIdentity: ["verified", "failed"] }))).toEqual(declinedFor("identity_unverified"));
  });
});

describe("determinism", () => {
  it.each([
    ["a sandbox approval", sandbox("12340007")],
    ["a sandbox referral", sandbox("12340006")],
    ["a live reduced approval", live({ amountPence: 3_000_000, declaredAnnualTurnoverPence: 10_000_999 })],
    ["a live decline", live({ incorporatedOn: "2026-01-01" })],
  ])("gives the same answer for the same input: %s", (_case, input) => {
    const snapshot = structuredClone(input);

    const first = runDecisionEngine(input);
    const second = runDecisionEngine(input);

    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    expect(input).toEqual(snapshot);
  });
});

describe("monthsBetween", () => {
  it.each([
    ["on the same day", "2026-06-15", "2026-06-15T00:00:00.000Z", 0],
    ["a day short of a month", "2026-05-16", "2026-06-15T23:59:59.999Z", 0],
    ["on the monthly anniversary", "2026-05-15", "2026-06-15T00:00:00.000Z", 1],
    ["on the yearly anniversary", "2025-06-15", "2026-06-15T12:00:00.000Z", 12],
    ["a day short of the yearly anniversary", "2025-06-16", "2026-06-15T12:00:00.000Z", 11],
    ["across a year end", "2025-11-30", "2026-01-30T08:00:00.000Z", 2],
    ["from 31 January to 28 February (the 31st not yet reached)", "2026-01-31", "2026-02-28T12:00:00.000Z", 0],
    ["from 31 January to 1 March", "2026-01-31", "2026-03-01T00:00:00.000Z", 1],
    ["from 29 February to 28 February of the next year", "2024-02-29", "2025-02-28T12:00:00.000Z", 11],
    ["from 29 February to 1 March of the next year", "2024-02-29", "2025-03-01T00:00:00.000Z", 12],
    ["from 29 February to 29 February four years on", "2024-02-29", "2028-02-29T00:00:00.000Z", 48],
    ["to a date before the start (never negative)", "2026-07-01", "2026-06-15T12:00:00.000Z", 0],
  ])("counts whole calendar months %s", (_case, fromDate, to, months) => {
    expect(monthsBetween(fromDate, new Date(to))).toBe(months);
  });

  it("reads the instant in UTC: 23:30 UTC on the 14th is still the 14th", () => {
    expect(monthsBetween("2025-06-15", new Date("2026-06-14T23:30:00.000Z"))).toBe(11);
    expect(monthsBetween("2025-06-15", new Date("2026-06-15T00:00:00.000Z"))).toBe(12);
  });
});

describe("oneMonthAfter", () => {
  it.each([
    ["the same day next month", "2026-03-15T10:00:00.000Z", "2026-04-15"],
    ["the same day next month, on the 1st", "2026-06-01T00:00:00.000Z", "2026-07-01"],
    ["28 February after 31 January in a common year", "2026-01-31T12:00:00.000Z", "2026-02-28"],
    ["29 February after 31 January in a leap year", "2028-01-31T12:00:00.000Z", "2028-02-29"],
    ["29 February after 29 January in a leap year", "2028-01-29T12:00:00.000Z", "2028-02-29"],
    ["28 February after 30 January in a common year", "2026-01-30T12:00:00.000Z", "2026-02-28"],
    ["28 February in 1900, which is not a leap year", "1900-01-31T12:00:00.000Z", "1900-02-28"],
    ["29 February in 2000, a leap year by the 400 rule", "2000-01-31T12:00:00.000Z", "2000-02-29"],
    ["30 April after 31 March", "2026-03-31T12:00:00.000Z", "2026-04-30"],
    ["31 January of the next year after 31 December", "2026-12-31T23:59:59.999Z", "2027-01-31"],
    ["28 March after 28 February", "2026-02-28T12:00:00.000Z", "2026-03-28"],
  ])("falls on %s", (_case, now, expected) => {
    expect(oneMonthAfter(new Date(now))).toBe(expected);
  });

  it("uses the UTC date of the instant", () => {
    // 00:30 in UTC+2 on 1 February is still 31 January in UTC.
    expect(oneMonthAfter(new Date("2026-02-01T00:30:00.000+02:00"))).toBe("2026-02-28");
  });
});

describe("manualDecision", () => {
  it("approves the full amount asked with the engine's own price and offer arithmetic", () => {
    // A sandbox 0006 referral resolved by an underwriter: the suffix no longer matters.
    const decision = manualDecision(sandbox("12340006"), "approved");

    expectApproval(decision, { amountPence: 1_234_567, aprBps: 2100, termMonths: 24, conditions: [], firstDueDate: "2026-07-15" });
  });

  it("adds a personal guarantee to a manual approval above £100,000", () => {
    const decision = manualDecision(live({ amountPence: 12_000_000, termMonths: 48, declaredAnnualTurnoverPence: null }), "approved");

    expectApproval(decision, { amountPence: 12_000_000, aprBps: 900, termMonths: 48, conditions: [GUARANTEE], firstDueDate: "2026-07-15" });
  });

  it("declines for affordability by default", () => {
    expect(manualDecision(live({ declaredAnnualTurnoverPence: null }), "declined")).toEqual(declinedFor("affordability"));
  });

  it("declines for the reason the underwriter gives", () => {
    expect(manualDecision(sandbox("12340006"), "declined", "adverse_credit")).toEqual(declinedFor("adverse_credit"));
  });
});
