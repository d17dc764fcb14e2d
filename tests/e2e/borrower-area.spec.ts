// The borrower area in Chromium behind the production server (docs/sign-in.md, "People reading their accounts"): a
// person whose company has a funded account goes to /account, is sent to sign in at our own provider (the app is
// its client, through next-auth), allows it, and sees the account (balance, next instalment, the schedule chart and
// its table, the transactions) and the company's applications; then signs out of both. axe finds nothing serious on
// any page, a 390px-wide phone never scrolls sideways, and no Content-Security-Policy violation happens.
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { cliJson, createProjectWithCli, sandboxHeaders } from "./cli-project";
import { watchPolicyViolations } from "./page-policy";
import { seriousViolations, noSidewaysScroll } from "./accessibility";

const PASSWORD = "a long enough passphrase";

/** An application for `companyNumber`, funded when `fund` says so (the sandbox approves this number's ending). */
async function application(request: APIRequestContext, headers: Record<string, string>, companyNumber: string, amountPence: number, fund: boolean): Promise<string> {
  const created = await request.post("/partner/v1/applications", {
    headers: { ...headers, "idempotency-key": `e2e-borrower-${Date.now()}-${Math.random()}` },
    data: { business: { company_number: companyNumber }, amount_pence: amountPence, term_months: 6, applicant: { email: "director@example.co.uk" } },
  });
  expect(created.status()).toBe(201);
  const { id } = await created.json();
  if (!fund) return id;
  expect((await request.post(`/partner/v1/test_helpers/applications/${id}/submit`, { headers })).status()).toBe(200);
  await expect.poll(async () => (await (await request.get(`/partner/v1/applications/${id}`, { headers })).json()).status, { timeout: 5_000, intervals: [100] }).toBe("approved");
  const funded = await (await request.post(`/partner/v1/test_helpers/applications/${id}/fund`, { headers })).json();
  return funded.account_id as string;
}

test("a borrower signs in, sees their company's account, its schedule and transactions, and signs out, accessibly, on a phone", async ({ browser, request }) => {
  // A company of this run's own (the database outlives runs), with an ending the sandbox approves in full.
  const companyNumber = `8${String(Math.floor(Math.random() * 1000)).padStart(3, "0")}4242`;
  const headers = await sandboxHeaders(request, await createProjectWithCli(`E2E Borrower ${Date.now()}`));
  const accountId = await application(request, headers, companyNumber, 1_200_000, true);
  await application(request, headers, companyNumber, 500_000, false);
  const email = `e2e.borrower.${Date.now()}@example.test`;
  await cliJson("user", "create", "--email", email, "--password", PASSWORD, "--name", "Grace Hopper", "--company-number", companyNumber, "--company-name", "Compilers Ltd", "--sandbox");

  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const policyViolations = watchPolicyViolations(page);

  await page.goto("/account");
  await expect(page).toHaveURL(/\/account\/sign-in$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in to your business loans");
  expect(await noSidewaysScroll(page)).toBe(true);
  await page.screenshot({ path: "test-results/borrower-sign-in-phone.png", fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole("button", { name: "Sign in" }).click();

  await expect(page).toHaveURL(/\/sso\/interaction\/[^/]+$/);
  await expect(page.getByText("to continue to Lending Platform")).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Allow Lending Platform to access your details?");
  await expect(page.getByRole("listitem")).toContainText(["See your business loan accounts"]);
  await page.getByRole("button", { name: "Allow" }).click();

  await expect(page).toHaveURL(/\/account$/);
  await expect(page).toHaveTitle("Your business loans · Lending Platform");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your business loans");
  await expect(page.getByText(`company number ${companyNumber} (sandbox)`)).toBeVisible();
  const account = page.getByRole("article", { name: "Business loan of £12,000.00" });
  await expect(account).toHaveCount(1);
  await expect(account.getByText(accountId)).toBeVisible();
  await expect(account.getByText("Up to date")).toBeVisible();
  await expect(account.getByRole("term").filter({ hasText: "Loan still to repay" }).locator("+ dd")).toHaveText("£12,000.00");
  await expect(account.getByRole("term").filter({ hasText: "Next instalment" }).locator("+ dd")).toHaveText(/^£[\d,]+\.\d\d on \d{1,2} [A-Z][a-z]{2} \d{4}$/);
  await expect(account.getByRole("img", { name: /Each instalment, split into/ })).toBeVisible();
  await expect(account.locator("svg rect.account-bar-principal")).toHaveCount(6);
  await account.getByText("Show the schedule as a table").click();
  await expect(account.getByRole("table", { name: "Repayment schedule" }).getByRole("row")).toHaveCount(7);
  const transactions = account.getByRole("region", { name: `Recent transactions of ${accountId}` });
  await expect(transactions.getByRole("row")).toHaveCount(2);
  await expect(transactions.getByRole("row").nth(1)).toContainText("Money sent to you");
  await expect(transactions.getByRole("row").nth(1)).toContainText(/Money sent to you\s*£12,000.00/);
  const applications = page.getByRole("region", { name: "Applications" });
  await expect(applications.getByRole("row")).toHaveCount(3);
  await expect(applications.getByRole("row").nth(1)).toContainText(/Business loan\s*£5,000.00\s*Started/);
  await expect(applications.getByRole("row").nth(2)).toContainText(/Business loan\s*£12,000.00\s*Funded/);
  // The session's access token stays on the server: next-auth's session endpoint is not served to scripts.
  expect((await page.request.get("/api/auth/session")).status()).toBe(404);
  expect(await noSidewaysScroll(page)).toBe(true);
  await page.screenshot({ path: "test-results/borrower-account-phone.png", fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: "test-results/borrower-account-desktop.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Do you want to sign out?");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/account\/signed-out$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("You have signed out");
  expect(await noSidewaysScroll(page)).toBe(true);
  await page.screenshot({ path: "test-results/borrower-signed-out-phone.png", fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);

  // Both sessions ended: the area asks to sign in again, and so does the provider.
  await page.goto("/account");
  await expect(page).toHaveURL(/\/account\/sign-in$/);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/sso\/interaction\/[^/]+$/);
  await expect(page.getByLabel("Password")).toBeVisible();
  expect(policyViolations).toEqual([]);
  await context.close();
});
