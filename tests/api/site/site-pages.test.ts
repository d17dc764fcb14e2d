// The site's pages (app/(site)) rendered on the server against a database of their own: figures from the pricing
// configuration, the quote calculator's first view, CMS pages, and a change stored by another process (the CLI,
// psql) reaching the pages through the change feed, with a frozen clock so no cache can simply expire.
import { renderToStaticMarkup } from "react-dom/server";
import type { ReactElement } from "react";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import HomePage from "@/app/(site)/page";
import ProductsPage from "@/app/(site)/products/page";
import QuotePage from "@/app/(site)/quote/page";
import { CmsArticle } from "@/app/(site)/_components/cms-article";
import { changeFeed, stopChangeFeed } from "@/lib/change-feed";
import { freezeClock } from "@/lib/clock";
import { seedCmsPages } from "@/lib/cms/seed-pages";
import { db } from "@/lib/db";
import { getPricingConfig } from "@/lib/pricing/config";
import type { Prisma } from "@/lib/generated/prisma/client";
import { eventually } from "../../helpers/eventually";

const textOf = (element: ReactElement): string =>
  renderToStaticMarkup(element)
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .replace(/ ([,.;:])/g, "$1")
    .trim();

const quoteFor = async (searchParams: Record<string, string>) => textOf(await QuotePage({ searchParams: Promise.resolve(searchParams) }));

/** A new version written straight to the table, as another process would: nothing in this one is told. */
async function storeVersionFromElsewhere(change: (figures: Record<string, Record<string, unknown>>) => void): Promise<void> {
  const current = await db().pricingConfig.findFirstOrThrow({ orderBy: { version: "desc" } });
  const figures = structuredClone(current.config) as Record<string, Record<string, unknown>>;
  change(figures);
  await db().pricingConfig.create({ data: { version: current.version + 1, config: figures as unknown as Prisma.InputJsonValue, note: "test", createdAt: new Date() } });
}

beforeAll(async () => {
  await seedCmsPages();
  await eventually(async () => changeFeed().isListening(), Boolean);
});

beforeEach(() => {
  freezeClock("2027-03-01T10:00:00.000Z");
});

afterAll(async () => {
  await stopChangeFeed();
});

describe("figures from the pricing configuration", () => {
  it("the home page names both scales of Business Loan and the Flex and Slice ranges", async () => {
    const text = textOf(await HomePage());
    expect(text).toContain("Short-term: £50 to £500 over 14 to 84 days");
    expect(text).toContain("Term loan: £1,000 to £250,000 over 3 to 60 months, 9% to 24% APR");
    expect(text).toContain("Limits of £500 to £10,000");
    expect(text).toContain("Bills of £100 to £5,000");
  });

  it("the products page explains both Business Loan scales and every product's costs", async () => {
    const text = textOf(await ProductsPage());
    expect(text).toContain("Short-term Business Loan: £50 to £500 over 14 to 84 days.");
    expect(text).toContain("Business term loan: £1,000 to £250,000 over 3 to 60 months.");
    expect(text).toContain("Interest 0.25% a day on the amount borrowed");
    expect(text).toContain("Establishment fee £10");
    expect(text).toContain("Interest and fees never exceed 30% of the amount borrowed");
    expect(text).toContain("Interest 2.5% a month on the balance drawn");
    expect(text).toContain("Fee £4.99 a plan");
  });

  it("a new price stored by another process reaches the products page without waiting for any expiry", async () => {
    expect(textOf(await ProductsPage())).toContain("£50 to £500 over 14 to 84 days");
    await storeVersionFromElsewhere((figures) => {
      figures.business_loan!.amount_max_pounds = 750;
    });
    const text = await eventually(async () => textOf(await ProductsPage()), (page) => page.includes("£50 to £750 over 14 to 84 days"));
    expect(text).toContain(`Pricing version ${(await getPricingConfig()).version}.`);
    await storeVersionFromElsewhere((figures) => {
      figures.business_loan!.amount_max_pounds = 500;
    });
    await eventually(async () => textOf(await ProductsPage()), (page) => page.includes("£50 to £500 over 14 to 84 days"));
  });
});

describe("the quote calculator's server view", () => {
  it("quotes the amount, term and frequency asked for, with the schedule as a table", async () => {
    const text = await quoteFor({ amount: "300", term: "28", frequency: "weekly" });
    expect(text).toContain("Borrow £300.00");
    expect(text).toContain("4 weekly payments of £82.75");
    expect(text).toContain("Interest £21.00");
    expect(text).toContain("Establishment fee £10.00");
    expect(text).toContain("Total cost £31.00");
    expect(text).toContain("Total to repay £331.00");
    expect(text).toContain("Repayment schedule Payment Due Amount Left to pay 1 Day 7 £82.75 £248.25 2 Day 14 £82.75 £165.50 3 Day 21 £82.75 £82.75 4 Day 28 £82.75 £0.00");
    expect(text).toContain("Business term loans of £1,000 to £250,000 over 3 to 60 months are priced by an APR");
  });

  it("explains an amount out of range and shows the representative quote instead", async () => {
    const text = await quoteFor({ amount: "5000", term: "28" });
    expect(text).toContain("amount must be between 50 and 500 pounds (£50 to £500) for a Business Loan quote.");
    expect(text).toContain("Borrow £280.00");
  });
});

describe("CMS pages", () => {
  it("shows a published page under its title, once", async () => {
    const text = textOf((await CmsArticle({ pageKey: "faq" }))!);
    expect(text).toMatch(/^Frequently asked questions Last updated \d{1,2} \w+ \d{4} Who can apply\?/);
  });

  it("an edit saved by another process reaches the page", async () => {
    await db().cmsPage.update({ where: { key: "terms" }, data: { title: "Terms of use" } });
    await eventually(async () => textOf((await CmsArticle({ pageKey: "terms" }))!), (text) => text.startsWith("Terms of use "));
    await db().cmsPage.update({ where: { key: "terms" }, data: { title: "Terms, revised" } });
    const text = await eventually(async () => textOf((await CmsArticle({ pageKey: "terms" }))!), (page) => page.startsWith("Terms, revised "));
    expect(text).not.toContain("Terms of use");
  });

  it("an unpublished page is not found", async () => {
    await db().cmsPage.update({ where: { key: "about" }, data: { published: false } });
    await expect(eventually(async () => CmsArticle({ pageKey: "about" }).then(() => "shown", (error: Error) => error.message), (outcome) => outcome !== "shown")).resolves.toBe("NEXT_HTTP_ERROR_FALLBACK;404");
  });
});
