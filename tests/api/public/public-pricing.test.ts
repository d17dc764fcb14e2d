// The public ring's pricing surface over HTTP (spec 2.10, 4.8, 7.4, 8): the product catalogue and the pricing
// configuration it reconciles with, both quotes and their 422s, the loyalty ladder, the public-safe biller list,
// the headers every public GET carries (cache, CORS, request id, rate limit), unknown paths and methods, and the
// 60-per-60-seconds fixed window per client address.
//
// Every test runs in a fixed window of its own (the in-memory limiter follows lib/clock.ts), so the RateLimit
// numbers are exact and the file never meets the limit by accident. The shared database's pricing is never
// changed here: other files read it concurrently (changes are tested in tests/unit/pricing/config.test.ts).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { seedBillers } from "@/lib/billers/service";
import { flexPreviewInPounds, oneTimeQuoteInPounds, previewFlex, quoteOneTime } from "@/lib/pricing/quotes";
import { DEFAULT_PRICING, type PricingConfig } from "@/lib/pricing/schemas";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError } from "../../helpers/http";

let server: AppServer;
let pricing: PricingConfig;
const hiddenBillerId = newId("biller");

beforeAll(async () => {
  server = await startAppServer();
  await seedBillers();
  // A biller that is not accepted: on the platform, never in the public list.
  await db().biller.create({
    data: {
      id: hiddenBillerId,
      name: "Withdrawn Biller Test",
      category: "aaa_withdrawn",
      accepted: false,
      bankSortCode: "112233",
      bankAccountNumber: "44556677",
      contactEmail: "withdrawn@biller.example",
      createdAt: new Date(),
    },
  });
  const response = await fetch(`${server.url}/public/v1/config/pricing`);
  expect(response.status).toBe(200);
  pricing = (await response.json()) as PricingConfig;
});
afterAll(async () => {
  await db().biller.delete({ where: { id: hiddenBillerId } });
  await server?.close();
});

// Each test gets a fresh fixed window: the start of a minute of its own, far from the real time.
let windowIndex = 0;
beforeEach(() => {
  windowIndex += 1;
  freezeClock(new Date(Date.UTC(2031, 0, 1, 0, windowIndex)));
});

const get = (path: string, init?: RequestInit) => fetch(`${server.url}/public/v1${path}`, init);

const BUSINESS_LOAN_FIGURE_KEYS = [
  "amount_min_pounds",
  "amount_max_pounds",
  "term_min_days",
  "term_max_days",
  "daily_rate",
  "establishment_fee_pounds",
  "total_cost_cap_multiple",
  "late_fee_pounds",
];

describe("the product catalogue", () => {
  it("lists the three products keyed by id, with the Business Loan's eight published figures", async () => {
    const response = await get("/products");
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toEqual({
      currency: "GBP",
      products: {
        business_loan: {
          id: "business_loan",
          name: "Business Loan",
          kind: "fixed_sum_loan",
          enabled: true,
          is_credit: true,
          currency: "GBP",
          description: "A short fixed-sum loan for UK limited companies and LLPs, repaid in equal instalments.",
          figures: {
            amount_min_pounds: 50,
            amount_max_pounds: 500,
            term_min_days: 14,
            term_max_days: 84,
            daily_rate: 0.0025,
            establishment_fee_pounds: 10,
            total_cost_cap_multiple: 0.3,
            late_fee_pounds: 15,
          },
        },
        flex: {
          id: "flex",
          name: "Flex",
          kind: "revolving_credit",
          enabled: true,
          is_credit: true,
          currency: "GBP",
          description: "A revolving business credit facility: draw what you need up to your limit, repay monthly.",
          figures: {
            limit_min_pounds: 500,
            limit_max_pounds: 10000,
            monthly_rate: 0.025,
            draw_fee_rate: 0.015,
            repayment_months_min: 1,
            repayment_months_max: 12,
          },
        },
        slice: {
          id: "slice",
          name: "Slice",
          kind: "fixed_fee_instalments",
          enabled: true,
          is_credit: false,
          currency: "GBP",
          description: "Pay an accepted biller now and spread the bill over a few instalments for one fixed fee.",
          figures: { bill_min_pounds: 100, bill_max_pounds: 5000, instalment_counts: [3, 6], plan_fee_pounds: 4.99 },
        },
      },
      pricing_version: pricing.version,
    });
    expect(Object.keys(body.products.business_loan.figures)).toEqual(BUSINESS_LOAN_FIGURE_KEYS);
  });

  it("reconciles with the pricing configuration figure for figure", async () => {
    const [products, config] = await Promise.all([get("/products").then((r) => r.json()), get("/config/pricing").then((r) => r.json())]);
    for (const key of BUSINESS_LOAN_FIGURE_KEYS) {
      expect({ key, value: products.products.business_loan.figures[key] }).toEqual({ key, value: config.business_loan[key] });
    }
    expect(products.products.flex.figures).toEqual({ ...config.flex, enabled: undefined });
    expect(products.products.slice.figures).toEqual({ ...config.slice, enabled: undefined });
    expect(products.products.business_loan.enabled).toBe(config.business_loan.enabled);
    expect(products.currency).toBe(config.currency);
    expect(products.pricing_version).toBe(config.version);
  });

  it("publishes the configuration with its version and the time it took effect", async () => {
    const response = await get("/config/pricing");
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toEqual({ ...DEFAULT_PRICING, version: pricing.version, updated_at: pricing.updated_at });
    expect(Number.isInteger(body.version) && body.version >= 1).toBe(true);
    expect(body.updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });
});

describe("GET /quote/onetime", () => {
  it("quotes £100 over 28 days weekly in pounds, exactly as quoteOneTime does", async () => {
    const response = await get("/quote/onetime?amount=100&term=28&frequency=weekly");
    expect(response.status).toBe(200);
    const body = await response.json();
    // interest 10000p × 0.0025 × 28 = 700p; cost 1000 + 700 = 1700p ≤ cap 3000p; 11700p in 4 weekly payments of 2925p.
    expect(body).toEqual({
      product: "business_loan",
      currency: "GBP",
      principal_pounds: 100,
      term_days: 28,
      frequency: "weekly",
      daily_rate: 0.0025,
      establishment_fee_pounds: 10,
      total_interest_pounds: 7,
      total_cost_pounds: 17,
      total_repayable_pounds: 117,
      periods: 4,
      payment_each_pounds: 29.25,
      final_payment_pounds: 29.25,
      cost_cap_applied: false,
      pricing_version: pricing.version,
    });
    const figures = pricing.business_loan;
    expect(body).toEqual(oneTimeQuoteInPounds(quoteOneTime(figures, { amountPounds: 100, termDays: 28, frequency: "weekly" }), figures, pricing.version));
  });

  it("quotes weekly when no frequency is given", async () => {
    const body = await (await get("/quote/onetime?amount=100&term=28")).json();
    expect(body).toMatchObject({ frequency: "weekly", periods: 4, payment_each_pounds: 29.25 });
  });

  it("quotes a capped loan at the range's edge with the cap flagged", async () => {
    const body = await (await get("/quote/onetime?amount=50&term=84&frequency=monthly")).json();
    // 1050p interest + 1000p fee = 2050p > cap 1500p: interest cut to 500p; 6500p in 3 monthly payments.
    expect(body).toMatchObject({
      principal_pounds: 50,
      establishment_fee_pounds: 10,
      total_interest_pounds: 5,
      total_cost_pounds: 15,
      total_repayable_pounds: 65,
      periods: 3,
      payment_each_pounds: 21.66,
      final_payment_pounds: 21.68,
      cost_cap_applied: true,
    });
  });

  it.each([
    ["amount=50&term=14&frequency=fortnightly", { principal_pounds: 50, term_days: 14, periods: 1, payment_each_pounds: 61.75 }],
    ["amount=500&term=84&frequency=fortnightly", { principal_pounds: 500, term_days: 84, periods: 6, payment_each_pounds: 102.5 }],
  ])("accepts the range's edges (%s)", async (query, expected) => {
    const response = await get(`/quote/onetime?${query}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject(expected);
  });

  it.each<[string, string, Array<{ field: string; reason: string; message: string }>]>([
    ["an amount below 50 pounds", "amount=49&term=28", [{ field: "amount", reason: "too_small", message: "amount must be between 50 and 500 pounds (£50 to £500) for a Business Loan quote." }]],
    ["an amount above 500 pounds", "amount=501&term=28", [{ field: "amount", reason: "too_large", message: "amount must be between 50 and 500 pounds (£50 to £500) for a Business Loan quote." }]],
    ["a negative amount", "amount=-50&term=28", [{ field: "amount", reason: "too_small", message: "amount must be between 50 and 500 pounds (£50 to £500) for a Business Loan quote." }]],
    ["an amount that is not a number", "amount=abc&term=28", [{ field: "amount", reason: "invalid_type", message: "amount must be a number." }]],
    ["an empty amount", "amount=&term=28", [{ field: "amount", reason: "invalid_type", message: "amount must be a number." }]],
    ["an amount in pence", "amount=50.5&term=28", [{ field: "amount", reason: "not_integer", message: "amount must be a whole number." }]],
    ["an amount of ten digits", "amount=1234567890&term=28", [{ field: "amount", reason: "too_large", message: "amount must have at most 9 digits." }]],
    ["a term below 14 days", "amount=100&term=13", [{ field: "term", reason: "too_small", message: "term must be between 14 and 84 days for a Business Loan quote." }]],
    ["a term above 84 days", "amount=100&term=85", [{ field: "term", reason: "too_large", message: "term must be between 14 and 84 days for a Business Loan quote." }]],
    ["a missing amount", "term=28", [{ field: "amount", reason: "required", message: "amount is required." }]],
    ["a missing term", "amount=100", [{ field: "term", reason: "required", message: "term is required." }]],
    [
      "an unknown frequency",
      "amount=100&term=28&frequency=daily",
      [{ field: "frequency", reason: "invalid_value", message: "frequency must be one of weekly, fortnightly or monthly." }],
    ],
    [
      "both an amount and a term out of range",
      "amount=49&term=85",
      [
        { field: "amount", reason: "too_small", message: "amount must be between 50 and 500 pounds (£50 to £500) for a Business Loan quote." },
        { field: "term", reason: "too_large", message: "term must be between 14 and 84 days for a Business Loan quote." },
      ],
    ],
    ["a repeated amount", "amount=100&amount=200&term=28", [{ field: "amount", reason: "repeated", message: "amount may appear only once." }]],
  ])("answers %s with 422 validation_failed and its detail", async (_name, query, detail) => {
    const response = await get(`/quote/onetime?${query}`);
    const body = await expectApiError(response, 422, "validation_failed");
    expect(body.error.type).toBe("invalid_request_error");
    expect(body.error.retryable).toBe(false);
    expect(body.error.detail).toEqual(detail);
  });

  it("answers an unknown parameter with 400 unknown_field", async () => {
    const response = await get("/quote/onetime?amount=100&term=28&apr=0");
    const body = await expectApiError(response, 400, "unknown_field");
    expect(body.error.detail).toEqual([{ field: "apr", reason: "unknown_field", message: "Unknown field `apr`: the fields accepted here are amount, term and frequency." }]);
  });
});

describe("GET /quote/flex", () => {
  it("previews £600 drawn on a £1,000 limit over 3 months, exactly as previewFlex does", async () => {
    const response = await get("/quote/flex?limit=1000&draw=600&months=3");
    expect(response.status).toBe(200);
    const body = await response.json();
    // fee 60000p × 0.015 = 900p; interest 1500p, 1000p, 500p on 60000p, 40000p, 20000p.
    expect(body).toEqual({
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
      pricing_version: pricing.version,
    });
    expect(body).toEqual(flexPreviewInPounds(previewFlex(pricing.flex, { limitPounds: 1000, drawPounds: 600, months: 3 }), pricing.flex, pricing.version));
  });

  it("draws the whole limit over 3 months when neither draw nor months is given", async () => {
    const body = await (await get("/quote/flex?limit=1000")).json();
    expect(body).toMatchObject({ limit_pounds: 1000, draw_pounds: 1000, months: 3, draw_fee_pounds: 15, total_interest_pounds: 50, total_repayable_pounds: 1065 });
    expect(body.schedule).toHaveLength(3);
  });

  it.each<[string, string, Array<{ field: string; reason: string; message: string }>]>([
    ["a limit below 500 pounds", "limit=499", [{ field: "limit", reason: "too_small", message: "limit must be between 500 and 10000 pounds (£500 to £10,000) for a Flex quote." }]],
    ["a limit above 10,000 pounds", "limit=10001", [{ field: "limit", reason: "too_large", message: "limit must be between 500 and 10000 pounds (£500 to £10,000) for a Flex quote." }]],
    ["a draw above the limit", "limit=1000&draw=1001", [{ field: "draw", reason: "too_large", message: "draw must be between 1 and 1000 pounds (£1 to £1,000) for a Flex quote: at most the limit." }]],
    ["a draw of nothing", "limit=1000&draw=0", [{ field: "draw", reason: "too_small", message: "draw must be between 1 and 1000 pounds (£1 to £1,000) for a Flex quote: at most the limit." }]],
    ["no months", "limit=1000&months=0", [{ field: "months", reason: "too_small", message: "months must be between 1 and 12 months for a Flex quote." }]],
    ["more than 12 months", "limit=1000&months=13", [{ field: "months", reason: "too_large", message: "months must be between 1 and 12 months for a Flex quote." }]],
    ["a missing limit", "draw=100", [{ field: "limit", reason: "required", message: "limit is required." }]],
    ["a draw in pence", "limit=1000&draw=99.99", [{ field: "draw", reason: "not_integer", message: "draw must be a whole number." }]],
  ])("answers %s with 422 validation_failed and its detail", async (_name, query, detail) => {
    const body = await expectApiError(await get(`/quote/flex?${query}`), 422, "validation_failed");
    expect(body.error.detail).toEqual(detail);
  });
});

describe("GET /loyalty/tiers", () => {
  it("publishes bronze, silver, gold and platinum in order, with only platinum at the top, and the cooldown", async () => {
    const response = await get("/loyalty/tiers");
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.tiers.map((tier: { slug: string }) => tier.slug)).toEqual(["bronze", "silver", "gold", "platinum"]);
    expect(body.tiers.map((tier: { is_top_tier: boolean }) => tier.is_top_tier)).toEqual([false, false, false, true]);
    expect(body.tiers[0].benefits.arrangement_fee_discount_pct).toBe(0);
    expect(body).toEqual({
      tiers: [
        { slug: "bronze", label: "Bronze", is_top_tier: false, thresholds: { min_repaid_loans: 0, min_tenure_months: 0, max_arrears_days_last_12_months: null }, benefits: { arrangement_fee_discount_pct: 0 } },
        { slug: "silver", label: "Silver", is_top_tier: false, thresholds: { min_repaid_loans: 1, min_tenure_months: 6, max_arrears_days_last_12_months: 14 }, benefits: { arrangement_fee_discount_pct: 10 } },
        { slug: "gold", label: "Gold", is_top_tier: false, thresholds: { min_repaid_loans: 3, min_tenure_months: 12, max_arrears_days_last_12_months: 7 }, benefits: { arrangement_fee_discount_pct: 20 } },
        { slug: "platinum", label: "Platinum", is_top_tier: true, thresholds: { min_repaid_loans: 6, min_tenure_months: 24, max_arrears_days_last_12_months: 0 }, benefits: { arrangement_fee_discount_pct: 30 } },
      ],
      cooldown_days: 90,
    });
  });
});

describe("GET /slice/billers", () => {
  const SEEDED = [
    { name: "Metro Business Rates", category: "business_rates" },
    { name: "Crown Commercial Insurance", category: "insurance" },
    { name: "HM Revenue & Customs", category: "tax" },
    { name: "Brightline Telecom", category: "telecoms" },
    { name: "Northern Power Supply", category: "utilities" },
  ];

  it("lists accepted billers as id, object, name and category only, ordered by category then name", async () => {
    const response = await get("/slice/billers");
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.object).toBe("list");
    for (const biller of body.data) {
      expect(Object.keys(biller)).toEqual(["id", "object", "name", "category"]);
      expect(biller.id).toMatch(/^bil_[0-9a-z]{26}$/);
      expect(biller.object).toBe("biller");
    }
    const listed = body.data.map(({ name, category }: { name: string; category: string }) => ({ name, category }));
    expect(listed).toEqual(expect.arrayContaining(SEEDED));
    const sorted = [...listed].sort((a, b) => (a.category === b.category ? (a.name < b.name ? -1 : 1) : a.category < b.category ? -1 : 1));
    expect(listed).toEqual(sorted);
    const stored = await db().biller.findMany({ where: { accepted: true }, select: { id: true, name: true, category: true } });
    expect(new Set(body.data.map((biller: { id: string }) => biller.id))).toEqual(new Set(stored.map((biller) => biller.id)));
  });

  it("never shows a biller that is not accepted", async () => {
    const body = await (await get("/slice/billers")).json();
    expect(body.data.map((biller: { id: string }) => biller.id)).not.toContain(hiddenBillerId);
    expect(body.data.map((biller: { name: string }) => biller.name)).not.toContain("Withdrawn Biller Test");
  });

  it("never lets bank details or contacts leave the platform", async () => {
    const text = await (await get("/slice/billers")).text();
    for (const secret of ["bank", "sort", "account_number", "contact", "@"]) expect({ secret, found: text.toLowerCase().includes(secret) }).toEqual({ secret, found: false });
    const stored = await db().biller.findMany({ select: { bankSortCode: true, bankAccountNumber: true, contactEmail: true } });
    expect(stored.length).toBeGreaterThanOrEqual(SEEDED.length);
    for (const biller of stored) {
      expect(text).not.toContain(biller.bankSortCode);
      expect(text).not.toContain(biller.bankAccountNumber);
      expect(text).not.toContain(biller.contactEmail);
    }
  });
});

describe("headers on public GETs", () => {
  it.each(["/products", "/config/pricing", "/quote/onetime?amount=100&term=28", "/quote/flex?limit=1000", "/loyalty/tiers", "/slice/billers"])(
    "marks %s cacheable for a minute, readable from any origin, and metered",
    async (path) => {
      const response = await get(path, { headers: { origin: "https://someone-else.example" } });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toContain("application/json");
      expect(response.headers.get("cache-control")).toBe("public, max-age=60");
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      expect(response.headers.get("access-control-expose-headers")).toBe(
        "X-Request-Id, X-Service-Correlation-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, RateLimit-Policy, Retry-After",
      );
      expect(response.headers.get("vary")).toBeNull();
      expect(response.headers.get("x-request-id")).toMatch(/^req_[0-9a-z]{26}$/);
      expect(Object.fromEntries([...response.headers].filter(([name]) => name.startsWith("ratelimit")))).toEqual({
        "ratelimit-limit": "60",
        "ratelimit-remaining": "59",
        "ratelimit-reset": "60",
        "ratelimit-policy": "60;w=60",
      });
    },
  );

  it("answers a GET without an Origin header with Access-Control-Allow-Origin * too", async () => {
    const response = await get("/products");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("never marks an error cacheable, and still meters it and allows any origin to read it", async () => {
    await get("/loyalty/tiers");
    const response = await get("/quote/onetime?amount=49&term=28");
    await expectApiError(response, 422, "validation_failed");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("ratelimit-remaining")).toBe("58");
  });

  it("answers a cross-origin preflight for a GET from any origin", async () => {
    const response = await get("/products", { method: "OPTIONS", headers: { origin: "https://someone-else.example", "access-control-request-method": "GET" } });
    expect(response.status).toBe(204);
    expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-methods")).toBe("GET, HEAD, OPTIONS");
  });
});

describe("unknown paths and methods", () => {
  it.each(["/nope", "/quote/nope", "/products/business_loan"])("answers %s with 404 route_not_found", async (path) => {
    const response = await get(path);
    const body = await expectApiError(response, 404, "route_not_found");
    expect(body.error.type).toBe("invalid_request_error");
    expect(response.headers.get("ratelimit-policy")).toBe("60;w=60");
  });

  it("answers POST /products with 405 and the methods it allows", async () => {
    const response = await get("/products", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    await expectApiError(response, 405, "method_not_allowed");
    expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });
});

describe("the public rate limit", () => {
  it("serves 60 requests in a window, refuses the 61st with 429 and Retry-After, and serves again in the next window", async () => {
    // A minute of its own: its window starts empty.
    const clock = freezeClock("2027-06-01T12:00:00.000Z");
    const remaining: string[] = [];
    const statuses: number[] = [];
    for (let index = 0; index < 60; index += 1) {
      const response = await get(index % 2 === 0 ? "/loyalty/tiers" : "/products");
      statuses.push(response.status);
      remaining.push(response.headers.get("ratelimit-remaining")!);
      await response.arrayBuffer();
    }
    expect(statuses).toEqual(Array(60).fill(200));
    expect(remaining).toEqual(Array.from({ length: 60 }, (_, index) => String(59 - index)));

    const refused = await get("/products");
    const body = await expectApiError(refused, 429, "rate_limited");
    expect(body.error).toMatchObject({ type: "rate_limit_error", retryable: true, retry_after_ms: 60_000 });
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(refused.headers.get("cache-control")).toBe("no-store");
    expect(refused.headers.get("access-control-allow-origin")).toBe("*");
    expect(Object.fromEntries([...refused.headers].filter(([name]) => name.startsWith("ratelimit")))).toEqual({
      "ratelimit-limit": "60",
      "ratelimit-remaining": "0",
      "ratelimit-reset": "60",
      "ratelimit-policy": "60;w=60",
    });

    // Later in the same window: every public path is refused, with the time left to the window's end.
    clock.advance(45_000);
    const later = await get("/quote/onetime?amount=100&term=28");
    expect((await expectApiError(later, 429, "rate_limited")).error.retry_after_ms).toBe(15_000);
    expect(later.headers.get("retry-after")).toBe("15");
    await expectApiError(await get("/nope"), 429, "rate_limited");
    await expectApiError(await get("/products", { method: "POST" }), 429, "rate_limited");

    clock.advance(15_000);
    const next = await get("/products");
    expect(next.status).toBe(200);
    expect(next.headers.get("ratelimit-remaining")).toBe("59");
    expect(next.headers.get("ratelimit-reset")).toBe("60");
  });
});
