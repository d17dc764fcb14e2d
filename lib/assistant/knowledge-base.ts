// The assistant's bounded knowledge base (spec 4.1: general questions on products, eligibility and costs, from a
// bounded knowledge base, no account access). Its entries come only from published sources: the pricing
// configuration (the one source of figures: every number in a product answer is read from it, never written
// here), the loyalty ladder, published CMS pages (one entry per section) and a few curated entries with no
// figures in them. Answers are fixed HTML per entry: a visitor's words are matched against entries, never echoed.
import MiniSearch from "minisearch";
import sanitizeHtml from "sanitize-html";
import { clock, isFresh } from "../clock";
import { sanitizePageHtml } from "../cms/sanitize";
import { directApplyUrl } from "../direct-apply/links";
import type { PublicCmsPage } from "../cms/serialize";
import { listPublishedPages } from "../cms/service";
import { MAX_AMOUNT_PENCE, MAX_TERM_MONTHS, MIN_AMOUNT_PENCE, MIN_TERM_MONTHS, PRICING_TABLE } from "../decisions/pricing-table";
import { LOYALTY_COOLDOWN_DAYS, LOYALTY_TIERS } from "../loyalty/tiers";
import { formatPounds, formatWholePounds } from "../money";
import { getPricingConfig } from "../pricing/config";
import type { PricingConfig, PricingFigures } from "../pricing/schemas";

export type KnowledgeSource = "pricing" | "loyalty" | "cms" | "curated";

export interface KnowledgeEntry {
  id: string;
  title: string;
  /** What retrieval matches against: plain text, possibly with the words visitors use for the topic. */
  text: string;
  /** The reply, sanitised HTML. */
  answerHtml: string;
  source: KnowledgeSource;
}

export interface KnowledgeMatch {
  entry: KnowledgeEntry;
  score: number;
}

export interface KnowledgeBase {
  readonly entries: readonly KnowledgeEntry[];
  /** Entries matching `query`, best first. */
  search(query: string): KnowledgeMatch[];
}

// Bounds: however many pages an editor publishes, the index stays small and every answer short.
const MAX_CMS_PAGES = 50;
const MAX_CMS_ENTRIES = 200;
const MAX_ENTRY_TEXT_CHARACTERS = 4_000;
/** A CMS section longer than this is answered with an excerpt of its text instead of its HTML. */
const MAX_SECTION_ANSWER_CHARACTERS = 1_500;
const EXCERPT_CHARACTERS = 600;

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

export function htmlToText(html: string): string {
  return sanitizeHtml(html, { allowedTags: [], allowedAttributes: {}, nonTextTags: ["script", "style", "textarea", "noscript", "template", "title"] })
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    // Last, so an escaped entity ("&amp;lt;") decodes once, to its text ("&lt;").
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}

function truncate(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const cut = text.slice(0, limit);
  const lastSpace = cut.lastIndexOf(" ");
  return `${cut.slice(0, lastSpace > limit / 2 ? lastSpace : limit)}…`;
}

// Figures as the public reads them. Each takes a value from the configuration; none adds a number of its own.
/** Configured pounds (two decimal places at most) as lib/money.ts writes money: whole pounds bare, else with pence. */
function formatConfiguredPounds(pounds: number): string {
  const pence = Math.round(pounds * 100);
  return pence % 100 === 0 ? formatWholePounds(pence) : formatPounds(pence);
}

/** A decimal rate as a percentage: 0.0025 → "0.25%" (toPrecision drops the binary noise of the multiplication). */
function formatPercent(rate: number): string {
  return `${Number((rate * 100).toPrecision(12))}%`;
}

function formatList(items: readonly string[], conjunction: "and" | "or"): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${conjunction} ${items[items.length - 1]}`;
}

function paragraphs(...texts: string[]): string {
  return texts.map((text) => `<p>${escapeHtml(text)}</p>`).join("");
}

function notOffered(product: string): string {
  return `${product} is not available at the moment.`;
}

/**
 * The Business Loan comes on two scales, and every answer names both so no visitor reads two contradictory loans:
 * the short-term scale of the online quote (the pricing configuration) and the term scale of applications,
 * made directly or through a partner (the published APR table of lib/decisions/pricing-table.ts).
 */
function businessLoanEntry(config: PricingFigures): KnowledgeEntry {
  const loan = config.business_loan;
  const quoteScale = loan.enabled
    ? `Short-term Business Loan (the scale our online quote uses): from ${formatConfiguredPounds(loan.amount_min_pounds)} to ${formatConfiguredPounds(loan.amount_max_pounds)} over ${loan.term_min_days} to ${loan.term_max_days} days ` +
      `at a daily rate of ${formatPercent(loan.daily_rate)}, with a ${formatConfiguredPounds(loan.establishment_fee_pounds)} establishment fee; ` +
      `total cost never exceeds ${loan.total_cost_cap_multiple}× the amount borrowed; late fee ${formatConfiguredPounds(loan.late_fee_pounds)}.`
    : notOffered("The short-term Business Loan");
  const aprs = PRICING_TABLE.map((band) => band.apr_bps);
  const applicationScale =
    `Term Business Loan (the scale of applications, made directly or through a partner): from ${formatWholePounds(MIN_AMOUNT_PENCE)} to ${formatWholePounds(MAX_AMOUNT_PENCE)} ` +
    `over ${MIN_TERM_MONTHS} to ${MAX_TERM_MONTHS} months, at ${formatPercent(Math.min(...aprs) / 10_000)} to ${formatPercent(Math.max(...aprs) / 10_000)} APR depending on the amount and term; your offer shows the exact cost before you accept.`;
  const description = "A Business Loan is a fixed sum for UK limited companies and LLPs, repaid in equal instalments. It comes on two scales:";
  return {
    id: "pricing:business_loan",
    title: "Business Loan: amounts, terms, interest rate and fees",
    text: `${description} ${quoteScale} ${applicationScale} How much can I borrow, how long for, what does a loan cost, interest, APR, charges, price, minimum and maximum loan, repayment term, late payment fee.`,
    answerHtml: `<p>${escapeHtml(description)}</p><ul><li>${escapeHtml(quoteScale)}</li><li>${escapeHtml(applicationScale)}</li></ul>`,
    source: "pricing",
  };
}

function flexEntry(config: PricingFigures): KnowledgeEntry {
  const flex = config.flex;
  const summary = flex.enabled
    ? `Flex limits are from ${formatConfiguredPounds(flex.limit_min_pounds)} to ${formatConfiguredPounds(flex.limit_max_pounds)}. Interest is ${formatPercent(flex.monthly_rate)} a month on the drawn balance, ` +
      `each draw has a fee of ${formatPercent(flex.draw_fee_rate)} of the amount drawn, and each draw is repaid over ${flex.repayment_months_min} to ${flex.repayment_months_max} months.`
    : notOffered("Flex");
  const description = "Flex is a revolving business credit facility: draw what you need up to your limit, repay, and draw again.";
  return {
    id: "pricing:flex",
    title: "Flex revolving credit facility: limits, rate and fees",
    text: `${description} ${summary} Credit line, overdraft, revolving credit, credit limit, draw down, interest, charges, cost.`,
    answerHtml: paragraphs(description, summary),
    source: "pricing",
  };
}

function sliceEntry(config: PricingFigures): KnowledgeEntry {
  const slice = config.slice;
  const counts = formatList(slice.instalment_counts.map(String), "or");
  const summary = slice.enabled
    ? `Slice covers bills from ${formatConfiguredPounds(slice.bill_min_pounds)} to ${formatConfiguredPounds(slice.bill_max_pounds)}, spread over ${counts} instalments ` +
      `for one fixed fee of ${formatConfiguredPounds(slice.plan_fee_pounds)} per plan. Slice is not credit and charges no interest.`
    : notOffered("Slice");
  const description = "Slice lets a company pay an accepted biller now and spread the bill over a few instalments.";
  return {
    id: "pricing:slice",
    title: "Slice: pay accepted billers in instalments",
    text: `${description} ${summary} Split a bill, spread the cost of paying suppliers, instalment plan, plan fee, cost.`,
    answerHtml: paragraphs(description, summary),
    source: "pricing",
  };
}

function productsEntry(config: PricingFigures): KnowledgeEntry {
  const offered = [
    config.business_loan.enabled ? "Business Loan, a fixed sum repaid in equal instalments" : null,
    config.flex.enabled ? "Flex, a revolving credit facility" : null,
    config.slice.enabled ? "Slice, to pay accepted billers now and spread the cost for a fixed fee" : null,
  ].filter((item): item is string => item !== null);
  const answerHtml =
    offered.length === 0
      ? paragraphs("We are not offering new finance at the moment.")
      : `<p>${escapeHtml("We lend to UK limited companies and LLPs. Our products:")}</p><ul>${offered.map((item) => `<li>${escapeHtml(item)}</li>`).join("")}</ul>` +
        paragraphs("Ask about any of them for its amounts, terms and costs.");
  return {
    id: "pricing:products",
    title: "Our products: Business Loan, Flex and Slice",
    text: `Products we offer, what finance is available, types of business finance, options. ${offered.join(". ")}.`,
    answerHtml,
    source: "pricing",
  };
}

function loyaltyEntry(): KnowledgeEntry {
  const [first, ...higher] = LOYALTY_TIERS;
  const items = higher.map(
    (tier) =>
      `${tier.label}: after ${tier.thresholds.min_repaid_loans} repaid loan(s) and ${tier.thresholds.min_tenure_months} months with us, ` +
      `${tier.benefits.arrangement_fee_discount_pct}% off the arrangement fee`,
  );
  const intro = `Our loyalty ladder rewards companies that repay well. Everyone starts at ${first.label}; the higher tiers are:`;
  const cooldown = `A tier once earned is kept for ${LOYALTY_COOLDOWN_DAYS} days before any downgrade is considered.`;
  return {
    id: "loyalty:tiers",
    title: "Loyalty tiers and rewards",
    text: `${intro} ${items.join(". ")}. ${cooldown} Loyalty programme, rewards, discounts, returning customers, bronze silver gold platinum.`,
    answerHtml: `<p>${escapeHtml(intro)}</p><ul>${items.map((item) => `<li>${escapeHtml(item)}</li>`).join("")}</ul>${paragraphs(cooldown)}`,
    source: "loyalty",
  };
}

/** How to apply, with the link every apply answer gives: the site's Apply page (docs/apply-directly.md). */
function howToApplyEntry(applyUrl: string): KnowledgeEntry {
  return {
    id: "curated:how-to-apply",
    title: "How to apply",
    text:
      "How to apply for finance, application process, getting started, sign up. Apply online directly or through one of our partners. " +
      "You need the company number, the details of the director applying, and to connect the business bank account through open banking " +
      "so we can check affordability. You see the offer and its total cost before you accept.",
    answerHtml:
      paragraphs(
        "You can apply online, directly or through one of our partners. You will need the company number and the details of the director (or, for an LLP, the designated member) applying.",
        "We ask you to connect the business bank account through open banking so we can check affordability. You see the offer and its total cost before you accept anything.",
      ) + `<p><a href="${escapeHtml(applyUrl)}">Apply directly</a></p>`,
    source: "curated",
  };
}

/** Curated entries: general facts with no figures (figures belong to the pricing configuration). */
const CURATED_ENTRIES: readonly KnowledgeEntry[] = [
  {
    id: "curated:eligibility",
    title: "Who can borrow: eligibility",
    text:
      "Who can borrow and who is eligible to apply. We lend only to UK limited companies and LLPs (limited liability partnerships) " +
      "registered at Companies House and still active. We cannot lend to sole traders, partnerships, dissolved companies or individuals. " +
      "The person applying must be a director or, for an LLP, a designated member. Qualify, eligible, requirements, criteria, self-employed.",
    answerHtml: paragraphs(
      "We lend only to UK limited companies and LLPs that are registered at Companies House and still active.",
      "We cannot lend to sole traders, partnerships or individuals. The person applying must be a director of the company or, for an LLP, a designated member.",
    ),
    source: "curated",
  },
  {
    id: "curated:decisions",
    title: "How lending decisions are made",
    text:
      "How decisions work, approval, declined, credit check, credit search, underwriting, how long does a decision take. " +
      "We check the company at Companies House, verify the identity of the person applying, search the business credit file with consent, " +
      "and look at affordability from the bank account. Most decisions are quick; some are referred to an underwriter.",
    answerHtml: paragraphs(
      "We check the company at Companies House, verify the identity of the person applying, search the business's credit file (we tell you first and never search without consent) and look at affordability from the business bank account.",
      "Most applications are decided quickly. Some are referred to an underwriter, who may ask for more information; we tell you if that happens.",
    ),
    source: "curated",
  },
  {
    id: "curated:contact",
    title: "Contact us and complaints",
    text:
      "Contact us, speak to someone, customer support, help, complaint, complain, unhappy, problem, feedback, email, phone. " +
      "For your own account sign in. Send us a message through the contact form on our website; our complaints page explains how we handle complaints.",
    answerHtml: paragraphs(
      "To ask a question, send us a message through the contact form on our website; for anything about your own account, please sign in first.",
      "If you are unhappy with our service, tell us through the same form and choose complaint: our complaints page explains how we handle it and when you will hear from us.",
    ),
    source: "curated",
  },
];

/** A published page as entries: its introduction and each `<h2>` section (sanitised again: defence in depth). */
function pageEntries(page: PublicCmsPage): KnowledgeEntry[] {
  const chunks = page.html.split(/(?=<h2[\s>])/i);
  const entries: KnowledgeEntry[] = [];
  chunks.forEach((chunk, index) => {
    const heading = /^<h2[^>]*>([\s\S]*?)<\/h2>/i.exec(chunk);
    const sectionTitle = heading ? htmlToText(heading[1]!) : "";
    const bodyHtml = heading ? chunk.slice(heading[0].length) : chunk.replace(/<h1[^>]*>[\s\S]*?<\/h1>/i, "");
    const text = truncate(htmlToText(bodyHtml), MAX_ENTRY_TEXT_CHARACTERS);
    if (text === "") return;
    const title = sectionTitle ? `${page.title}: ${sectionTitle}` : page.title;
    const body = text.length <= MAX_SECTION_ANSWER_CHARACTERS ? sanitizePageHtml(bodyHtml) : paragraphs(truncate(text, EXCERPT_CHARACTERS));
    entries.push({
      id: `cms:${page.key}:${index}`,
      title,
      text,
      answerHtml: `<p><strong>${escapeHtml(sectionTitle || page.title)}</strong></p>${body}`,
      source: "cms",
    });
  });
  return entries;
}

// Words that say nothing about the topic; dropped from entries and questions alike.
const STOP_WORDS = new Set(
  ("a about an and are as at be by can could do does did for from get got have has hello hi how i i'm if in is it its me much many my of on or our " +
    "please should tell than thanks that the their there this to us was we what when where which who why will with would you your")
    .split(" "),
);

function processTerm(term: string): string | null {
  const word = term.toLowerCase();
  return word.length < 2 || STOP_WORDS.has(word) ? null : word;
}

/** Curated and pricing entries are authoritative; CMS sections rank below them on an equal match. */
const SOURCE_BOOST: Record<KnowledgeSource, number> = { curated: 1.3, pricing: 1.3, loyalty: 1.2, cms: 1 };

/** Builds the knowledge base from explicit sources: pure, so tests can build it from any configuration. */
export function buildKnowledgeBase(config: PricingFigures, pages: readonly PublicCmsPage[], applyUrl = directApplyUrl()): KnowledgeBase {
  const entries: KnowledgeEntry[] = [
    productsEntry(config),
    businessLoanEntry(config),
    flexEntry(config),
    sliceEntry(config),
    loyaltyEntry(),
    howToApplyEntry(applyUrl),
    ...CURATED_ENTRIES,
    ...pages.slice(0, MAX_CMS_PAGES).flatMap(pageEntries).slice(0, MAX_CMS_ENTRIES),
  ];
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const index = new MiniSearch<KnowledgeEntry>({
    fields: ["title", "text"],
    idField: "id",
    processTerm,
    searchOptions: {
      boost: { title: 2 },
      fuzzy: 0.2,
      prefix: true,
      boostDocument: (id) => SOURCE_BOOST[byId.get(String(id))?.source ?? "cms"],
    },
  });
  index.addAll(entries);
  return {
    entries,
    search: (query) =>
      index.search(query).flatMap((result) => {
        const entry = byId.get(String(result.id));
        return entry ? [{ entry, score: result.score }] : [];
      }),
  };
}

// The live knowledge base: sources are re-read at most every 30 s, and the index is rebuilt only when the
// pricing version or the set of published pages (key and update time) has changed.
const REFRESH_MS = 30_000;
let cached: { fingerprint: string; knowledgeBase: KnowledgeBase; checkedAt: number } | undefined;

function fingerprintOf(config: PricingConfig, pages: readonly PublicCmsPage[]): string {
  return `${config.version}|${pages.map((page) => `${page.key}@${page.updated}`).join(",")}`;
}

export async function currentKnowledgeBase(): Promise<KnowledgeBase> {
  const now = clock.now().getTime();
  if (cached && isFresh(now - cached.checkedAt, REFRESH_MS)) return cached.knowledgeBase;
  const [config, pages] = await Promise.all([getPricingConfig(), listPublishedPages()]);
  const fingerprint = fingerprintOf(config, pages);
  if (cached?.fingerprint !== fingerprint) cached = { fingerprint, knowledgeBase: buildKnowledgeBase(config, pages), checkedAt: now };
  else cached.checkedAt = now;
  return cached.knowledgeBase;
}

export function forgetCachedKnowledgeBase(): void {
  cached = undefined;
}
