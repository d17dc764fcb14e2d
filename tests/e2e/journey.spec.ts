// The hosted application journey in Chromium behind the production server (docs/hosted-journey.md): an approved
// company from handoff_url to a funded account and back to the partner's redirect_uri with application_id and
// state; a declined and a referred company each see what happens next; a reload mid-journey resumes, and the
// progress list links back to finished steps; a later step asked for by its address is refused; every page
// passes axe (no serious or critical violation) on a desktop and a phone, logs no console error and carries the
// journey's security headers. A `state` in handoff_url that is not text is ignored, never a 500.
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { createProjectWithCli, sandboxHeaders } from "./cli-project";
import { seriousViolations } from "./accessibility";

const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
];

// Sandbox Bank's turnover comes from the third and fourth digits (docs/sandbox.md): 99 is plenty; the last four
// are the sandbox's outcomes.
const APPROVED = "12990042";
const DECLINED = "12990002";

async function startApplication(request: APIRequestContext, name: string, companyNumber: string, redirectUri?: string) {
  const headers = await sandboxHeaders(request, await createProjectWithCli(name));
  const created = await request.post("/partner/v1/applications", {
    headers: { ...headers, "idempotency-key": `e2e-journey-${Date.now()}-${Math.random()}` },
    data: {
      business: { company_number: companyNumber },
      amount_pence: 2_500_000,
      term_months: 12,
      applicant: { email: "ada@example.co.uk", first_name: "Ada" },
      ...(redirectUri ? { redirect_uri: redirectUri } : {}),
    },
  });
  expect(created.status()).toBe(201);
  const application = (await created.json()) as { id: string; handoff_url: string };
  return { id: application.id, path: new URL(application.handoff_url).pathname };
}

/** Every page on the way: accessible, and a screenshot to look at. */
async function checkPage(page: Page, label: string) {
  expect(await seriousViolations(page), label).toEqual([]);
  await page.screenshot({ path: test.info().outputPath(`${label}.png`), fullPage: true });
}

function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

async function fillCompany(page: Page) {
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your company");
  await page.getByLabel("The company's annual turnover").fill("500000");
  await page.getByRole("button", { name: "Continue" }).click();
}

async function fillLoan(page: Page) {
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your loan");
  await page.getByLabel("How much would you like to borrow?").fill("20000");
  await page.getByLabel("Over how long?").fill("12");
  await page.getByLabel("What is the money for?").selectOption("working_capital");
  await page.getByRole("button", { name: "Continue" }).click();
}

async function fillAboutYou(page: Page, lastName = "Lovelace") {
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("About you");
  await expect(page.getByLabel("First name").first()).toHaveValue("Ada");
  await expect(page.getByLabel("Email")).toHaveValue("ada@example.co.uk");
  await page.getByLabel("Last name").first().fill(lastName);
  const dateOfBirth = page.getByRole("group", { name: "Date of birth" }).first();
  await dateOfBirth.getByLabel("Day").fill("23");
  await dateOfBirth.getByLabel("Month").fill("4");
  await dateOfBirth.getByLabel("Year").fill("1980");
  await page.getByRole("radio", { name: "Director (or designated member of an LLP)" }).check();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Other directors");
  await page.getByRole("button", { name: "Continue", exact: true }).click();
}

async function connectBankAndConsent(page: Page) {
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your bank");
  await page.getByRole("button", { name: "Connect Sandbox Bank" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Check your answers before submitting your application");
  for (const label of await page.getByRole("checkbox").all()) await label.check();
  await page.getByRole("button", { name: "Submit application" }).click();
}

for (const viewport of VIEWPORTS) {
  test(`an approved company goes from handoff_url to a funded account and back to the partner, on a ${viewport.name}`, async ({ browser, request, baseURL }) => {
    // The whole journey, page by page, to a funded account: near 30 s when another spec file runs beside it.
    test.slow();
    const { id, path } = await startApplication(request, `E2E Journey ${viewport.name}`, APPROVED, `${baseURL}/?from=partner`);
    const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
    const page = await context.newPage();
    const consoleErrors = watchConsole(page);

    const landing = await page.goto(`${path}?state=opaque-42`);
    const headers = landing!.headers();
    expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'self'");
    expect(headers["referrer-policy"]).toBe("no-referrer");
    await checkPage(page, `${viewport.name}-1-company`);
    await fillCompany(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your loan");
    await checkPage(page, `${viewport.name}-1-loan`);

    // A refused answer comes back with its message beside the field, and what was typed.
    await page.getByLabel("How much would you like to borrow?").fill("999999");
    await page.getByRole("button", { name: "Continue" }).click();
    const summary = page.getByRole("alert", { name: "There is a problem" });
    await expect(summary).toContainText("The amount must be between £1,000 and £250,000.");
    await expect(summary).toBeFocused();
    await expect(page).toHaveTitle(/^Error: Your loan/);
    await expect(page.getByLabel("How much would you like to borrow?")).toHaveValue("999999");
    await checkPage(page, `${viewport.name}-1-loan-refused`);

    await fillLoan(page);
    await checkPage(page, `${viewport.name}-2-about-you`);
    await fillAboutYou(page);
    await checkPage(page, `${viewport.name}-3-bank`);
    await connectBankAndConsent(page);

    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your offer", { timeout: 15_000 });
    await checkPage(page, `${viewport.name}-6-offer`);
    // The waiting page's address, opened once the decision is in (as when it lands between the submit and the view),
    // shows the offer, not a finished step.
    await page.goto(`${path}/waiting`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your offer");
    await expect(page.getByRole("definition").filter({ hasText: "£20,000.00" }).first()).toBeVisible();
    await expect(page.getByRole("figure")).toContainText("Repayment schedule");
    await page.getByLabel("Type your full name to sign").fill("Ada Lovelace");
    await page.getByRole("button", { name: "Accept offer" }).click();

    await page.waitForURL(/\/\?from=partner/);
    const landed = new URL(page.url());
    expect(landed.searchParams.get("from")).toBe("partner");
    expect(landed.searchParams.get("application_id")).toBe(id);
    expect(landed.searchParams.get("state")).toBe("opaque-42");
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
}

test("a declined company sees the reasons and what it can do next", async ({ page, request }) => {
  const consoleErrors = watchConsole(page);
  const { path } = await startApplication(request, "E2E Journey declined", DECLINED);
  await page.goto(path);
  await fillCompany(page);
  await fillLoan(page);
  await fillAboutYou(page);
  await connectBankAndConsent(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("We cannot offer a loan this time", { timeout: 15_000 });
  await expect(page.getByText("The repayments are not affordable on the business's turnover.")).toBeVisible();
  await expect(page.getByText("You could apply for a smaller amount, or over a longer term")).toBeVisible();
  await checkPage(page, "declined");
  expect(consoleErrors).toEqual([]);
});

test("a referred applicant waits for an underwriter, with a way to check for the decision", async ({ page, request }) => {
  const consoleErrors = watchConsole(page);
  const { path } = await startApplication(request, "E2E Journey referred", APPROVED);
  await page.goto(path);
  await fillCompany(page);
  await fillLoan(page);
  await fillAboutYou(page, "Review");
  await connectBankAndConsent(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("An underwriter is looking at your application", { timeout: 15_000 });
  await expect(page.getByRole("link", { name: "Check for a decision" })).toBeVisible();
  await checkPage(page, "referred");
  expect(consoleErrors).toEqual([]);
});

test("a reload mid-journey resumes where the applicant was, and a later step cannot be opened by its address", async ({ page, request }) => {
  const { path } = await startApplication(request, "E2E Journey resume", APPROVED);
  await page.goto(path);
  await page.goto(`${path}/check-answers`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Finish the earlier steps first");
  await expect(page.getByRole("link", { name: "Go to Your company" })).toBeVisible();
  await checkPage(page, "not-reached");

  await page.goto(path);
  await fillCompany(page);
  await fillLoan(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("About you");
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("About you");
  await page.goto(path);
  await expect(page).toHaveURL(new RegExp(`${path}/about-you$`));

  // The progress list links back to a finished step, and from there forward to the step reached.
  const progress = page.getByRole("navigation", { name: "Application progress" });
  await expect(progress.getByRole("link")).toHaveText(["Your company (done)", "Your loan (done)"]);
  await progress.getByRole("link", { name: "Your loan (done)" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your loan");
  await expect(page.getByLabel("How much would you like to borrow?")).toHaveValue("20,000");
  await expect(progress.getByRole("link")).toHaveText(["Your company (done)", "About you"]);
  await checkPage(page, "revisited-loan");
  await progress.getByRole("link", { name: "About you" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("About you");

  await page.goto(`${path}/offer`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Finish the earlier steps first");
});

test("an unknown link says so plainly", async ({ page }) => {
  const consoleErrors = watchConsole(page);
  await page.goto(`/apply/${"x".repeat(32)}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("This application link is not valid");
  await checkPage(page, "unknown-link");
  expect(consoleErrors).toEqual([]);
});

test("a state that is not text (a NUL) is ignored: the journey opens at its step", async ({ page, request }) => {
  const { path } = await startApplication(request, "e2e journey bad state", APPROVED);
  const response = await request.get(`${path}?state=%00`, { maxRedirects: 0 });
  expect(response.status()).toBe(307);
  expect(response.headers().location).toBe(`${path}/company`);
  await page.goto(`${path}?state=%00`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your company");
});
