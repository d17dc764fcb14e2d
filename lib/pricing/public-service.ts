// The public ring's pricing endpoints (spec 4.8, 2.10): the catalogue, the configuration, and the two quotes,
// all from the one configuration, so they always reconcile.
import { z } from "zod";
import { requestString } from "../wire/request-string";
import { fieldLabel } from "../wire/validation";
import { ApiError, type ErrorDetail } from "../errors";
import { RenderedJson } from "../wire/rendered-json";
import { getPricingConfig } from "./config";
import { flexPreviewInPounds, FREQUENCIES, oneTimeQuoteInPounds, previewFlex, quoteOneTime, type Frequency, type OneTimeQuotePence } from "./quotes";
import type { PricingConfig } from "./schemas";
import { formatWholePounds } from "../money";

const wholeNumber = requestString()
  .refine((value) => /^-?\d+(\.\d+)?$/.test(value), { error: (issue) => `${fieldLabel(issue.path)} must be a number.`, params: { reason: "invalid_type" }, abort: true })
  .refine((value) => /^-?\d+$/.test(value), { error: (issue) => `${fieldLabel(issue.path)} must be a whole number.`, params: { reason: "not_integer" }, abort: true })
  .refine((value) => value.length <= 9, { error: (issue) => `${fieldLabel(issue.path)} must have at most 9 digits.`, params: { reason: "too_large" } })
  .transform(Number);

// The public ring's Business Loan is the spec's small short loan (£50 to £500 over 14 to 84 days, spec 4.8);
// partner applications are another scale (£1,000 to £250,000 over 3 to 60 months, lib/applications/schemas.ts).
const BUSINESS_LOAN_QUOTE = "a Business Loan quote";
const FLEX_QUOTE = "a Flex quote";

export const oneTimeQuoteQuerySchema = z.strictObject({
  amount: wholeNumber,
  term: wholeNumber,
  frequency: z.enum(Object.keys(FREQUENCIES) as [Frequency, ...Frequency[]]).default("weekly"),
});

export const flexQuoteQuerySchema = z.strictObject({
  limit: wholeNumber,
  draw: wholeNumber.optional(),
  months: wholeNumber.optional(),
});

interface Range {
  min: number;
  max: number;
  unit: "pounds" | "days" | "months";
  /** What the range belongs to, so a caller who mixed up the public quotes and partner applications sees which one answered. */
  of: string;
  /** Why the bound is what it is, when it is not the product's ("at most the limit"). */
  note?: string;
}

/** The out-of-range item for `value`, naming the whole range in the field's unit (and in pounds, for money). */
function rangeProblem(field: string, value: number, range: Range): ErrorDetail | null {
  if (value >= range.min && value <= range.max) return null;
  const inPounds = range.unit === "pounds" ? ` (${formatWholePounds(range.min * 100)} to ${formatWholePounds(range.max * 100)})` : "";
  const message = `${field} must be between ${range.min} and ${range.max} ${range.unit}${inPounds} for ${range.of}${range.note ? `: ${range.note}` : ""}.`;
  return { field, reason: value < range.min ? "too_small" : "too_large", message };
}

function assertInRange(problems: Array<ErrorDetail | null>): void {
  const detail = problems.filter((problem): problem is ErrorDetail => problem !== null);
  if (detail.length > 0) throw new ApiError("validation_failed", { detail });
}

/** The product catalogue (spec 2.10) of one configuration: GET /public/v1/products and the MCP product tools. */
export function catalogueOf(config: PricingConfig) {
  return {
    currency: config.currency,
    products: {
      business_loan: {
        id: "business_loan",
        name: "Business Loan",
        kind: "fixed_sum_loan",
        enabled: config.business_loan.enabled,
        is_credit: true,
        currency: config.currency,
        description: "A short fixed-sum loan for UK limited companies and LLPs, repaid in equal instalments.",
        figures: {
          amount_min_pounds: config.business_loan.amount_min_pounds,
          amount_max_pounds: config.business_loan.amount_max_pounds,
          term_min_days: config.business_loan.term_min_days,
          term_max_days: config.business_loan.term_max_days,
          daily_rate: config.business_loan.daily_rate,
          establishment_fee_pounds: config.business_loan.establishment_fee_pounds,
          total_cost_cap_multiple: config.business_loan.total_cost_cap_multiple,
          late_fee_pounds: config.business_loan.late_fee_pounds,
        },
      },
      flex: {
        id: "flex",
        name: "Flex",
        kind: "revolving_credit",
        enabled: config.flex.enabled,
        is_credit: true,
        currency: config.currency,
        description: "A revolving business credit facility: draw what you need up to your limit, repay monthly.",
        figures: {
          limit_min_pounds: config.flex.limit_min_pounds,
          limit_max_pounds: config.flex.limit_max_pounds,
          monthly_rate: config.flex.monthly_rate,
          draw_fee_rate: config.flex.draw_fee_rate,
          repayment_months_min: config.flex.repayment_months_min,
          repayment_months_max: config.flex.repayment_months_max,
        },
      },
      slice: {
        id: "slice",
        name: "Slice",
        kind: "fixed_fee_instalments",
        enabled: config.slice.enabled,
        is_credit: false,
        currency: config.currency,
        description: "Pay an accepted biller now and spread the bill over a few instalments for one fixed fee.",
        figures: {
          bill_min_pounds: config.slice.bill_min_pounds,
          bill_max_pounds: config.slice.bill_max_pounds,
          instalment_counts: config.slice.instalment_counts,
          plan_fee_pounds: config.slice.plan_fee_pounds,
        },
      },
    },
    pricing_version: config.version,
  };
}

// The catalogue changes only with the pricing configuration (re-read every few seconds), so each
// configuration's catalogue is rendered once rather than on every request.
const renderedCatalogues = new WeakMap<PricingConfig, RenderedJson>();

export async function productCatalogue(): Promise<RenderedJson> {
  const config = await getPricingConfig();
  let rendered = renderedCatalogues.get(config);
  if (!rendered) {
    rendered = new RenderedJson(JSON.stringify(catalogueOf(config)));
    renderedCatalogues.set(config, rendered);
  }
  return rendered;
}

export async function pricingConfiguration(): Promise<PricingConfig> {
  return getPricingConfig();
}

/**
 * The Business Loan quote in pence, its amount and term checked against the configured range first (422
 * `validation_failed`, one detail item per field): the public quote in pounds and the MCP get_quote tool.
 */
export async function businessLoanQuote(query: { amount: number; term: number; frequency: Frequency }): Promise<{ quote: OneTimeQuotePence; config: PricingConfig }> {
  const config = await getPricingConfig();
  const figures = config.business_loan;
  assertInRange([
    rangeProblem("amount", query.amount, { min: figures.amount_min_pounds, max: figures.amount_max_pounds, unit: "pounds", of: BUSINESS_LOAN_QUOTE }),
    rangeProblem("term", query.term, { min: figures.term_min_days, max: figures.term_max_days, unit: "days", of: BUSINESS_LOAN_QUOTE }),
  ]);
  return { quote: quoteOneTime(figures, { amountPounds: query.amount, termDays: query.term, frequency: query.frequency }), config };
}

export async function oneTimeQuote(query: z.output<typeof oneTimeQuoteQuerySchema>) {
  const { quote, config } = await businessLoanQuote(query);
  return oneTimeQuoteInPounds(quote, config.business_loan, config.version);
}

/** Flex preview: `limit` (pounds, required), `draw` (pounds, default the whole limit), `months` (default 3, within the configured range). */
export async function flexQuote(query: z.output<typeof flexQuoteQuerySchema>) {
  const config = await getPricingConfig();
  const figures = config.flex;
  const draw = query.draw ?? query.limit;
  const months = query.months ?? Math.min(Math.max(3, figures.repayment_months_min), figures.repayment_months_max);
  assertInRange([
    rangeProblem("limit", query.limit, { min: figures.limit_min_pounds, max: figures.limit_max_pounds, unit: "pounds", of: FLEX_QUOTE }),
    rangeProblem("draw", draw, { min: 1, max: query.limit, unit: "pounds", of: FLEX_QUOTE, note: "at most the limit" }),
    rangeProblem("months", months, { min: figures.repayment_months_min, max: figures.repayment_months_max, unit: "months", of: FLEX_QUOTE }),
  ]);
  return flexPreviewInPounds(previewFlex(figures, { limitPounds: query.limit, drawPounds: draw, months }), figures, config.version);
}
