// The hosted journey's GOV.UK patterns in Chromium behind the production server (docs/hosted-journey.md): one thing
// per page (the company, then the loan); a partner's amount in odd pence shown as £1,000.50 and taken back as shown; the date of birth as Day, Month and Year with
// its errors (summary in page order, "Error: " in the title, the field marked); other directors added one at a time
// and removed; no date of birth given in any
// page's HTML, read over HTTP; "Check your answers" with a Change link that comes back to it; the loan terms linked
// to their page; and after Submit application the offer reached
// without a dead end, with JavaScript on a phone and with it off on a desktop. axe on every page.
import { expect, test, type Page } from "@playwright/test";
import { seriousViolations } from "./accessibility";
import { createProjectWithCli, sandboxHeaders } from "./cli-project";

// axe runs in the page, so only where JavaScript does: the walk without it is checked for what it shows.
const WALKS = [
  { name: "phone", width: 375, height: 812, javaScriptEnabled: true },
  { name: "desktop-no-js", width: 1280, height: 900, javaScriptEnabled: false },
];

// Sandbox Bank's turnover comes from the third and fourth digits (docs/sandbox.md); the last four are the outcome.
const APPROVED = "12990042";

/** Every way a page could write the dates of birth given below, 23 April 1980 and 9 December 1966. */
const WRITTEN_DATE_OF_BIRTH = ["1980-04-23", "23 April 1980", "23 Apr 1980", "23/04/1980", "23 4 1980", "1966-12-09", "9 December 1966", "9 Dec 1966", "09/12/1966", "9 12 1966"];

async function checkPage(page: Page, label: string, width: number, javaScriptEnabled: boolean) {
  if (javaScriptEnabled) expect(await seriousViolations(page), label).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), label).toBeLessThanOrEqual(width);
  await page.screenshot({ path: test.info().outputPath(`${label}.png`), fullPage: true });
}

for (const walk of WALKS) {
  test(`an applicant answers each page as GOV.UK asks, and reaches the offer after submitting, on a ${walk.name}`, async ({ browser, request }) => {
    test.slow();
    const headers = await sandboxHeaders(request, await createProjectWithCli(`E2E Journey walk ${walk.name}`));
    const created = await request.post("/partner/v1/applications", {
      headers: { ...headers, "idempotency-key": `e2e-journey-walk-${walk.name}-${Date.now()}` },
      data: { business: { company_number: APPROVED }, amount_pence: 100_050, term_months: 12, applicant: { email: "ada@example.co.uk", first_name: "Ada" } },
    });
    expect(created.status()).toBe(201);
    const path = new URL(((await created.json()) as { handoff_url: string }).handoff_url).pathname;
    // A client address of its own (the server trusts x-forwarded-for here): the journey's form posts are limited per
    // address, and other specs post from 127.0.0.1 at the same time.
    const address = `198.51.100.${80 + WALKS.indexOf(walk) * 10 + test.info().repeatEachIndex}`;
    const context = await browser.newContext({
      viewport: { width: walk.width, height: walk.height },
      javaScriptEnabled: walk.javaScriptEnabled,
      extraHTTPHeaders: { "x-forwarded-for": address },
    });
    const page = await context.newPage();
    const label = (name: string) => `${walk.name}-${name}`;

    await page.goto(path);
    await checkPage(page, label("1-company"), walk.width, walk.javaScriptEnabled);
    await page.getByLabel("The company's annual turnover").fill("£500,000");
    await page.getByRole("button", { name: "Continue" }).click();

    // The loan on a page of its own: what is borrowed, over how long and what for.
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your loan");
    await expect(page.getByLabel("How much would you like to borrow?")).toHaveValue("1,000.50");
    await expect(page.getByLabel("Over how long?")).toHaveValue("12");
    await checkPage(page, label("1-loan"), walk.width, walk.javaScriptEnabled);
    await page.getByLabel("What is the money for?").selectOption("working_capital");
    await page.getByRole("button", { name: "Continue" }).click();

    // A date without its month: GOV.UK's message, the month marked, the summary first and in page order.
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("About you");
    await page.getByLabel("Last name").first().fill("Lovelace");
    const dateOfBirth = page.getByRole("group", { name: "Date of birth" }).first();
    await dateOfBirth.getByLabel("Day").fill("23");
    await dateOfBirth.getByLabel("Year").fill("1980");
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveTitle(/^Error: About you/);
    const summary = page.getByRole("alert", { name: "There is a problem" });
    await expect(summary.getByRole("link")).toHaveText(["Date of birth must include a month", "Select your role in the company"]);
    if (walk.javaScriptEnabled) await expect(summary).toBeFocused();
    await expect(dateOfBirth.getByLabel("Month")).toHaveAttribute("aria-invalid", "true");
    await expect(dateOfBirth.getByLabel("Day")).toHaveValue("23");
    await checkPage(page, label("2-about-you-refused"), walk.width, walk.javaScriptEnabled);
    await dateOfBirth.getByLabel("Month").fill("4");
    await page.getByRole("radio", { name: "Director (or designated member of an LLP)" }).check();
    await page.getByRole("button", { name: "Continue" }).click();

    // Other directors, one at a time ("add another"): each added is listed with Change and Remove.
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Other directors");
    await page.getByLabel("First name").fill("Grace");
    await page.getByLabel("Last name").fill("Hopper");
    const directorDate = page.getByRole("group", { name: "Date of birth" });
    await directorDate.getByLabel("Day").fill("9");
    await directorDate.getByLabel("Year").fill("1966");
    await page.getByRole("button", { name: "Add another director" }).click();
    await expect(page.getByRole("alert", { name: "There is a problem" }).getByRole("link")).toHaveText(["The director's date of birth must include a month"]);
    await directorDate.getByLabel("Month").fill("12");
    await page.getByRole("button", { name: "Add another director" }).click();
    await expect(page.getByRole("definition").filter({ hasText: "Grace Hopper, born ** ** 1966" })).toBeVisible();
    await page.getByLabel("First name").fill("Katherine");
    await page.getByLabel("Last name").fill("Johnson");
    await directorDate.getByLabel("Day").fill("26");
    await directorDate.getByLabel("Month").fill("8");
    await directorDate.getByLabel("Year").fill("1958");
    await page.getByRole("button", { name: "Add another director" }).click();
    // The page the post leads to, before it is measured: without JavaScript the click starts a navigation.
    await expect(page.getByRole("definition").filter({ hasText: "Katherine Johnson, born ** ** 1958" })).toBeVisible();
    await checkPage(page, label("3-directors"), walk.width, walk.javaScriptEnabled);
    await page.getByRole("button", { name: "Remove other director 2" }).click();
    await expect(page.getByText("Katherine Johnson")).toHaveCount(0);
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your bank");

    // Whoever holds the link reads no date of birth back, in any format, from any page.
    for (const step of ["company", "loan", "about-you", "directors", "directors?director=1", "bank", "check-answers"]) {
      const html = await (await request.get(`${path}/${step}`)).text();
      for (const written of WRITTEN_DATE_OF_BIRTH) expect(html, `${step}: ${written}`).not.toContain(written);
      for (const match of html.matchAll(/<input [^>]*name="[^"]*date_of_birth[^"]*"[^>]*>/g)) expect(match[0], step).not.toMatch(/value="[^"]/);
    }
    await page.goto(`${path}/about-you`);
    await expect(page.getByText("We have it as ** ** 1980.")).toBeVisible();
    await expect(page.getByRole("group", { name: "Date of birth" }).first().getByLabel("Day")).toHaveValue("");
    await checkPage(page, label("3-about-you-given"), walk.width, walk.javaScriptEnabled);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Other directors");
    await page.getByRole("button", { name: "Continue", exact: true }).click();

    await page.getByRole("button", { name: "Connect Sandbox Bank" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Check your answers before submitting your application");
    await expect(page.getByRole("link", { name: "Business Loan terms and conditions (opens in new tab)" })).toHaveAttribute("href", "/business-loan-terms");
    const terms = await request.get("/business-loan-terms");
    expect(terms.status()).toBe(200);
    expect(await terms.text()).toContain("<h1>Business Loan terms and conditions</h1>");
    await expect(page.getByRole("definition").filter({ hasText: "** ** 1980" })).toBeVisible();
    await checkPage(page, label("4-check-answers"), walk.width, walk.javaScriptEnabled);

    // A Change link opens its question, and answering it comes back to the summary.
    await page.getByRole("link", { name: "Change the amount" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your loan");
    await page.getByLabel("How much would you like to borrow?").fill("30,000");
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Check your answers before submitting your application");
    await expect(page.getByRole("definition").filter({ hasText: "£30,000.00" })).toBeVisible();
    await page.getByText("What a credit search involves").click();
    for (const box of await page.getByRole("checkbox").all()) await box.check();
    await page.getByRole("button", { name: "Submit application" }).click();

    // The decision lands in the background: the waiting page moves on by itself, with or without JavaScript.
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your offer", { timeout: 20_000 });
    await checkPage(page, label("5-offer"), walk.width, walk.javaScriptEnabled);
    await context.close();
  });
}
