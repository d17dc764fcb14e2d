// What the site's pages are built from: the pricing configuration (lib/pricing) and the published CMS pages
// (lib/cms), each read through a per-process cache that the change feed empties the moment either changes, so
// a page is built from memory on every view and shows a new price or an edited page at once.
import { ListenedCache } from "../change-feed";
import { MAX_AMOUNT_PENCE, MAX_TERM_MONTHS, MIN_AMOUNT_PENCE, MIN_TERM_MONTHS, PRICING_TABLE } from "../decisions/pricing-table";
import { ApiError } from "../errors";
import { getPublishedPage } from "../cms/service";
import type { PublicCmsPage } from "../cms/serialize";
import { getPricingConfig } from "../pricing/config";
import type { PricingConfig } from "../pricing/schemas";

/**
 * The two scales a "business loan" comes in (issue 29, "one story about the products"): the public Business Loan
 * quoted in pounds over days (the pricing configuration), and the business term loan partners apply for in
 * months at an APR (the decision engine's published table).
 */
export interface SiteFigures {
  pricing: PricingConfig;
  termLoan: { amountMinPence: number; amountMaxPence: number; termMinMonths: number; termMaxMonths: number; aprMinBps: number; aprMaxBps: number };
}

const aprs = PRICING_TABLE.map((band) => band.apr_bps);
const TERM_LOAN = Object.freeze({
  amountMinPence: MIN_AMOUNT_PENCE,
  amountMaxPence: MAX_AMOUNT_PENCE,
  termMinMonths: MIN_TERM_MONTHS,
  termMaxMonths: MAX_TERM_MONTHS,
  aprMinBps: Math.min(...aprs),
  aprMaxBps: Math.max(...aprs),
});

export async function siteFigures(): Promise<SiteFigures> {
  return { pricing: await getPricingConfig(), termLoan: TERM_LOAN };
}

/** A missing or unpublished page is kept as `null`, so a 404 costs no query either, until the page is saved. */
const cmsPages = new ListenedCache<PublicCmsPage | null>("cms_pages", { ttlMs: 60_000, maxEntries: 200 });

/** A published CMS page, or null when there is none under `key`. */
export async function siteCmsPage(key: string): Promise<PublicCmsPage | null> {
  const page = await cmsPages.read(key, async () => {
    try {
      return await getPublishedPage(key);
    } catch (error) {
      if (error instanceof ApiError && error.code === "cms_page_not_found") return null;
      throw error;
    }
  });
  return page ?? null;
}
