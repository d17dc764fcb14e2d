// The public MCP server's tools (spec 4.9): read-only, no customer data, every figure from the same sources as
// the public ring (the pricing configuration, the quote function, the loyalty ladder), so an agent and
// /public/v1 never disagree. Money in results is in pence with `units` (spec 2.1); catalogue figures keep the
// public ring's `_pounds` keys.
import { z } from "zod";
import { directApplyUrl } from "../direct-apply/links";
import { loyaltyLadder } from "../loyalty/tiers";
import { loyaltyLadderSchema } from "../loyalty/schemas";
import { getPricingConfig } from "../pricing/config";
import { MAX_AMOUNT_PENCE, MAX_TERM_MONTHS, MIN_AMOUNT_PENCE, MIN_TERM_MONTHS } from "../decisions/pricing-table";
import { formatPounds, formatWholePounds } from "../money";
import { businessLoanQuote, catalogueOf } from "../pricing/public-service";
import type { Frequency, OneTimeQuotePence } from "../pricing/quotes";
import { text } from "../wire/response-schema";
import { mcpQuoteResultSchema } from "./schemas";
import { defineTool, ToolTable, type McpTool } from "./tools";

/** The public tools act for nobody: they read no caller, so the partner server carries them too. */
type Nobody = unknown;

const PRODUCTS = ["business_loan", "flex", "slice"] as const;
type ProductId = (typeof PRODUCTS)[number];


function quoteResult(quote: OneTimeQuotePence): z.output<typeof mcpQuoteResultSchema> {
  return {
    product: quote.product,
    currency: quote.currency,
    units: "pence",
    principal: quote.principal,
    term_days: quote.term_days,
    frequency: quote.frequency,
    establishment_fee: quote.establishment_fee,
    total_interest: quote.total_interest,
    total_cost: quote.total_cost,
    total_repayable: quote.total_repayable,
    periods: quote.periods,
    payment_each: quote.payment_each,
  };
}

function describeQuote(quote: OneTimeQuotePence): string {
  return (
    `Borrowing ${formatPounds(quote.principal)} over ${quote.term_days} days costs ${formatPounds(quote.total_cost)} ` +
    `(${formatPounds(quote.establishment_fee)} establishment fee and ${formatPounds(quote.total_interest)} interest), ` +
    `${formatPounds(quote.total_repayable)} in all: ${quote.periods} ${quote.frequency} payments of ${formatPounds(quote.payment_each)}` +
    (quote.final_payment === quote.payment_each ? "." : `, the last ${formatPounds(quote.final_payment)}.`)
  );
}

/**
 * Which Business Loan a quote is (issue 29, "one story about the products"): the short-term loan of the public
 * ring, on the pricing configuration's scale, and not the business term loan that partners and the site's Apply
 * page start, so an agent never relays two contradictory "Business Loans".
 */
function quotedScale(loan: { amount_min_pounds: number; amount_max_pounds: number; term_min_days: number; term_max_days: number }): string {
  return (
    `Short-term Business Loan (${formatWholePounds(loan.amount_min_pounds * 100)} to ${formatWholePounds(loan.amount_max_pounds * 100)} over ${loan.term_min_days} to ${loan.term_max_days} days; ` +
    `business term loans through partners or the Apply page are ${formatWholePounds(MIN_AMOUNT_PENCE)} to ${formatWholePounds(MAX_AMOUNT_PENCE)} over ${MIN_TERM_MONTHS} to ${MAX_TERM_MONTHS} months at an APR, priced when applying).`
  );
}

const noArguments = z.strictObject({});

const productSummarySchema = z.strictObject({ id: z.enum(PRODUCTS), name: text(), kind: text(), is_credit: z.boolean(), available: z.boolean(), description: text() });

const listProducts = defineTool<Nobody, typeof noArguments, z.ZodType<{ currency: "GBP"; products: Array<z.output<typeof productSummarySchema>> }>>({
  name: "list_products",
  alias: "ListProducts",
  title: "List products",
  description: "The three products (Business Loan, Flex, Slice), each with a one-line description and whether it is available now.",
  input: noArguments,
  output: z.strictObject({ currency: z.literal("GBP"), products: z.array(productSummarySchema) }),
  async run() {
    const catalogue = catalogueOf(await getPricingConfig());
    const products = PRODUCTS.map((id) => {
      const { name, kind, is_credit, enabled, description } = catalogue.products[id];
      return { id, name, kind, is_credit, available: enabled, description };
    });
    const lines = products.map((product) => `${product.name} (${product.id})${product.available ? "" : " [not available now]"}: ${product.description}`);
    return { text: lines.join("\n"), structured: { currency: "GBP", products } };
  },
});

// The loan's worked example: a representative amount and term, moved into the configured range if need be.
const EXAMPLE = { amount: 300, term: 28, frequency: "weekly" as Frequency };
const clamp = (value: number, min: number, max: number) => Math.min(Math.max(value, min), max);

const productDetailsInput = z.strictObject({ product: z.enum(PRODUCTS).meta({ description: "business_loan, flex or slice" }) });
const productDetailsOutput = z.strictObject({
  product: z.strictObject({
    id: z.enum(PRODUCTS),
    name: text(),
    kind: text(),
    enabled: z.boolean(),
    is_credit: z.boolean(),
    currency: z.literal("GBP"),
    description: text(),
    figures: z.record(text(), z.union([z.number(), z.array(z.number())])).meta({ description: "The pricing figures, as GET /public/v1/products publishes them (money keys end _pounds)." }),
  }),
  worked_example: mcpQuoteResultSchema.optional().meta({ description: "Business Loan only: a quote for a representative amount and term, in pence." }),
  pricing_version: z.int(),
});

const productDetails = defineTool<Nobody, typeof productDetailsInput, typeof productDetailsOutput>({
  name: "product_details",
  alias: "ProductDetails",
  title: "Product details",
  description: "One product's description and pricing figures; for the Business Loan, a worked example in pence.",
  input: productDetailsInput,
  output: productDetailsOutput,
  async run({ product }) {
    const pricing = await getPricingConfig();
    const entry = { ...catalogueOf(pricing).products[product as ProductId], id: product as ProductId };
    const figures = Object.entries(entry.figures)
      .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(", ") : value}`)
      .join("; ");
    if (product !== "business_loan") {
      return { text: `${entry.name}: ${entry.description}\nFigures: ${figures}.`, structured: { product: entry, pricing_version: pricing.version } };
    }
    const loan = pricing.business_loan;
    const { quote } = await businessLoanQuote({
      amount: clamp(EXAMPLE.amount, loan.amount_min_pounds, loan.amount_max_pounds),
      term: clamp(EXAMPLE.term, loan.term_min_days, loan.term_max_days),
      frequency: EXAMPLE.frequency,
    });
    return {
      text: `${entry.name}: ${entry.description}\nFigures: ${figures}.\n${quotedScale(loan)}\nWorked example: ${describeQuote(quote)}`,
      structured: { product: entry, worked_example: quoteResult(quote), pricing_version: pricing.version },
    };
  },
});

const getQuoteInput = z.strictObject({
  amount: z.int().meta({ description: "The amount to borrow in whole pounds, within the Business Loan's range (product_details gives it)." }),
  term: z.int().meta({ description: "The term in days, within the Business Loan's range." }),
  frequency: z.enum(["weekly", "fortnightly", "monthly"]).default("weekly").meta({ description: "How often payments fall: weekly (the default), fortnightly or monthly." }),
});

const getQuote = defineTool<Nobody, typeof getQuoteInput, typeof mcpQuoteResultSchema>({
  name: "get_quote",
  alias: "GetQuote",
  title: "Quote a Business Loan",
  description:
    "A representative quote for the short-term Business Loan, the public scale quoted in pounds over days (product_details gives its range, from the pricing configuration); " +
    "not the business term loan that partners and the Apply page start, which runs over months at an APR and is priced when applying. " +
    "Amount in whole pounds, term in days, optional payment frequency. " +
    "The result is in pence. Out-of-range arguments are invalid params (-32602) naming the field and the range.",
  input: getQuoteInput,
  output: mcpQuoteResultSchema,
  async run({ amount, term, frequency }) {
    const { quote, config: pricing } = await businessLoanQuote({ amount, term, frequency });
    return { text: `${quotedScale(pricing.business_loan)} ${describeQuote(quote)}`, structured: quoteResult(quote) };
  },
});

const eligibilityOutput = z.strictObject({
  who_can_borrow: z.array(text()),
  who_cannot_borrow: z.array(text()),
  applicant: text(),
  regulatory_note: text(),
});

const eligibilityCriteria = defineTool<Nobody, typeof noArguments, typeof eligibilityOutput>({
  name: "eligibility_criteria",
  alias: "EligibilityCriteria",
  title: "Eligibility criteria",
  description: "Who can borrow, who cannot, who may apply for a company, and the regulatory framing of the products.",
  input: noArguments,
  output: eligibilityOutput,
  run() {
    const structured = {
      who_can_borrow: ["UK limited companies registered at Companies House and still active", "UK LLPs (limited liability partnerships) registered at Companies House and still active"],
      who_cannot_borrow: ["sole traders", "partnerships", "dissolved companies", "individuals"],
      applicant: "A director of the company or, for an LLP, a designated member.",
      regulatory_note:
        "Business Loan and Flex are commercial credit for companies, not consumer credit; Slice spreads a bill over instalments for one fixed fee and is not credit. " +
        "Every application is checked: the company at Companies House, the applicant's identity, the business credit file (with consent) and affordability.",
    };
    return {
      text: `We lend to ${structured.who_can_borrow.join(" and ")}. We cannot lend to ${structured.who_cannot_borrow.join(", ")}. ${structured.applicant} ${structured.regulatory_note}`,
      structured,
    };
  },
});

const loyaltyTiers = defineTool<Nobody, typeof noArguments, typeof loyaltyLadderSchema>({
  name: "loyalty_tiers",
  alias: "LoyaltyTiers",
  title: "Loyalty tiers",
  description: "The loyalty ladder (bronze, silver, gold, platinum): what each tier takes and gives; the same as GET /public/v1/loyalty/tiers.",
  input: noArguments,
  output: loyaltyLadderSchema,
  run() {
    const ladder = loyaltyLadder();
    const lines = ladder.tiers.map(
      (tier) =>
        `${tier.label}: ${tier.thresholds.min_repaid_loans} repaid loans and ${tier.thresholds.min_tenure_months} months with us; ${tier.benefits.arrangement_fee_discount_pct}% off the arrangement fee.`,
    );
    return { text: `${lines.join("\n")}\nA tier earned is kept for ${ladder.cooldown_days} days before any downgrade.`, structured: ladder };
  },
});

const howToApplyOutput = z.strictObject({ steps: z.array(text()), apply_url: text(), partners: text() });

const howToApply = defineTool<Nobody, typeof noArguments, typeof howToApplyOutput>({
  name: "how_to_apply",
  alias: "HowToApply",
  title: "How to apply",
  description: "The application steps and the URL to apply at.",
  input: noArguments,
  output: howToApplyOutput,
  run() {
    const structured = {
      steps: [
        "Check the company is eligible (eligibility_criteria) and choose a product (list_products, product_details).",
        "Apply online with the company number and the details of the director (or, for an LLP, the designated member) applying.",
        "Connect the business bank account through open banking so affordability can be checked.",
        "We check the company, verify the applicant's identity and, with consent, search the business credit file.",
        "Read the offer and its total cost, then accept it or not; nothing is owed before you accept.",
      ],
      apply_url: directApplyUrl(),
      partners: "You can also apply through one of our partners, whose own journey leads to the same application.",
    };
    return { text: `${structured.steps.map((step, index) => `${index + 1}. ${step}`).join("\n")}\nApply at ${structured.apply_url}.`, structured };
  },
});

export const PUBLIC_TOOLS: readonly McpTool<Nobody>[] = [listProducts, productDetails, getQuote, eligibilityCriteria, loyaltyTiers, howToApply];

let table: ToolTable<Nobody> | undefined;

/** The public tools, built once per process. */
export function publicToolTable(): ToolTable<Nobody> {
  table ??= new ToolTable(PUBLIC_TOOLS);
  return table;
}
