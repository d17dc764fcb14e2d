// The marketing site (app/(site)) in Chromium behind the production server: every page renders without console
// errors or policy violations and with no serious or critical accessibility violation on a desktop and a phone;
// the home page's navigation, Apply button and footer lead where they say; the quote calculator updates its
// figures, chart and table as the visitor changes it; the cookie banner records a choice and remembers it.
import { expect, test, type Page } from "@playwright/test";
import { expectUnframeablePage, watchPolicyViolations } from "./page-policy";
import { seriousViolations } from "./accessibility";

const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
];

const PAGES = [
  { path: "/", heading: "Finance for UK limited companies and LLPs" },
  { path: "/products", heading: "Products" },
  { path: "/quote", heading: "Quote calculator" },
  { path: "/eligibility", heading: "Who can borrow" },
  { path: "/how-to-apply", heading: "How to apply" },
  { path: "/loyalty", heading: "Loyalty tiers" },
  { path: "/partners", heading: "Partners and developers" },
  { path: "/contact", heading: "Contact us" },
  { path: "/faq", heading: "Frequently asked questions" },
  { path: "/about", heading: "About us" },
  { path: "/terms", heading: "Terms of use" },
  { path: "/privacy", heading: "Privacy notice" },
  { path: "/complaints", heading: "Complaints" },
  { path: "/cookies", heading: "Cookies" },
];

/** The links the site's other parts own: the Apply page and the borrower area's sign-in, merged from their branches. */
const OTHER_PARTS = new Set(["/apply", "/account"]);

function watchConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

for (const viewport of VIEWPORTS) {
  for (const { path, heading } of PAGES) {
    test(`${path} renders cleanly and accessibly on a ${viewport.name}`, async ({ browser }) => {
      const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
      const page = await context.newPage();
      const consoleErrors = watchConsoleErrors(page);
      const policyViolations = watchPolicyViolations(page);
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expectUnframeablePage(response);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
      await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
      await expect(page.getByRole("contentinfo")).toBeVisible();
      await expect(page.getByRole("region", { name: "Cookies on this site" })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      // The banner stays at the foot of the window; out of the way, the picture shows the whole page.
      const banner = page.getByRole("region", { name: "Cookies on this site" });
      await banner.getByRole("button", { name: "Reject optional cookies" }).click();
      await banner.getByRole("button", { name: "Hide this message" }).click();
      const name = path === "/" ? "home" : path.slice(1);
      await page.screenshot({ path: `test-results/site-${name}-${viewport.name}.png`, fullPage: true });
      expect(consoleErrors).toEqual([]);
      expect(policyViolations).toEqual([]);
      await context.close();
    });
  }
}

test("the home page's navigation, Apply button and footer lead to pages that answer", async ({ page, request }) => {
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Main" });
  const expected = { Products: "/products", "Get a quote": "/quote", Apply: "/apply", "Sign in": "/account", "Partners and developers": "/partners", Help: "/faq" };
  for (const [name, href] of Object.entries(expected)) await expect(nav.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
  await expect(page.getByRole("main").getByRole("link", { name: "Apply", exact: true })).toHaveAttribute("href", "/apply");
  const footer = page.getByRole("contentinfo");
  for (const [name, href] of Object.entries({ "Terms of use": "/terms", "Privacy notice": "/privacy", Cookies: "/cookies", "Contact us": "/contact", Complaints: "/complaints" })) {
    await expect(footer.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
  }
  const hrefs = await page.locator("a[href^='/']").evaluateAll((links) => links.map((link) => link.getAttribute("href")!));
  const sameOrigin = [...new Set(hrefs)].filter((href) => !OTHER_PARTS.has(href));
  expect(sameOrigin.length).toBeGreaterThan(15);
  for (const href of sameOrigin) expect({ href, status: (await request.get(href)).status() }).toEqual({ href, status: 200 });
});

test("the quote calculator updates its figures, chart and table from the public quote endpoint", async ({ page }) => {
  await page.goto("/quote");
  const result = page.getByRole("region", { name: "Your quote" });
  const quoteAnswer = (amount: string) => page.waitForResponse((response) => response.url().includes(`/public/v1/quote/onetime?amount=${amount}&`) && response.status() === 200);

  const answered = quoteAnswer("300");
  await page.getByLabel("How much do you want to borrow?").fill("300");
  await page.getByLabel("Over how many days?").fill("28");
  await answered;
  await expect(result.getByText("Total to repay")).toBeVisible();
  await expect(result.locator("dd").last()).toHaveText("£331.00");
  await expect(result.getByText("4 weekly payments of")).toBeVisible();
  await expect(result.getByRole("img", { name: "Amount owed after each payment" })).toBeVisible();
  await expect(result.getByRole("table", { name: "Repayment schedule" }).locator("tbody tr")).toHaveCount(4);

  await page.getByRole("radio", { name: "Fortnightly" }).check();
  await expect(result.getByText("2 fortnightly payments of")).toBeVisible();
  await expect(result.getByRole("table", { name: "Repayment schedule" }).locator("tbody tr")).toHaveCount(2);
  await expect(result.getByRole("img", { name: "Amount owed after each payment" }).locator("rect")).toHaveCount(3);

  await page.getByLabel("How much do you want to borrow?").fill("5000");
  await expect(result.getByRole("alert")).toContainText("amount must be between 50 and 500 pounds");
});

test("the cookie banner records a choice and does not ask again", async ({ page }) => {
  await page.goto("/products");
  const banner = page.getByRole("region", { name: "Cookies on this site" });
  await expect(banner).toBeVisible();
  const posted = page.waitForResponse((response) => response.url().endsWith("/public/v1/consent") && response.request().method() === "POST");
  await banner.getByRole("button", { name: "Reject optional cookies" }).click();
  const response = await posted;
  expect(response.request().postDataJSON()).toMatchObject({ analytics: false, marketing: false, policy_version: "2026-11", anonymous_id: expect.stringMatching(/^[0-9a-f]{32}$/) });
  // 202 whatever happened (fail-open); its body is left unread by the banner, so Chromium keeps none to show.
  expect(response.status()).toBe(202);
  await expect(banner.getByRole("status")).toHaveText(/You have rejected optional cookies/);
  await banner.getByRole("button", { name: "Hide this message" }).click();
  await expect(banner).toBeHidden();

  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("region", { name: "Cookies on this site" })).toHaveCount(0);
  await page.goto("/cookies");
  await expect(page.getByRole("region", { name: "Your cookie settings" }).getByRole("status")).toHaveText("You have rejected optional cookies.");
});
