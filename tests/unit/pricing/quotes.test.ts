// The public quotes in integer pence (lib/pricing/quotes.ts): golden Business Loan quotes at the edges of the
// published range (spec 8: 50 to 500 pounds, 14 to 84 days) for every frequency, the cost cap, and the Flex
// preview's schedule; then the public ring's pounds shape (spec 2.1: money keys end `_pounds`).
//
// With DEFAULT_PRICING: daily rate 0.0025 (2500 ppm), fee £10 = 1000p, cap multiple 0.3. For a whole number of
// pounds `a` over `d` days the interest is a × 100 × 0.0025 × d = a·d/4 pence (half up) and the cap is 30·a pence.
import { describe, expect, it } from "vitest";
import { flexPreviewInPounds, oneTimeQuoteInPounds, previewFlex, quoteOneTime, type Frequency, type OneTimeQuotePence } from "@/lib/pricing/quotes";
import { DEFAULT_PRICING, pricingConfigSchema, type PricingFigures } from "@/lib/pricing/schemas";

const LOAN = DEFAULT_PRICING.business_loan;
const FLEX = DEFAULT_PRICING.flex;
const FREQUENCY_DAYS: Record<Frequency, number> = { weekly: 7, fortnightly: 14, monthly: 30 };

function quote(amountPounds: number, termDays: number, frequency: Frequency, figures: PricingFigures["business_loan"] = LOAN): OneTimeQuotePence {
  return quoteOneTime(figures, { amountPounds, termDays, frequency });
}

function expected(fields: Omit<OneTimeQuotePence, "product" | "currency">): OneTimeQuotePence {
  return { product: "business_loan", currency: "GBP", ...fields };
}

/** Every broken invariant of one quote, by name (empty when the quote is sound). */
function brokenInvariants(result: OneTimeQuotePence, capMultipleBps: number): string[] {
  const broken: string[] = [];
  const cap = Math.floor((result.principal * capMultipleBps) / 10_000);
  if (result.payment_each * (result.periods - 1) + result.final_payment !== result.total_repayable) broken.push("payments do not add up to total_repayable");
  if (result.final_payment < result.payment_each) broken.push("final payment below payment_each");
  if (result.final_payment - result.payment_each >= result.periods) broken.push("final payment exceeds payment_each by a period count or more");
  if (result.total_cost !== result.establishment_fee + result.total_interest) broken.push("total_cost is not fee + interest");
  if (result.total_repayable !== result.principal + result.total_cost) broken.push("total_repayable is not principal + total_cost");
  if (result.total_cost > cap) broken.push("total_cost above the cap");
  if (result.periods !== Math.ceil(result.term_days / FREQUENCY_DAYS[result.frequency])) broken.push("periods");
  return broken;
}

describe("the Business Loan quote at the edges of the range", () => {
  it.each<[string, number, number, Frequency, OneTimeQuotePence]>([
    // 50 over 14: interest 50·14/4 = 175; fee 1000; cost 1175 ≤ cap 1500. Repayable 5000 + 1175 = 6175.
    // weekly: ceil(14/7) = 2 periods; 6175 / 2 = 3087 r 1, so 3087 then 3088.
    ["the smallest loan over the shortest term, weekly", 50, 14, "weekly",
      expected({ principal: 5000, term_days: 14, frequency: "weekly", establishment_fee: 1000, total_interest: 175, total_cost: 1175, total_repayable: 6175, periods: 2, payment_each: 3087, final_payment: 3088, cap_applied: false })],
    // fortnightly: ceil(14/14) = 1 period, the whole 6175 at once.
    ["the smallest loan over the shortest term, fortnightly", 50, 14, "fortnightly",
      expected({ principal: 5000, term_days: 14, frequency: "fortnightly", establishment_fee: 1000, total_interest: 175, total_cost: 1175, total_repayable: 6175, periods: 1, payment_each: 6175, final_payment: 6175, cap_applied: false })],
    // monthly: ceil(14/30) = 1 period.
    ["the smallest loan over the shortest term, monthly", 50, 14, "monthly",
      expected({ principal: 5000, term_days: 14, frequency: "monthly", establishment_fee: 1000, total_interest: 175, total_cost: 1175, total_repayable: 6175, periods: 1, payment_each: 6175, final_payment: 6175, cap_applied: false })],
    // 50 over 84: interest 50·84/4 = 1050; 1050 + 1000 = 2050 > cap 1500, so capped: fee 1000, interest 500.
    // Repayable 6500. weekly: ceil(84/7) = 12; 6500 / 12 = 541 r 8, final 6500 − 11·541 = 549.
    ["the smallest loan over the longest term, weekly (capped)", 50, 84, "weekly",
      expected({ principal: 5000, term_days: 84, frequency: "weekly", establishment_fee: 1000, total_interest: 500, total_cost: 1500, total_repayable: 6500, periods: 12, payment_each: 541, final_payment: 549, cap_applied: true })],
    // fortnightly: 6 periods; 6500 / 6 = 1083 r 2, final 6500 − 5·1083 = 1085.
    ["the smallest loan over the longest term, fortnightly (capped)", 50, 84, "fortnightly",
      expected({ principal: 5000, term_days: 84, frequency: "fortnightly", establishment_fee: 1000, total_interest: 500, total_cost: 1500, total_repayable: 6500, periods: 6, payment_each: 1083, final_payment: 1085, cap_applied: true })],
    // monthly: ceil(84/30) = 3; 6500 / 3 = 2166 r 2, final 6500 − 2·2166 = 2168.
    ["the smallest loan over the longest term, monthly (capped)", 50, 84, "monthly",
      expected({ principal: 5000, term_days: 84, frequency: "monthly", establishment_fee: 1000, total_interest: 500, total_cost: 1500, total_repayable: 6500, periods: 3, payment_each: 2166, final_payment: 2168, cap_applied: true })],
    // 500 over 14: interest 500·14/4 = 1750; cost 2750 ≤ cap 15000. Repayable 52750; weekly 2 × 26375.
    ["the largest loan over the shortest term, weekly", 500, 14, "weekly",
      expected({ principal: 50000, term_days: 14, frequency: "weekly", establishment_fee: 1000, total_interest: 1750, total_cost: 2750, total_repayable: 52750, periods: 2, payment_each: 26375, final_payment: 26375, cap_applied: false })],
    ["the largest loan over the shortest term, fortnightly", 500, 14, "fortnightly",
      expected({ principal: 50000, term_days: 14, frequency: "fortnightly", establishment_fee: 1000, total_interest: 1750, total_cost: 2750, total_repayable: 52750, periods: 1, payment_each: 52750, final_payment: 52750, cap_applied: false })],
    ["the largest loan over the shortest term, monthly", 500, 14, "monthly",
      expected({ principal: 50000, term_days: 14, frequency: "monthly", establishment_fee: 1000, total_interest: 1750, total_cost: 2750, total_repayable: 52750, periods: 1, payment_each: 52750, final_payment: 52750, cap_applied: false })],
    // 500 over 84: interest 500·84/4 = 10500; cost 11500 ≤ cap 15000. Repayable 61500 = 12 × 5125 = 6 × 10250 = 3 × 20500.
    ["the largest loan over the longest term, weekly", 500, 84, "weekly",
      expected({ principal: 50000, term_days: 84, frequency: "weekly", establishment_fee: 1000, total_interest: 10500, total_cost: 11500, total_repayable: 61500, periods: 12, payment_each: 5125, final_payment: 5125, cap_applied: false })],
    ["the largest loan over the longest term, fortnightly", 500, 84, "fortnightly",
      expected({ principal: 50000, term_days: 84, frequency: "fortnightly", establishment_fee: 1000, total_interest: 10500, total_cost: 11500, total_repayable: 61500, periods: 6, payment_each: 10250, final_payment: 10250, cap_applied: false })],
    ["the largest loan over the longest term, monthly", 500, 84, "monthly",
      expected({ principal: 50000, term_days: 84, frequency: "monthly", establishment_fee: 1000, total_interest: 10500, total_cost: 11500, total_repayable: 61500, periods: 3, payment_each: 20500, final_payment: 20500, cap_applied: false })],
  ])("quotes %s to the penny", (_name, amount, term, frequency, golden) => {
    const result = quote(amount, term, frequency);
    expect(result).toEqual(golden);
    expect(brokenInvariants(result, 3000)).toEqual([]);
  });

  it("quotes £100 over 28 days weekly as four payments of £29.25", () => {
    // interest 100·28/4 = 700; cost 1700 ≤ cap 3000; repayable 11700 = 4 × 2925.
    expect(quote(100, 28, "weekly")).toEqual(
      expected({ principal: 10000, term_days: 28, frequency: "weekly", establishment_fee: 1000, total_interest: 700, total_cost: 1700, total_repayable: 11700, periods: 4, payment_each: 2925, final_payment: 2925, cap_applied: false }),
    );
  });

  it.each([
    // a·d/4 with a remainder of 2 quarters is exactly half a penny: rounds up.
    { amount: 51, term: 14, interest: 179 }, // 51·14 = 714, /4 = 178.5 → 179
    { amount: 51, term: 15, interest: 191 }, // 765 / 4 = 191.25 → 191
    { amount: 51, term: 17, interest: 217 }, // 867 / 4 = 216.75 → 217
    { amount: 53, term: 14, interest: 186 }, // 742 / 4 = 185.5 → 186
  ])("rounds the interest on £$amount over $term days half up to $interest pence", ({ amount, term, interest }) => {
    const result = quote(amount, term, "weekly");
    expect(result.total_interest).toBe(interest);
    expect(result.total_cost).toBe(1000 + interest);
    expect(result.cap_applied).toBe(false);
  });
});

describe("the total cost cap", () => {
  it("leaves a cost exactly at the cap alone: £100 over 80 days costs 1000 + 2000 = 3000 = 0.3 × 10000", () => {
    const result = quote(100, 80, "weekly");
    expect(result).toMatchObject({ establishment_fee: 1000, total_interest: 2000, total_cost: 3000, total_repayable: 13000, cap_applied: false });
  });

  it("engages one day later: £100 over 81 days would cost 1000 + 2025 = 3025, cut to 3000 by trimming the interest", () => {
    const result = quote(100, 81, "weekly");
    // 12 periods (ceil(81/7)); 13000 / 12 = 1083 r 4, final 13000 − 11·1083 = 1087.
    expect(result).toEqual(
      expected({ principal: 10000, term_days: 81, frequency: "weekly", establishment_fee: 1000, total_interest: 2000, total_cost: 3000, total_repayable: 13000, periods: 12, payment_each: 1083, final_payment: 1087, cap_applied: true }),
    );
  });

  it("cuts the fee itself to the cap, with no interest, when the fee alone exceeds it", () => {
    // Fee £20 = 2000p against a cap of 0.3 × 5000 = 1500p: fee 1500, interest 0, repayable 6500 in 2 × 3250.
    const figures = { ...LOAN, establishment_fee_pounds: 20 };
    expect(quote(50, 14, "weekly", figures)).toEqual(
      expected({ principal: 5000, term_days: 14, frequency: "weekly", establishment_fee: 1500, total_interest: 0, total_cost: 1500, total_repayable: 6500, periods: 2, payment_each: 3250, final_payment: 3250, cap_applied: true }),
    );
  });

  it("rounds the cap down to the penny", () => {
    // Cap multiple 0.3333: 5100 × 0.3333 = 1699.83 → 1699. Uncapped 51·84/4 = 1071 + 1000 = 2071 > 1699.
    const figures = { ...LOAN, total_cost_cap_multiple: 0.3333 };
    expect(quote(51, 84, "monthly", figures)).toMatchObject({ establishment_fee: 1000, total_interest: 699, total_cost: 1699, total_repayable: 6799, cap_applied: true });
  });

  it("is only ever given a cap multiple and rates the arithmetic holds exactly: the schema bounds their precision", () => {
    // The quote turns the cap multiple into basis points and rates into parts per million; a fifth decimal on
    // the multiple (0.02006) or a seventh on a rate would be rounded there, so the configuration refuses them.
    const withLoan = (change: Partial<PricingFigures["business_loan"]>) => ({ ...DEFAULT_PRICING, business_loan: { ...LOAN, ...change } });
    expect(pricingConfigSchema.safeParse(withLoan({ total_cost_cap_multiple: 0.02006 })).success).toBe(false);
    expect(pricingConfigSchema.safeParse(withLoan({ daily_rate: 0.0025005 })).success).toBe(false);
    expect(pricingConfigSchema.safeParse(withLoan({ total_cost_cap_multiple: 0.2006, daily_rate: 0.002501 })).success).toBe(true);
    // At the precision allowed the cap is exact: 0.2006 × 50000 = 10030 pence.
    const capped = quote(500, 84, "weekly", { ...LOAN, total_cost_cap_multiple: 0.2006, establishment_fee_pounds: 100 });
    expect(capped).toMatchObject({ total_cost: 10030, cap_applied: true });
  });

  it("keeps every invariant for every whole amount, term and frequency in the published range", () => {
    const failures: string[] = [];
    for (let amount = LOAN.amount_min_pounds; amount <= LOAN.amount_max_pounds; amount += 1) {
      for (let term = LOAN.term_min_days; term <= LOAN.term_max_days; term += 1) {
        // An independent reference for the defaults: interest a·d/4 half up, cap 30·a, fee 1000.
        const interest = Math.floor((amount * term + 2) / 4);
        const cap = amount * 30;
        const uncapped = 1000 + interest;
        for (const frequency of ["weekly", "fortnightly", "monthly"] as const) {
          const result = quote(amount, term, frequency);
          const broken = brokenInvariants(result, 3000);
          if (result.cap_applied !== uncapped > cap) broken.push("cap_applied");
          if (result.total_cost !== Math.min(uncapped, cap)) broken.push("total_cost");
          if (result.establishment_fee !== Math.min(1000, cap)) broken.push("establishment_fee");
          if (broken.length > 0) failures.push(`£${amount} ${term}d ${frequency}: ${broken.join(", ")}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});

describe("repayment periods", () => {
  it.each<[Frequency, number, number]>([
    ["weekly", 14, 2],
    ["weekly", 15, 3],
    ["weekly", 21, 3],
    ["weekly", 22, 4],
    ["weekly", 84, 12],
    ["fortnightly", 15, 2],
    ["fortnightly", 28, 2],
    ["fortnightly", 29, 3],
    ["fortnightly", 84, 6],
    ["monthly", 30, 1],
    ["monthly", 31, 2],
    ["monthly", 60, 2],
    ["monthly", 61, 3],
    ["monthly", 84, 3],
  ])("counts %s payments over %i days as %i", (frequency, term, periods) => {
    expect(quote(200, term, frequency).periods).toBe(periods);
  });
});

describe("the Flex preview", () => {
  it("previews £600 drawn on a £1,000 limit over 3 months", () => {
    // draw 60000p; fee 60000 × 0.015 = 900 on the first payment; principal 60000 / 3 = 20000 a month.
    // interest: 60000 × 0.025 = 1500, 40000 × 0.025 = 1000, 20000 × 0.025 = 500 (3000 in all).
    // payments: 20000 + 1500 + 900 = 22400, 21000, 20500; total 60000 + 900 + 3000 = 63900.
    expect(previewFlex(FLEX, { limitPounds: 1000, drawPounds: 600, months: 3 })).toEqual({
      limit: 100000,
      draw: 60000,
      months: 3,
      draw_fee: 900,
      total_interest: 3000,
      total_repayable: 63900,
      schedule: [
        { month: 1, payment: 22400, principal: 20000, interest: 1500, balance_after: 40000 },
        { month: 2, payment: 21000, principal: 20000, interest: 1000, balance_after: 20000 },
        { month: 3, payment: 20500, principal: 20000, interest: 500, balance_after: 0 },
      ],
    });
  });

  it("rounds the fee and each month's interest half up and gives the last month the principal remainder", () => {
    // draw 77700p over 9 months: fee 77700 × 0.015 = 1165.5 → 1166; principal 77700 / 9 = 8633 r 3, last 8636.
    // interest = balance × 0.025: 77700 → 1942.5 → 1943; 69067 → 1726.675 → 1727; 60434 → 1510.85 → 1511;
    // 51801 → 1295.025 → 1295; 43168 → 1079.2 → 1079; 34535 → 863.375 → 863; 25902 → 647.55 → 648;
    // 17269 → 431.725 → 432; 8636 → 215.9 → 216. Total interest 9714; repayable 77700 + 1166 + 9714 = 88580.
    const preview = previewFlex(FLEX, { limitPounds: 800, drawPounds: 777, months: 9 });
    expect(preview).toMatchObject({ draw: 77700, draw_fee: 1166, total_interest: 9714, total_repayable: 88580 });
    expect(preview.schedule).toEqual([
      { month: 1, payment: 8633 + 1943 + 1166, principal: 8633, interest: 1943, balance_after: 69067 },
      { month: 2, payment: 8633 + 1727, principal: 8633, interest: 1727, balance_after: 60434 },
      { month: 3, payment: 8633 + 1511, principal: 8633, interest: 1511, balance_after: 51801 },
      { month: 4, payment: 8633 + 1295, principal: 8633, interest: 1295, balance_after: 43168 },
      { month: 5, payment: 8633 + 1079, principal: 8633, interest: 1079, balance_after: 34535 },
      { month: 6, payment: 8633 + 863, principal: 8633, interest: 863, balance_after: 25902 },
      { month: 7, payment: 8633 + 648, principal: 8633, interest: 648, balance_after: 17269 },
      { month: 8, payment: 8633 + 432, principal: 8633, interest: 432, balance_after: 8636 },
      { month: 9, payment: 8636 + 216, principal: 8636, interest: 216, balance_after: 0 },
    ]);
  });

  it("repays a one-month draw in a single payment of draw, fee and one month's interest", () => {
    // 500 pounds: fee 50000 × 0.015 = 750; interest 50000 × 0.025 = 1250; payment 52000.
    expect(previewFlex(FLEX, { limitPounds: 500, drawPounds: 500, months: 1 }).schedule).toEqual([
      { month: 1, payment: 52000, principal: 50000, interest: 1250, balance_after: 0 },
    ]);
  });

  it("keeps its schedule consistent for a spread of draws and every term", () => {
    const failures: string[] = [];
    for (const drawPounds of [1, 7, 333, 499, 500, 777, 1001, 4999, 9999, 10000]) {
      for (let months = FLEX.repayment_months_min; months <= FLEX.repayment_months_max; months += 1) {
        const preview = previewFlex(FLEX, { limitPounds: 10000, drawPounds, months });
        const broken: string[] = [];
        const draw = drawPounds * 100;
        // Independent reference: fee draw × 3/200 half up; interest balance / 40 half up.
        const fee = Math.floor((draw * 3 + 100) / 200);
        const principals = preview.schedule.map((row) => row.principal);
        if (principals.reduce((a, b) => a + b, 0) !== draw) broken.push("principal parts do not sum to the draw");
        if (preview.schedule.reduce((total, row) => total + row.payment, 0) !== preview.total_repayable) broken.push("payments do not sum to total_repayable");
        if (preview.total_repayable !== draw + preview.draw_fee + preview.total_interest) broken.push("total_repayable");
        if (preview.draw_fee !== fee) broken.push("draw fee");
        if (preview.schedule.length !== months) broken.push("schedule length");
        let balance = draw;
        preview.schedule.forEach((row, index) => {
          if (row.month !== index + 1) broken.push(`month ${index + 1} numbered ${row.month}`);
          if (row.interest !== Math.floor((balance + 20) / 40)) broken.push(`month ${row.month} interest`);
          if (index < months - 1 && row.principal !== Math.floor(draw / months)) broken.push(`month ${row.month} principal`);
          if (row.payment !== row.principal + row.interest + (index === 0 ? fee : 0)) broken.push(`month ${row.month} payment`);
          balance -= row.principal;
          if (row.balance_after !== balance) broken.push(`month ${row.month} balance`);
        });
        if (balance !== 0) broken.push("balance not cleared");
        if (broken.length > 0) failures.push(`£${drawPounds} over ${months}: ${broken.join(", ")}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

describe("the public ring's pounds shape", () => {
  it("turns a one-time quote into pounds with every money key ending _pounds", () => {
    const inPounds = oneTimeQuoteInPounds(quote(50, 14, "weekly"), LOAN, 7);
    expect(inPounds).toEqual({
      product: "business_loan",
      currency: "GBP",
      principal_pounds: 50,
      term_days: 14,
      frequency: "weekly",
      daily_rate: 0.0025,
      establishment_fee_pounds: 10,
      total_interest_pounds: 1.75,
      total_cost_pounds: 11.75,
      total_repayable_pounds: 61.75,
      periods: 2,
      payment_each_pounds: 30.87,
      final_payment_pounds: 30.88,
      cost_cap_applied: false,
      pricing_version: 7,
    });
  });

  it("converts a capped quote's odd pence exactly", () => {
    expect(oneTimeQuoteInPounds(quote(50, 84, "weekly"), LOAN, 1)).toMatchObject({
      establishment_fee_pounds: 10,
      total_interest_pounds: 5,
      total_cost_pounds: 15,
      total_repayable_pounds: 65,
      payment_each_pounds: 5.41,
      final_payment_pounds: 5.49,
      cost_cap_applied: true,
    });
  });

  it("turns a Flex preview into pounds, schedule included", () => {
    const inPounds = flexPreviewInPounds(previewFlex(FLEX, { limitPounds: 1000, drawPounds: 600, months: 3 }), FLEX, 3);
    expect(inPounds).toEqual({
      product: "flex",
      currency: "GBP",
      limit_pounds: 1000,
      draw_pounds: 600,
      months: 3,
      monthly_rate: 0.025,
      draw_fee_pounds: 9,
      total_interest_pounds: 30,
      total_repayable_pounds: 639,
      schedule: [
        { month: 1, payment_pounds: 224, principal_pounds: 200, interest_pounds: 15, balance_after_pounds: 400 },
        { month: 2, payment_pounds: 210, principal_pounds: 200, interest_pounds: 10, balance_after_pounds: 200 },
        { month: 3, payment_pounds: 205, principal_pounds: 200, interest_pounds: 5, balance_after_pounds: 0 },
      ],
      pricing_version: 3,
    });
  });

  it("gives Flex odd pence as two-decimal pounds", () => {
    const inPounds = flexPreviewInPounds(previewFlex(FLEX, { limitPounds: 800, drawPounds: 777, months: 9 }), FLEX, 1);
    expect(inPounds).toMatchObject({ draw_fee_pounds: 11.66, total_interest_pounds: 97.14, total_repayable_pounds: 885.8 });
    expect(inPounds.schedule[0]).toEqual({ month: 1, payment_pounds: 117.42, principal_pounds: 86.33, interest_pounds: 19.43, balance_after_pounds: 690.67 });
  });
});
