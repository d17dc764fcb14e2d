// The partner dashboard's API keys in Chromium behind the production server (docs/dashboard.md): an owner asks for
// the keys page, is sent to sign in at our own provider and comes back to it; creates a key and sees its secret on
// that one view (a reload does not show it), rolls it (the successor's secret once, the predecessor's expiry) and
// revokes the successor after a confirmation; an overlap out of bounds comes back to its form with an error summary. A viewer sees the keys and no control, and a forced post is refused.
// axe finds nothing serious at desktop or phone width, a 390px phone never scrolls sideways, and no
// Content-Security-Policy violation happens.
import { expect, test } from "@playwright/test";
import { cliJson, createProjectWithCli } from "./cli-project";
import { DASHBOARD_PASSWORD, signInAt, teamMember } from "./dashboard-session";
import { expectUnframeablePage } from "./page-policy";
import { seriousViolations, noSidewaysScroll } from "./accessibility";

test("an owner signs in, creates a key and sees its secret once, rolls it and revokes the successor, accessibly, on a desktop and a phone", async ({ browser }) => {
  // Many steps, each a page view and an axe run: more than the default's 30 s on a busy machine.
  test.setTimeout(60_000);
  const project = await createProjectWithCli(`E2E Dashboard ${Date.now()}`);
  const email = await teamMember(project.project_id, "owner");
  const keysPath = `/dashboard/${project.project_id}/sandbox/keys`;
  const { context, page, policyViolations } = await signInAt(browser, keysPath, email);

  await expect(page.getByRole("heading", { level: 1 })).toHaveText("API keys");
  // The dashboard's session: out of scripts' reach, sent on top-level navigations from elsewhere but not on their
  // posts (SameSite=Lax), and Secure only over HTTPS, which this server does not speak.
  const session = (await context.cookies()).find((cookie) => cookie.name === "authjs.session-token");
  expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", secure: false, path: "/" });
  await expect(page.getByRole("link", { name: "Sandbox" })).toHaveAttribute("aria-current", "page");
  await expectUnframeablePage(await page.reload());
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByLabel("Type of key").selectOption("secret");
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page).toHaveURL(new RegExp(`${keysPath}$`));
  await expect(page.getByRole("heading", { name: "Your new key" })).toBeVisible();
  await expect(page.getByText("It will not be shown again")).toBeVisible();
  const secret = (await page.getByTestId("new-secret").textContent())!.trim();
  expect(secret).toMatch(/^sk_sandbox_/);
  const keyId = (await page.getByText(/^Key id: key_/).textContent())!.replace("Key id: ", "").trim();
  await expect(page.getByRole("button", { name: "Copy secret" })).toBeVisible();
  await page.screenshot({ path: "test-results/dashboard-keys-created-desktop.png", fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);

  // Shown once: a reload (or any later view) has no secret.
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("API keys");
  await expect(page.getByTestId("new-secret")).toHaveCount(0);
  expect(await page.content()).not.toContain(secret);

  const row = page.getByRole("row").filter({ hasText: keyId });
  await expect(row).toContainText(`sk_sandbox_…${secret.slice(-4)}`);
  await expect(row).toContainText("Never");
  // An overlap out of bounds comes back to its row's form, as typed, with the error summary.
  await row.getByLabel("Overlap in hours").fill("999");
  await row.getByRole("button", { name: /^Roll/ }).click();
  await expect(page).toHaveTitle(/^Error: API keys/);
  await expect(page.getByRole("alert").getByRole("link", { name: "Overlap in hours: Overlap must be at most 168 hours (a week)" })).toBeVisible();
  await expect(row.getByText("Error: Overlap must be at most 168 hours (a week)")).toBeVisible();
  await expect(row.getByLabel("Overlap in hours")).toHaveValue("999");
  expect(await seriousViolations(page)).toEqual([]);
  await row.getByLabel("Overlap in hours").fill("2");
  await row.getByRole("button", { name: /^Roll/ }).click();
  await expect(page.getByRole("heading", { name: "Your rolled key's successor" })).toBeVisible();
  const successorSecret = (await page.getByTestId("new-secret").textContent())!.trim();
  expect(successorSecret).toMatch(/^sk_sandbox_/);
  expect(successorSecret).not.toBe(secret);
  await expect(page.getByText(`The old key ${keyId} keeps working until`)).toBeVisible();
  const successorId = (await page.getByText(/^Key id: key_/).textContent())!.replace("Key id: ", "").trim();
  await expect(page.getByRole("row").filter({ hasText: keyId })).toContainText(/Active until/);

  await page.getByRole("row").filter({ hasText: successorId }).getByRole("link", { name: /^Revoke/ }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Revoke this key?");
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole("button", { name: "Revoke key" }).click();
  await expect(page).toHaveURL(new RegExp(`${keysPath}\\?revoked=${successorId}$`));
  await expect(page.getByRole("status")).toHaveText(`Key ${successorId} is revoked: it no longer authenticates.`);
  await expect(page.getByRole("row").filter({ hasText: successorId })).toContainText("Revoked");
  await page.screenshot({ path: "test-results/dashboard-keys-desktop.png", fullPage: true });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(keysPath);
  await page.screenshot({ path: "test-results/dashboard-keys-phone.png", fullPage: true });
  expect(await noSidewaysScroll(page)).toBe(true);
  expect(await seriousViolations(page)).toEqual([]);

  // Owners read the audit log: everything just done, by them.
  await page.getByRole("link", { name: "Activity" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/${project.project_id}/sandbox/activity$`));
  const activity = page.getByRole("region", { name: /The latest/ });
  await expect(activity.getByRole("row").nth(1)).toContainText(new RegExp(`You\\s*Revoked a key\\s*${successorId}`));
  await expect(activity.getByRole("row").nth(2)).toContainText(new RegExp(`You\\s*Rolled a key\\s*${keyId}`));
  await expect(activity.getByRole("row").nth(3)).toContainText(new RegExp(`You\\s*Created a key\\s*${keyId}`));
  await expect(activity).toContainText("Added a member");
  expect(await noSidewaysScroll(page)).toBe(true);
  await page.screenshot({ path: "test-results/dashboard-activity-phone.png", fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole("link", { name: "API keys" }).click();

  // The Sandbox / Live switch keeps the section and changes the address.
  await page.getByRole("link", { name: "Live" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/${project.project_id}/live/keys$`));
  await expect(page.getByText("You are looking at live data")).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // In a second team, the switcher appears and keeps the environment.
  const second = await createProjectWithCli(`E2E Dashboard second ${Date.now()}`);
  await cliJson("team", "add", "--project", second.project_id, "--email", email, "--role", "developer");
  await page.reload();
  await page.getByText("Project:").click();
  await page.getByRole("link", { name: /^E2E Dashboard second/ }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/${second.project_id}/live/keys$`));
  await expect(page.getByText("Your role: Developer")).toBeVisible();
  await expect(page.getByRole("button", { name: "Create key" })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Roll/ })).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
  expect(policyViolations).toEqual([]);
  await context.close();
});

test("a viewer sees the keys but no control, and a forced post is refused", async ({ browser }) => {
  const project = await createProjectWithCli(`E2E Dashboard viewer ${Date.now()}`);
  await teamMember(project.project_id, "owner");
  const email = await teamMember(project.project_id, "viewer");
  const keysPath = `/dashboard/${project.project_id}/sandbox/keys`;
  const { context, page, policyViolations } = await signInAt(browser, keysPath, email, { width: 390, height: 844 });

  await expect(page.getByRole("heading", { level: 1 })).toHaveText("API keys");
  await expect(page.getByText("Your role: Viewer")).toBeVisible();
  await expect(page.getByRole("row")).not.toHaveCount(0);
  await expect(page.getByRole("button", { name: "Create key" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Roll/ })).toHaveCount(0);
  await expect(page.getByRole("link", { name: /^Revoke/ })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Activity" })).toHaveCount(0);
  expect((await page.request.get(`/dashboard/${project.project_id}/sandbox/activity`)).status()).toBe(404);
  expect(await noSidewaysScroll(page)).toBe(true);
  await page.screenshot({ path: "test-results/dashboard-keys-viewer-phone.png", fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);

  // With the page's own CSRF token, so that the role is what refuses it.
  const csrfToken = (await context.cookies()).find((cookie) => cookie.name === "svc_csrf")!.value;
  const forced = await page.request.post(`${keysPath}/create`, { form: { csrf_token: csrfToken, type: "secret" }, maxRedirects: 0 });
  expect(forced.status()).toBe(403);
  expect(await forced.text()).toContain("Your role in this project does not allow this.");
  expect(policyViolations).toEqual([]);
  await context.close();
});

test("someone in no team is told plainly how to join one, and signs out", async ({ browser }) => {
  const email = `e2e.nobody.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.test`;
  await cliJson("user", "create", "--email", email, "--password", DASHBOARD_PASSWORD, "--name", "Grace Hopper");
  const { context, page, policyViolations } = await signInAt(browser, "/dashboard", email, { width: 390, height: 844 });
  await expect(page.getByRole("heading", { level: 2 })).toHaveText("You are not in a project team yet");
  await expect(page.getByText("Ask an owner of your company's project to add you")).toBeVisible();
  expect(await noSidewaysScroll(page)).toBe(true);
  expect(await seriousViolations(page)).toEqual([]);

  // Sign out ends both sessions: the dashboard asks to sign in again.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Do you want to sign out?");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/account\/signed-out$/);
  await expect(page.getByRole("link", { name: "Sign in to the partner dashboard" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/dashboard\/sign-in\?return_to=%2Fdashboard$/);
  expect(policyViolations).toEqual([]);
  await context.close();
});
