// The dashboard's beta sections in Chromium behind the production server (docs/dashboard.md, "Sub-accounts,
// introductions and payouts"). The data is made as a partner makes it, through the partner API in the sandbox of a
// project with the beta capability and a master rate of 1.50%: a sub-account, two applications originated through it
// and funded, one declined, and the sandbox's payout run. One owner, signed in once, reads the Sub-accounts,
// Introductions, Payouts and payout pages at a desktop's width and a 390px phone's (axe finds nothing serious, the
// phone never scrolls sideways), creates a sub-account with the form, has one above the master rate refused beside
// its field, filters the introductions, and reads a statement whose lines sum to its total and the payout's gross.
// In the owner's other project, without the capability, the sections are not in the nav and their addresses are 404s.
import path from "node:path";
import { expect, test, type APIRequestContext, type BrowserContext, type Page } from "@playwright/test";
import { seriousViolations, noSidewaysScroll } from "./accessibility";
import { cliJson, createProjectWithCli, sandboxHeaders } from "./cli-project";
import { decidedApplication, signInAt, teamMember } from "./dashboard-session";

test.describe.configure({ mode: "serial" });

/** Where the pages' screenshots are kept, to look at (outside the repository unless DASHBOARD_SHOTS says otherwise). */
const SHOTS = process.env.DASHBOARD_SHOTS ?? "test-results";

interface StatementLine {
  account_id: string;
  principal_pence: number;
  share_pence: number;
}

let request: APIRequestContext;
let context: BrowserContext;
let page: Page;
let policyViolations: string[];
let base: string;
let otherBase: string;
let subAccountId: string;
let payout: { id: string; gross_pence: number; statement: StatementLine[] };

/** An approved application for `amountPence` through the sub-account, funded; answers its account's id. */
async function fundedThrough(headers: { authorization: string }, amountPence: number): Promise<string> {
  const application = await decidedApplication(request, headers, "SC123456", { sub_account_id: subAccountId, amount_pence: amountPence });
  expect(application.status).toBe("approved");
  const funded = await request.post(`/partner/v1/test_helpers/applications/${application.id}/fund`, { headers });
  expect(funded.status()).toBe(200);
  return (await funded.json()).account_id as string;
}

test.beforeAll(async ({ browser, playwright }, testInfo) => {
  // Five admin CLI runs, two applications funded through the API, a payout run and a sign-in.
  testInfo.setTimeout(120_000);
  request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const project = await createProjectWithCli(`E2E Beta ${Date.now()}`);
  await cliJson("project", "capability", project.project_id, "--enable", "beta");
  await cliJson("project", "set-revenue-share", project.project_id, "--bps", "150");
  const email = await teamMember(project.project_id, "owner");
  const other = await createProjectWithCli(`E2E No Beta ${Date.now()}`);
  await cliJson("team", "add", "--project", other.project_id, "--email", email, "--role", "owner");
  const headers = await sandboxHeaders(request, project);

  const created = await request.post("/partner/v1/sub-accounts", {
    headers: { ...headers, "idempotency-key": `e2e-beta-sub-${Date.now()}` },
    data: { name: "Northside Brokers", revenue_share_bps: 100 },
  });
  expect(created.status()).toBe(201);
  subAccountId = (await created.json()).id;
  await fundedThrough(headers, 2_000_000);
  await fundedThrough(headers, 1_234_567);
  const declined = await decidedApplication(request, headers, "12340001", { sub_account_id: subAccountId });
  expect(declined.status).toBe("declined");
  const run = await request.post("/partner/v1/test_helpers/payouts/run", { headers });
  expect(run.status()).toBe(200);
  const [made] = (await run.json()).data as Array<{ id: string }>;
  payout = await (await request.get(`/partner/v1/payouts/${made!.id}`, { headers })).json();
  expect(payout.statement).toHaveLength(2);

  base = `/dashboard/${project.project_id}/sandbox`;
  otherBase = `/dashboard/${other.project_id}/sandbox`;
  ({ context, page, policyViolations } = await signInAt(browser, `${base}/sub-accounts`, email));
});

test.afterAll(async () => {
  expect(policyViolations).toEqual([]);
  await context?.close();
  await request?.dispose();
});

test("each beta page is in the nav and accessible, on a desktop and on a phone", async () => {
  test.setTimeout(90_000);
  const pages: Array<[name: string, path: string, heading: string | RegExp]> = [
    ["sub-accounts", `${base}/sub-accounts`, "Sub-accounts"],
    ["introductions", `${base}/introductions`, "Introductions"],
    ["payouts", `${base}/payouts`, "Payouts"],
    ["payout", `${base}/payouts/${payout.id}`, /^Payout to Northside Brokers for \w+ \d{4}$/],
  ];
  for (const [width, height, label] of [[1280, 900, "desktop"], [390, 844, "phone"]] as const) {
    await page.setViewportSize({ width, height });
    for (const [name, address, heading] of pages) {
      const response = await page.goto(address);
      expect(response?.status(), address).toBe(200);
      await expect(page.getByRole("heading", { level: 1 }), address).toHaveText(heading);
      const sections = page.getByRole("navigation", { name: "Sections" });
      await expect(sections.getByRole("link")).toHaveText(["API keys", "Webhooks", "Events", "Applications", "Accounts", "Sub-accounts", "Introductions", "Payouts", "Team", "Usage", "Activity"]);
      await page.screenshot({ path: path.join(SHOTS, `dashboard-beta-${name}-${label}.png`), fullPage: true });
      expect(await seriousViolations(page), `${address} at ${label} width`).toEqual([]);
      expect(await noSidewaysScroll(page), `${address} at ${label} width`).toBe(true);
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
});

test("the Sub-accounts table shows each rate to two decimals and its introductions by stage, linking the filtered list", async () => {
  await page.goto(`${base}/sub-accounts`);
  await expect(page.getByText("Your master rate is 1.50% (150 basis points).")).toBeVisible();
  const row = page.getByRole("region", { name: "Your sandbox sub-accounts, newest first" }).getByRole("row", { name: /Northside Brokers/ });
  await expect(row.getByRole("cell").nth(1)).toHaveText("1.00%");
  await expect(row.getByRole("link")).toHaveText(["Started: 0", "Decisioned: 0", "Funded: 2", "Declined: 1"]);
  await row.getByRole("link", { name: "Funded: 2" }).click();
  await expect(page).toHaveURL(`${base}/introductions?stage=funded&sub_account_id=${subAccountId}`);
  await expect(page.getByRole("region", { name: "Introductions matching your filters, newest first" }).getByRole("row")).toHaveCount(3);
});

test("creating a sub-account with the form lists it at the master rate", async () => {
  await page.goto(`${base}/sub-accounts`);
  await page.getByLabel("Name").fill("Marketplace sellers");
  await page.getByRole("button", { name: "Create sub-account" }).click();
  await expect(page).toHaveURL(new RegExp(`${base}/sub-accounts\\?created=sub_[0-9a-z]+$`));
  await expect(page.getByRole("status")).toContainText(/Sub-account sub_[0-9a-z]+ is created/);
  const row = page.getByRole("row", { name: /Marketplace sellers/ });
  await expect(row.getByRole("cell").nth(1)).toHaveText("1.50%");
  await expect(row.getByRole("link")).toHaveText(["Started: 0", "Decisioned: 0", "Funded: 0", "Declined: 0"]);
});

test("a rate above the master rate comes back beside its field with an error summary, the answers kept", async () => {
  await page.goto(`${base}/sub-accounts`);
  await page.getByLabel("Name").fill("Too generous");
  await page.getByLabel("Revenue share in basis points (optional)").fill("151");
  await page.getByRole("button", { name: "Create sub-account" }).click();
  await expect(page).toHaveURL(`${base}/sub-accounts`);
  await expect(page).toHaveTitle(/^Error: Sub-accounts/);
  const message = "Revenue share must be at most your master rate, 150 basis points (1.50%); leave it empty to use that rate";
  const summary = page.getByRole("alert", { name: "There is a problem" });
  await expect(summary.getByRole("heading")).toHaveText("There is a problem");
  await expect(summary.getByRole("link")).toHaveText(`Revenue share: ${message}`);
  await expect(summary).toBeFocused();
  const field = page.getByLabel("Revenue share in basis points (optional)");
  await expect(field).toHaveValue("151");
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("#sub-account-rate-error")).toHaveText(`Error: ${message}`);
  await expect(page.getByLabel("Name")).toHaveValue("Too generous");
  expect(await seriousViolations(page)).toEqual([]);
  await expect(page.getByRole("row", { name: /Too generous/ })).toHaveCount(0);
  await page.screenshot({ path: path.join(SHOTS, "dashboard-beta-sub-accounts-refused-desktop.png"), fullPage: true });
  // A reload shows a clean form.
  await page.reload();
  await expect(page.getByRole("alert", { name: "There is a problem" })).toHaveCount(0);
  await expect(page.getByLabel("Name")).toHaveValue("");
});

test("the introductions filter by stage, each linking its application and, once funded, its account", async () => {
  await page.goto(`${base}/introductions`);
  const all = page.getByRole("region", { name: "Introductions, newest first" });
  await expect(all.getByRole("row")).toHaveCount(4);
  await expect(all.getByRole("row").nth(1)).toContainText("Declined");
  await expect(all.getByRole("row").nth(1).getByRole("cell").nth(5)).toHaveText("None");
  await page.getByLabel("Stage").selectOption("funded");
  await page.getByLabel("Sub-account").selectOption({ label: "Northside Brokers" });
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(`${base}/introductions?stage=funded&sub_account_id=${subAccountId}`);
  const funded = page.getByRole("region", { name: "Introductions matching your filters, newest first" });
  await expect(funded.getByRole("row")).toHaveCount(3);
  // Newest first: £12,345.67 at 1% earns £123.45; £20,000 earns £200.
  await expect(funded.getByRole("row").nth(1).getByRole("cell")).toHaveText([/intro_/, "Northside Brokers", /^app_\w+Account acc_\w+$/, "Funded", "£12,345.67", "£123.45"]);
  await expect(funded.getByRole("row").nth(2).getByRole("cell").nth(5)).toHaveText("£200.00");
  await funded.getByRole("row").nth(2).getByRole("link", { name: /^acc_/ }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Business loan for/);
  await page.goto(`${base}/introductions?stage=started`);
  await expect(page.getByText("No introductions match these filters.")).toBeVisible();
  expect((await page.goto(`${base}/introductions?stage=unknown`))?.status()).toBe(404);
});

test("a payout's statement has a line per introduction whose shares sum to its total, the payout's gross", async () => {
  await page.goto(`${base}/payouts`);
  const row = page.getByRole("region", { name: "Payouts, newest first" }).getByRole("row").nth(1);
  await expect(row.getByRole("cell")).toHaveText([/po_/, "Northside Brokers", "Paid", "2", "£323.45", /\d{4}/]);
  await row.getByRole("link").click();
  await expect(page).toHaveURL(`${base}/payouts/${payout.id}`);
  await expect(page.getByText("The shares sum to the gross.")).toBeVisible();
  await expect(page.getByText(/Each principal is the account's opening drawdown in its ledger/)).toBeVisible();
  const statement = page.getByRole("region", { name: `Statement of payout ${payout.id}` });
  const lines = statement.locator("tbody tr");
  await expect(lines).toHaveCount(payout.statement.length);
  const pence = (text: string) => Math.round(Number(text.replace(/[£,]/g, "")) * 100);
  const shares = (await lines.locator('td[data-label="Share"]').allTextContents()).map(pence);
  expect(shares).toEqual(payout.statement.map((line) => line.share_pence));
  await expect(lines.first().getByRole("link", { name: payout.statement[0]!.account_id })).toBeVisible();
  const total = pence(await statement.locator("tfoot .dashboard-total td[data-label='Shares']").innerText());
  expect(total).toBe(shares.reduce((sum, share) => sum + share, 0));
  expect(total).toBe(payout.gross_pence);
  expect(total).toBe(32_345);
  await expect(page.locator(".dashboard-details")).toContainText("Gross£323.45");
});

test("in a project without the beta capability the sections are not in the nav and their addresses are not found", async () => {
  await page.goto(`${otherBase}/accounts`);
  await expect(page.getByRole("navigation", { name: "Sections" }).getByRole("link")).toHaveText(["API keys", "Webhooks", "Events", "Applications", "Accounts", "Team", "Usage", "Activity"]);
  for (const section of ["sub-accounts", "introductions", "payouts", `payouts/${payout.id}`]) {
    const response = await page.goto(`${otherBase}/${section}`);
    expect(response?.status(), section).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
  }
  // Another project's payout, under this project's address, is not found either.
  expect((await page.goto(`${base}/payouts/po_${"0".repeat(26)}`))?.status()).toBe(404);
});
