// The public pricing configuration (spec 2.10, 4.8): one document, versioned in the database, the single source
// for /products, /config/pricing, both quote endpoints, the MCP quote tool and the site assistant. Money is in
// pounds as the public ring publishes it (two decimal places at most); rates are decimals (0.0025 = 0.25%).
import { z } from "zod";
import { text, timestamp } from "../wire/response-schema";

const pounds = z.number().nonnegative().multipleOf(0.01).max(1_000_000);
const wholePounds = z.int().positive().max(1_000_000);
// Precision is bounded so the quote arithmetic (lib/pricing/quotes.ts) turns each figure into an exact integer:
// rates in parts per million, the cap multiple in basis points.
const rate = z.number().min(0).max(1).multipleOf(0.000001);

export const businessLoanFiguresSchema = z.strictObject({
  enabled: z.boolean(),
  amount_min_pounds: wholePounds,
  amount_max_pounds: wholePounds,
  term_min_days: z.int().min(1).max(365),
  term_max_days: z.int().min(1).max(365),
  daily_rate: rate,
  establishment_fee_pounds: pounds,
  /** Total cost (fee plus interest) never exceeds this multiple of the principal. */
  total_cost_cap_multiple: z.number().positive().max(10).multipleOf(0.0001),
  late_fee_pounds: pounds,
});

export const flexFiguresSchema = z.strictObject({
  enabled: z.boolean(),
  limit_min_pounds: wholePounds,
  limit_max_pounds: wholePounds,
  /** Interest per month on the drawn balance. */
  monthly_rate: rate,
  /** Fee on each draw, as a fraction of the amount drawn. */
  draw_fee_rate: rate,
  repayment_months_min: z.int().min(1).max(24),
  repayment_months_max: z.int().min(1).max(24),
});

export const sliceFiguresSchema = z.strictObject({
  enabled: z.boolean(),
  bill_min_pounds: wholePounds,
  bill_max_pounds: wholePounds,
  /** The number of instalments a company may choose. */
  instalment_counts: z.array(z.int().min(2).max(12)).min(1),
  /** One fixed fee per plan, whatever the count: Slice is not credit and charges no interest. */
  plan_fee_pounds: pounds,
});

export const pricingConfigSchema = z
  .strictObject({
    currency: z.literal("GBP"),
    business_loan: businessLoanFiguresSchema,
    flex: flexFiguresSchema,
    slice: sliceFiguresSchema,
  })
  .refine((config) => config.business_loan.amount_min_pounds <= config.business_loan.amount_max_pounds, { message: "amount_min_pounds must not exceed amount_max_pounds", path: ["business_loan"] })
  .refine((config) => config.business_loan.term_min_days <= config.business_loan.term_max_days, { message: "term_min_days must not exceed term_max_days", path: ["business_loan"] })
  .refine((config) => config.flex.limit_min_pounds <= config.flex.limit_max_pounds, { message: "limit_min_pounds must not exceed limit_max_pounds", path: ["flex"] })
  .refine((config) => config.flex.repayment_months_min <= config.flex.repayment_months_max, { message: "repayment_months_min must not exceed repayment_months_max", path: ["flex"] })
  .refine((config) => config.slice.bill_min_pounds <= config.slice.bill_max_pounds, { message: "bill_min_pounds must not exceed bill_max_pounds", path: ["slice"] });

export type PricingFigures = z.output<typeof pricingConfigSchema>;

export interface PricingConfig extends PricingFigures {
  version: number;
  updated_at: string;
}

/** The configuration a new database starts with (version 1). */
export const DEFAULT_PRICING: PricingFigures = {
  currency: "GBP",
  business_loan: {
    enabled: true,
    amount_min_pounds: 50,
    amount_max_pounds: 500,
    term_min_days: 14,
    term_max_days: 84,
    daily_rate: 0.0025,
    establishment_fee_pounds: 10,
    total_cost_cap_multiple: 0.3,
    late_fee_pounds: 15,
  },
  flex: {
    enabled: true,
    limit_min_pounds: 500,
    limit_max_pounds: 10_000,
    monthly_rate: 0.025,
    draw_fee_rate: 0.015,
    repayment_months_min: 1,
    repayment_months_max: 12,
  },
  slice: {
    enabled: true,
    bill_min_pounds: 100,
    bill_max_pounds: 5_000,
    instalment_counts: [3, 6],
    plan_fee_pounds: 4.99,
  },
};

// Replies

export const pricingConfigurationSchema = z
  .strictObject({
    currency: z.literal("GBP"),
    business_loan: businessLoanFiguresSchema,
    flex: flexFiguresSchema,
    slice: sliceFiguresSchema,
    version: z.int().meta({ description: "Every change to the configuration is a new version." }),
    updated_at: timestamp(),
  })
  .meta({ id: "PricingConfiguration", description: "The authoritative pricing configuration: every public figure comes from it." });

function productSchema(id: string, kind: string, figures: z.ZodObject) {
  return z.strictObject({
    id: z.literal(id),
    name: text(),
    kind: z.literal(kind),
    enabled: z.boolean(),
    is_credit: z.boolean(),
    currency: z.literal("GBP"),
    description: text(),
    figures,
  });
}

export const productCatalogueSchema = z
  .strictObject({
    currency: z.literal("GBP"),
    products: z.strictObject({
      business_loan: productSchema("business_loan", "fixed_sum_loan", businessLoanFiguresSchema.omit({ enabled: true })),
      flex: productSchema("flex", "revolving_credit", flexFiguresSchema.omit({ enabled: true })),
      slice: productSchema("slice", "fixed_fee_instalments", sliceFiguresSchema.omit({ enabled: true })),
    }),
    pricing_version: z.int(),
  })
  .meta({ id: "ProductCatalogue", description: "The three products and their figures (spec 2.10)." });

const poundsAmount = () => z.number().meta({ description: "Pounds, to the penny." });

export const oneTimeQuoteSchema = z
  .strictObject({
    product: z.literal("business_loan"),
    currency: z.literal("GBP"),
    principal_pounds: poundsAmount(),
    term_days: z.int(),
    frequency: z.enum(["weekly", "fortnightly", "monthly"]),
    daily_rate: z.number(),
    establishment_fee_pounds: poundsAmount(),
    total_interest_pounds: poundsAmount(),
    total_cost_pounds: poundsAmount(),
    total_repayable_pounds: poundsAmount(),
    periods: z.int(),
    payment_each_pounds: poundsAmount(),
    final_payment_pounds: poundsAmount().meta({ description: "The last payment, which takes the rounding." }),
    cost_cap_applied: z.boolean(),
    pricing_version: z.int(),
  })
  .meta({ id: "OneTimeQuote", description: "A representative Business Loan quote (£50–£500 over 14–84 days, a daily rate)." });

export const flexQuoteSchema = z
  .strictObject({
    product: z.literal("flex"),
    currency: z.literal("GBP"),
    limit_pounds: poundsAmount(),
    draw_pounds: poundsAmount(),
    months: z.int(),
    monthly_rate: z.number(),
    draw_fee_pounds: poundsAmount(),
    total_interest_pounds: poundsAmount(),
    total_repayable_pounds: poundsAmount(),
    schedule: z.array(
      z.strictObject({ month: z.int(), payment_pounds: poundsAmount(), principal_pounds: poundsAmount(), interest_pounds: poundsAmount(), balance_after_pounds: poundsAmount() }),
    ),
    pricing_version: z.int(),
  })
  .meta({ id: "FlexQuote", description: "A representative Flex draw and its monthly repayments." });
