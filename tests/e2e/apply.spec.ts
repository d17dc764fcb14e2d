// The site's Apply page in Chromium behind the production server (docs/apply-directly.md): a visitor fills in the
// four answers and lands on the hosted journey's first step; refused answers come back in an error summary that
// takes focus, each message beside its field; the same works with JavaScript switched off; the page passes axe
// (no serious or critical violation) on a desktop and a phone, fits a phone's width, logs no console error and
// carries the site's security headers.
import { expect, test, type Browser, type Page } from "@playwright/test";
import { expectUnframeablePage, watchPolicyViolations } from "./page-policy";
import { seriousViolations } from "./accessibility";

const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
];

// Approved in the sandbox rules, which a live application follows when no Companies House key is set.
const APPROVED = "12990042";

async function checkPage(page: Page, label: string, width: number) {
  expect(await seriousViolations(page), label).toEqual([]);
  // Nothing wider than the screen: no sideways scrolling on a phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth), label).toBeLessThanOrEqual(width);
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

async function openApplyPage(browser: Browser, viewport: { width: number; height: number }, javaScriptEnabled = true) {
  const context = await browser.newContext({ viewport, javaScriptEnabled });
  const page = await context.newPage();
  const response = await page.goto("/apply");
  expect(response?.status()).toBe(200);
  await expectUnframeablePage(response);
  await expect(page).toHaveTitle("Apply for a Business Loan · Lending Platform");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Apply for a Business Loan");
  return { context, page };
}

for (const viewport of VIEWPORTS) {
  test(`a visitor applies from /apply and lands on the journey's first step, on a ${viewport.name}`, async ({ browser }) => {
    const { context, page } = await openApplyPage(browser, viewport);
    const consoleErrors = watchConsole(page);
    const violations = watchPolicyViolations(page);
    await expect(page.getByText("Apply directly with us for a Business Loan of £1,000 to £250,000, repaid monthly over 3 to 60 months.", { exact: false })).toBeVisible();
    await checkPage(page, `${viewport.name}-1-apply`, viewport.width);

    // Everything missing: every field refused at once, the summary first and focused.
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(/\/apply\?check=1$/);
    await expect(page).toHaveTitle("Error: Apply for a Business Loan · Lending Platform");
    const summary = page.getByRole("alert").filter({ hasText: "There is a problem" });
    await expect(summary).toBeFocused();
    await expect(summary.getByRole("link")).toHaveText([
      "Enter your company number",
      "Enter how much you want to borrow",
      "Enter how many months you want to repay over",
      "Enter your email address",
    ]);
    await checkPage(page, `${viewport.name}-2-apply-refused`, viewport.width);

    // A link in the summary takes the visitor to its field.
    await summary.getByRole("link", { name: "Enter how much you want to borrow" }).click();
    await expect(page).toHaveURL(/#amount$/);

    // Two answers still wrong: those two refused, the others kept as typed.
    await page.getByLabel("Company number").fill(APPROVED);
    await page.getByLabel("How much do you want to borrow?").fill("500");
    await page.getByLabel("How many months do you want to repay over?").fill("12");
    await page.getByLabel("Email address").fill("ada@");
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(summary.getByRole("link")).toHaveText(["Amount must be between £1,000 and £250,000", "Enter an email address in the correct format, like name@example.co.uk"]);
    await expect(page.getByLabel("Company number")).toHaveValue(APPROVED);
    await expect(page.getByLabel("How many months do you want to repay over?")).toHaveValue("12");
    await expect(page.getByLabel("How much do you want to borrow?")).toHaveAccessibleDescription(/Amount must be between £1,000 and £250,000/);

    await page.getByLabel("How much do you want to borrow?").fill("25,000");
    await page.getByLabel("Email address").fill("ada@example.co.uk");
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(/\/apply\/[0-9A-Za-z]{16,64}(\/company)?$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your company");
    await checkPage(page, `${viewport.name}-3-journey-first-step`, viewport.width);

    // Back on the Apply page, a fresh visit starts blank.
    await page.goto("/apply");
    await expect(page.getByLabel("Company number")).toHaveValue("");
    await expect(page.getByText("There is a problem")).toHaveCount(0);
    expect(consoleErrors).toEqual([]);
    expect(violations).toEqual([]);
    await context.close();
  });
}

test("the Apply page works with JavaScript switched off", async ({ browser }) => {
  const { context, page } = await openApplyPage(browser, VIEWPORTS[0]!, false);
  await page.getByLabel("Company number").fill(APPROVED);
  await page.getByLabel("How much do you want to borrow?").fill("1000000");
  await page.getByLabel("How many months do you want to repay over?").fill("12");
  await page.getByLabel("Email address").fill("ada@example.co.uk");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("alert")).toContainText("Amount must be between £1,000 and £250,000");
  await page.getByLabel("How much do you want to borrow?").fill("10000");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your company");
  await context.close();
});

test("a post from a page without the Apply page's token is refused", async ({ browser }) => {
  const { context, page } = await openApplyPage(browser, VIEWPORTS[0]!);
  await page.locator("input[name=csrf_token]").evaluate((input: HTMLInputElement) => (input.value = "not-the-cookie"));
  await page.getByLabel("Company number").fill(APPROVED);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sorry, that did not work");
  await expect(page.getByText("The form's security token is missing or does not match")).toBeVisible();
  await context.close();
});
