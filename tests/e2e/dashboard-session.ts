// A dashboard session in Chromium as a partner's team member gets one: a sign-in user made and added to a team by
// the admin CLI, then signed in through the real sign-in pages from the dashboard page asked for; and the data a
// partner makes through the partner API for the dashboard to show.
import { expect, type APIRequestContext, type Browser } from "@playwright/test";
import { cliJson } from "./cli-project";
import { watchPolicyViolations } from "./page-policy";

export const DASHBOARD_PASSWORD = "a long enough passphrase";

/** A new sign-in user in the project's team with `role`; answers their email. */
export async function teamMember(projectId: string, role: string): Promise<string> {
  const email = `e2e.${role}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.test`;
  await cliJson("user", "create", "--email", email, "--password", DASHBOARD_PASSWORD, "--name", "Grace Hopper");
  await cliJson("team", "add", "--project", projectId, "--email", email, "--role", role);
  return email;
}

/** Opens `pathAsked` signed out, signs in through the real sign-in pages, and lands back on `pathAsked`. */
export async function signInAt(browser: Browser, pathAsked: string, email: string, viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const policyViolations = watchPolicyViolations(page);
  await page.goto(pathAsked);
  await expect(page).toHaveURL(/\/dashboard\/sign-in\?return_to=/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in to the dashboard");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/sso\/interaction\/[^/]+$/);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(DASHBOARD_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Allow Lending Platform to access your details?");
  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page).toHaveURL(new RegExp(`${pathAsked.replace(/[/]/g, "\\/").replace(/[?]/g, "\\?")}$`));
  return { context, page, policyViolations };
}

type Headers = { authorization: string };

/**
 * A sandbox application for `companyNumber` (its last four digits choose the sandbox's decision), submitted and
 * decided; `extra` adds fields to its create (a `sub_account_id`).
 */
export async function decidedApplication(request: APIRequestContext, headers: Headers, companyNumber: string, extra: Record<string, unknown> = {}) {
  const created = await request.post("/partner/v1/applications", {
    headers: { ...headers, "idempotency-key": `e2e-dashboard-${companyNumber}-${Date.now()}-${Math.random()}` },
    data: { business: { company_number: companyNumber }, amount_pence: 2_000_000, term_months: 12, applicant: { email: "director@example.co.uk" }, ...extra },
  });
  expect(created.status()).toBe(201);
  const { id } = await created.json();
  expect((await request.post(`/partner/v1/test_helpers/applications/${id}/submit`, { headers })).status()).toBe(200);
  await expect.poll(async () => (await (await request.get(`/partner/v1/applications/${id}`, { headers })).json()).decision, { timeout: 5_000, intervals: [100] }).toBeTruthy();
  return (await (await request.get(`/partner/v1/applications/${id}`, { headers })).json()) as { id: string; decision: string; status: string };
}
