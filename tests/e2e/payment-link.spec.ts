// A payment link's page in Chromium behind the production server (docs/payments.md, "The payment page"): the
// payer sees the amount, the borrower and the reference; the sandbox bank's Approve and Fail work without
// JavaScript and come back to the page with the outcome and the way back to the partner; an expired link says
// so; and no page has a serious or critical accessibility violation on a desktop or a phone.
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import pg from "pg";
import { createProjectWithCli, sandboxHeaders } from "./cli-project";
import { expectUnframeablePage, watchPolicyViolations } from "./page-policy";
import { seriousViolations } from "./accessibility";

const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
];

const RETURN_TO = "https://partner.example/paid?order=42";

/** A funded sandbox term loan of £10,000 and the headers to act on it. */
async function fundedAccount(request: APIRequestContext, name: string) {
  const headers = await sandboxHeaders(request, await createProjectWithCli(name));
  const created = await request.post("/partner/v1/applications", {
    headers: { ...headers, "idempotency-key": `e2e-pay-${Date.now()}-${Math.random()}` },
    data: { business: { company_number: "12345678" }, amount_pence: 1_000_000, term_months: 12, applicant: { email: "director@example.co.uk" }, reference: "loan-42" },
  });
  expect(created.status()).toBe(201);
  const application = await created.json();
  expect((await request.post(`/partner/v1/test_helpers/applications/${application.id}/submit`, { headers })).status()).toBe(200);
  await expect
    .poll(async () => (await (await request.get(`/partner/v1/applications/${application.id}`, { headers })).json()).status, { timeout: 5_000, intervals: [100] })
    .toBe("approved");
  const funded = await (await request.post(`/partner/v1/test_helpers/applications/${application.id}/fund`, { headers })).json();
  return { headers, accountId: funded.account_id as string };
}

async function createLink(request: APIRequestContext, headers: Record<string, string>, body: Record<string, unknown>) {
  const response = await request.post("/partner/v1/payments/links", { headers, data: body });
  expect(response.status()).toBe(201);
  return response.json() as Promise<{ id: string; url: string; status: string }>;
}

/** The link's page path on this server (its url is on APPLY_URL, which the test server sets to its own origin). */
function pagePath(url: string): string {
  return new URL(url).pathname;
}

for (const viewport of VIEWPORTS) {
  test(`the payer sees what they pay and the sandbox bank, accessibly, on a ${viewport.name}`, async ({ browser, request }) => {
    const { headers, accountId } = await fundedAccount(request, `E2E Pay ${viewport.name}`);
    const link = await createLink(request, headers, { account_id: accountId, amount_pence: 123_456, reference: "inv-2026-11" });
    const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
    const page = await context.newPage();
    const policyViolations = watchPolicyViolations(page);
    // No other site may frame the bank's buttons (clickjacking), and the page runs only its own scripts.
    await expectUnframeablePage(await page.goto(pagePath(link.url)));
    await expect(page).toHaveTitle("Pay by bank · Lending Platform");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pay £1,234.56 by bank");
    await expect(page.getByRole("definition").filter({ hasText: "£1,234.56" })).toBeVisible();
    await expect(page.getByText("Sandbox Trading 12345678 Ltd")).toBeVisible();
    await expect(page.getByText("inv-2026-11")).toBeVisible();
    const bank = page.getByRole("region", { name: "Sandbox Bank" });
    await expect(bank.getByRole("button", { name: "Approve payment of £1,234.56" })).toBeVisible();
    await expect(bank.getByRole("button", { name: "Fail payment" })).toBeVisible();
    await expect(page.locator('meta[name="referrer"]')).toHaveAttribute("content", "same-origin");
    // The page token is not the payment id.
    expect(page.url()).not.toContain(link.id);
    // Nothing overflows a phone's width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: `test-results/payment-link-${viewport.name}.png` });
    expect(await seriousViolations(page)).toEqual([]);
    expect(policyViolations).toEqual([]);
    await context.close();
  });
}

test("Approve, without JavaScript, settles the payoff: the account is settled and the payer can go back", async ({ browser, request }) => {
  const { headers, accountId } = await fundedAccount(request, "E2E Pay approve");
  const balance = await (await request.get(`/partner/v1/accounts/${accountId}/balance`, { headers })).json();
  const link = await createLink(request, headers, { account_id: accountId, amount_pence: balance.payoff_pence, redirect_uri: RETURN_TO });
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(pagePath(link.url));
  await page.getByRole("button", { name: /^Approve payment of/ }).click();
  await expect(page).toHaveURL(new RegExp(`${pagePath(link.url)}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment received");
  const back = page.getByRole("link", { name: "Continue to partner.example" });
  await expect(back).toHaveAttribute("href", `https://partner.example/paid?order=42&payment_id=${link.id}`);
  await expect(page.getByRole("button")).toHaveCount(0);
  await context.close();

  const payment = await (await request.get(`/partner/v1/payments/${link.id}`, { headers })).json();
  expect(payment).toMatchObject({ status: "settled", failure_code: null });
  const account = await (await request.get(`/partner/v1/accounts/${accountId}`, { headers })).json();
  expect(account.status).toBe("settled");
  expect(account.balance).toEqual({ principal_outstanding_pence: 0, interest_accrued_pence: 0, arrears_pence: 0, payoff_pence: 0 });

  const viewing = await browser.newContext();
  const viewer = await viewing.newPage();
  await viewer.goto(pagePath(link.url));
  await expect(viewer.getByRole("heading", { level: 1 })).toHaveText("Payment received");
  expect(await seriousViolations(viewer)).toEqual([]);
  await viewing.close();
});

test("Fail, without JavaScript, leaves the balance alone and says what happened", async ({ browser, request }) => {
  const { headers, accountId } = await fundedAccount(request, "E2E Pay fail");
  const link = await createLink(request, headers, { account_id: accountId, amount_pence: 5_000, redirect_uri: RETURN_TO });
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(pagePath(link.url));
  await page.getByRole("button", { name: "Fail payment" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment not completed");
  await expect(page.getByText("Your bank declined the payment. No money has been taken.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Continue to partner.example" })).toHaveAttribute("href", `https://partner.example/paid?order=42&payment_id=${link.id}`);
  await context.close();

  expect(await (await request.get(`/partner/v1/payments/${link.id}`, { headers })).json()).toMatchObject({ status: "failed", failure_code: "bank_rejected" });
  expect((await (await request.get(`/partner/v1/accounts/${accountId}/balance`, { headers })).json()).principal_outstanding_pence).toBe(1_000_000);
});

test("an expired link says so and offers no bank", async ({ page, request }) => {
  const { headers, accountId } = await fundedAccount(request, "E2E Pay expired");
  const link = await createLink(request, headers, { account_id: accountId, amount_pence: 5_000 });
  const database = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await database.connect();
  try {
    await database.query("UPDATE payments SET expires_at = now() - interval '1 minute' WHERE id = $1", [link.id]);
  } finally {
    await database.end();
  }
  await page.goto(pagePath(link.url));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("This payment link has expired");
  await expect(page.getByRole("button")).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
});

test("an address that views payment pages faster than a person could is asked to wait, in a page it can read", async ({ request }) => {
  const headers = { "x-forwarded-for": "198.51.100.61" };
  const path = `/pay/${"z".repeat(32)}`;
  const statuses: number[] = [];
  for (let view = 0; view < 60; view += 1) statuses.push((await request.get(path, { headers })).status());
  // A bucket of 60 refilled at two a second: the views above took some seconds, so go on until it is empty.
  let refused = await request.get(path, { headers });
  while (refused.status() !== 429 && statuses.length < 200) {
    statuses.push(refused.status());
    refused = await request.get(path, { headers });
  }
  expect(new Set(statuses)).toEqual(new Set([404]));
  expect(refused.status()).toBe(429);
  expect(Number(refused.headers()["retry-after"])).toBeGreaterThanOrEqual(1);
  expect(refused.headers()["content-type"]).toBe("text/html; charset=utf-8");
  expect(refused.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(await refused.text()).toContain("<h1>Too many requests</h1>");
  // Another address is served as before.
  expect((await request.get(path, { headers: { "x-forwarded-for": "198.51.100.62" } })).status()).toBe(404);
});

test("an address that is no link is a plain not-found page", async ({ page }) => {
  const response = await page.goto(`/pay/${"A".repeat(32)}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
});
