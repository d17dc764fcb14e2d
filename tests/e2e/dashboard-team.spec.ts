// The dashboard's Team, Usage and the rest of API keys in Chromium behind the production server (docs/dashboard.md):
// an owner invites someone who has a sign-in (after an address that is not one comes back to the form with an error
// summary), changes their role and removes them after a confirmation, and is told plainly that the last owner cannot
// be demoted; an owner limits a publishable key to one origin (after a bad origin comes back the same way), revokes every
// sandbox token (a token issued before is then refused), and sees today's partner API requests on Usage; a viewer
// reads Team and Usage without a control. axe finds nothing serious at desktop or phone width, a 390px phone never
// scrolls sideways, and no Content-Security-Policy violation happens.
import { expect, test, type Page } from "@playwright/test";
import { cliJson, createProjectWithCli, sandboxHeaders } from "./cli-project";
import { DASHBOARD_PASSWORD, signInAt, teamMember } from "./dashboard-session";
import { noSidewaysScroll, seriousViolations } from "./accessibility";

// Each test signs in through the real pages and walks several of them; Usage also waits for the counter's flush.
test.describe.configure({ timeout: 90_000 });

async function checkPhone(page: Page, screenshot: string) {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await page.screenshot({ path: `test-results/${screenshot}`, fullPage: true });
  expect(await noSidewaysScroll(page)).toBe(true);
  expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** A refused form's page (no reload: that would forget the refusal), at desktop and phone width. */
async function checkRefused(page: Page, title: RegExp, summaryLink: string, screenshot: string) {
  await expect(page).toHaveTitle(title);
  const summary = page.getByRole("alert").filter({ hasText: "There is a problem" });
  await expect(summary.getByRole("heading")).toHaveText("There is a problem");
  await expect(summary.getByRole("link", { name: summaryLink })).toBeVisible();
  await page.screenshot({ path: `test-results/${screenshot}-desktop.png`, fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `test-results/${screenshot}-phone.png`, fullPage: true });
  expect(await noSidewaysScroll(page)).toBe(true);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("an owner invites someone by email, changes their role, removes them, and cannot demote the last owner", async ({ browser }) => {
  const project = await createProjectWithCli(`E2E Team ${Date.now()}`);
  const email = await teamMember(project.project_id, "owner");
  const inviteeEmail = `e2e.invitee.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.test`;
  await cliJson("user", "create", "--email", inviteeEmail, "--password", DASHBOARD_PASSWORD, "--name", "Ada Lovelace");
  const teamPath = `/dashboard/${project.project_id}/sandbox/team`;
  const { context, page, policyViolations } = await signInAt(browser, teamPath, email);

  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Team");
  await expect(page.getByRole("link", { name: "Team" })).toHaveAttribute("aria-current", "page");
  const team = page.getByRole("region", { name: /^The team/ });
  await expect(team.getByRole("row").filter({ hasText: email }).getByRole("cell").first()).toHaveText("Grace Hopper (you)");
  await expect(team.getByRole("row").filter({ hasText: email }).getByRole("cell").nth(2)).toHaveText("Owner");
  expect(await seriousViolations(page)).toEqual([]);

  // An address that is not one comes back to the form, as typed, with the error summary.
  const badEmail = "ada.lovelace.example.test";
  await page.getByLabel("Email address").fill(badEmail);
  await page.getByLabel("Role", { exact: true }).selectOption("viewer");
  await page.getByRole("button", { name: "Invite" }).click();
  const badEmailMessage = "Enter an email address in the correct format, like name@example.com";
  await checkRefused(page, /^Error: Team/, `Email address: ${badEmailMessage}`, "dashboard-team-refused");
  await expect(page).toHaveURL(new RegExp(`${teamPath}$`));
  await expect(page.getByText(`Error: ${badEmailMessage}`, { exact: true })).toBeVisible();
  await expect(page.getByLabel("Email address")).toHaveValue(badEmail);
  await expect(page.getByLabel("Email address")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Role", { exact: true })).toHaveValue("viewer");

  await page.getByLabel("Email address").fill(inviteeEmail);
  await page.getByLabel("Role", { exact: true }).selectOption("developer");
  await page.getByRole("button", { name: "Invite" }).click();
  await expect(page).toHaveURL(new RegExp(`${teamPath}\\?done=added$`));
  await expect(page.getByRole("status")).toHaveText("They are in the team now, and we have let them know.");
  const invitee = team.getByRole("row").filter({ hasText: inviteeEmail });
  await expect(invitee.getByRole("cell").first()).toHaveText("Ada Lovelace");
  await expect(invitee.getByRole("cell").nth(2)).toHaveText("Developer");

  await invitee.getByLabel(/^Role/).selectOption("viewer");
  await invitee.getByRole("button", { name: /^Change role/ }).click();
  await expect(page).toHaveURL(new RegExp(`${teamPath}\\?done=role_changed$`));
  await expect(team.getByRole("row").filter({ hasText: inviteeEmail }).getByRole("cell").nth(2)).toHaveText("Viewer");

  // The last owner stays an owner, and the page says why.
  await team.getByRole("row").filter({ hasText: email }).getByLabel(/^Role/).selectOption("developer");
  await team.getByRole("row").filter({ hasText: email }).getByRole("button", { name: /^Change role/ }).click();
  await expect(page).toHaveURL(new RegExp(`${teamPath}\\?problem=last_owner$`));
  await expect(page.getByRole("alert").filter({ hasText: "That was not done" })).toContainText("A project always keeps an owner: make someone else an owner first");
  await expect(team.getByRole("row").filter({ hasText: email }).getByRole("cell").nth(2)).toHaveText("Owner");
  await page.screenshot({ path: "test-results/dashboard-team-last-owner-desktop.png", fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);

  await team.getByRole("row").filter({ hasText: inviteeEmail }).getByRole("link", { name: /^Remove/ }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Remove Ada Lovelace from the team?");
  await expect(page.getByText(`Ada Lovelace (${inviteeEmail}) has the Viewer role`)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole("button", { name: "Remove from team" }).click();
  await expect(page).toHaveURL(new RegExp(`${teamPath}\\?done=removed$`));
  await expect(page.getByRole("status")).toHaveText("They are no longer in the team.");
  await expect(team.getByRole("row").filter({ hasText: inviteeEmail })).toHaveCount(0);

  // An address with no sign-in yet waits for one.
  const newcomer = `e2e.newcomer.${Date.now()}@example.test`;
  await page.getByLabel("Email address").fill(newcomer);
  await page.getByRole("button", { name: "Invite" }).click();
  await expect(page).toHaveURL(new RegExp(`${teamPath}\\?done=invited$`));
  const waiting = page.getByRole("region", { name: "Invitations waiting" }).getByRole("row").filter({ hasText: newcomer });
  await expect(waiting.getByRole("cell").nth(1)).toHaveText("Developer");
  await page.screenshot({ path: "test-results/dashboard-team-desktop.png", fullPage: true });
  await checkPhone(page, "dashboard-team-phone.png");
  await waiting.getByRole("button", { name: /^Cancel invitation/ }).click();
  await expect(page).toHaveURL(new RegExp(`${teamPath}\\?done=invitation_cancelled$`));
  await expect(page.getByRole("region", { name: "Invitations waiting" })).toHaveCount(0);

  await page.getByRole("link", { name: "Activity" }).click();
  const activity = page.getByRole("region", { name: /The latest/ });
  await expect(activity.getByRole("row").nth(1)).toContainText(/You\s*Cancelled an invitation\s*inv_/);
  await expect(activity.getByRole("row").nth(2)).toContainText(/You\s*Invited someone to the team\s*inv_/);
  await expect(activity.getByRole("row").nth(3)).toContainText(/You\s*Removed a member\s*usr_/);
  expect(policyViolations).toEqual([]);
  await context.close();
});

test("an owner limits a publishable key to one origin, sees today's requests on Usage, and revokes every sandbox token", async ({ browser }) => {
  const project = await createProjectWithCli(`E2E Keys rest ${Date.now()}`);
  const email = await teamMember(project.project_id, "owner");
  const keysPath = `/dashboard/${project.project_id}/sandbox/keys`;
  const { context, page, policyViolations } = await signInAt(browser, keysPath, email);
  const headers = await sandboxHeaders(page.request, project);
  for (let call = 0; call < 3; call += 1) expect((await page.request.get("/partner/v1/keys", { headers })).status()).toBe(200);

  const origins = page.getByLabel(/^Allowed origins of pk_sandbox_/);
  await expect(origins).toHaveValue("");
  // A line that is not an origin comes back beside the key's text box, as typed, with the error summary.
  const badOrigins = "https://shop.example.com\nhttp://shop.example.com/checkout";
  await origins.fill(badOrigins);
  await page.getByRole("button", { name: /^Save origins/ }).click();
  const badOriginMessage = "Line 2 must be an origin such as https://shop.example.com: https, lower case, no path (plain http only for localhost)";
  await checkRefused(page, /^Error: API keys/, `Allowed origins: ${badOriginMessage}`, "dashboard-keys-origins-refused");
  await expect(page.locator(".dashboard-origins-form").getByText(`Error: ${badOriginMessage}`, { exact: true })).toBeVisible();
  await expect(origins).toHaveValue(badOrigins);
  await expect(origins).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("status")).toHaveCount(0);
  await origins.fill("https://shop.example.com");
  await page.getByRole("button", { name: /^Save origins/ }).click();
  await expect(page).toHaveURL(new RegExp(`${keysPath}\\?origins=key_[0-9a-z]{26}$`));
  await expect(page.getByRole("status")).toContainText("allowed origins are saved");
  await expect(page.getByLabel(/^Allowed origins of pk_sandbox_/)).toHaveValue("https://shop.example.com");
  const listed = await (await page.request.get("/partner/v1/keys?type=publishable", { headers })).json();
  expect(listed.data.map((key: { allowed_origins: string[] }) => key.allowed_origins)).toEqual([["https://shop.example.com"]]);
  expect(await seriousViolations(page)).toEqual([]);

  // Usage: the counter's rows trail the requests by up to its flush interval, so the page is read again until they land.
  await page.getByRole("link", { name: "Usage" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Usage");
  await expect(page.getByText("by UTC day")).toBeVisible();
  const today = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(new Date());
  const todayRow = page.getByRole("region", { name: /Requests and 429s per UTC day/ }).getByRole("row").nth(1);
  await expect(async () => {
    await page.reload();
    await expect(todayRow.getByRole("cell").first()).toHaveText(today);
    expect(Number(await todayRow.getByRole("cell").nth(1).textContent())).toBeGreaterThanOrEqual(4);
  }).toPass();
  const requestsToday = Number(await todayRow.getByRole("cell").nth(1).textContent());
  await expect(todayRow.getByRole("cell").nth(2)).toHaveText("0");
  await expect(page.locator(".dashboard-usage-totals")).toHaveText(`${requestsToday} requests, of which 0 refused for going over the rate limit (429).`);
  await expect(page.getByRole("img", { name: /Requests per UTC day/ })).toBeVisible();
  expect(Number(await page.locator("rect.dashboard-bar-answered").last().getAttribute("height"))).toBeGreaterThan(0);
  await page.screenshot({ path: "test-results/dashboard-usage-desktop.png", fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);
  await checkPhone(page, "dashboard-usage-phone.png");

  await page.getByRole("link", { name: "API keys" }).click();
  await page.getByRole("link", { name: "Revoke all access tokens" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Revoke every sandbox access token?");
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole("button", { name: "Revoke all tokens" }).click();
  await expect(page).toHaveURL(new RegExp(`${keysPath}\\?tokens=revoked$`));
  await expect(page.getByRole("status")).toHaveText("Every sandbox access token issued until now is revoked. Your servers get new ones with their secret keys as usual.");
  const refused = await page.request.get("/partner/v1/keys", { headers });
  expect(refused.status()).toBe(401);
  expect((await refused.json()).error.code).toBe("token_revoked");
  await page.screenshot({ path: "test-results/dashboard-keys-rest-desktop.png", fullPage: true });
  await checkPhone(page, "dashboard-keys-rest-phone.png");
  expect(policyViolations).toEqual([]);
  await context.close();
});

test("a viewer reads Team and Usage without a control", async ({ browser }) => {
  const project = await createProjectWithCli(`E2E Team viewer ${Date.now()}`);
  const ownerEmail = await teamMember(project.project_id, "owner");
  const email = await teamMember(project.project_id, "viewer");
  const teamPath = `/dashboard/${project.project_id}/sandbox/team`;
  const { context, page, policyViolations } = await signInAt(browser, teamPath, email, { width: 390, height: 844 });

  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Team");
  await expect(page.getByRole("region", { name: /^The team/ }).getByRole("row").filter({ hasText: ownerEmail }).getByRole("cell").nth(2)).toHaveText("Owner");
  await expect(page.getByRole("button", { name: "Invite" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Change role/ })).toHaveCount(0);
  await expect(page.getByRole("link", { name: /^Remove/ })).toHaveCount(0);
  expect(await noSidewaysScroll(page)).toBe(true);
  await page.screenshot({ path: "test-results/dashboard-team-viewer-phone.png", fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByRole("link", { name: "Usage" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Usage");
  await expect(page.getByRole("img", { name: /Requests per UTC day/ })).toBeVisible();
  expect(await noSidewaysScroll(page)).toBe(true);
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByRole("link", { name: "API keys" }).click();
  await expect(page.getByRole("link", { name: /^Revoke all/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Save origins/ })).toHaveCount(0);
  await expect(page.getByText(/^pk_sandbox_….{4}: any origin$/)).toBeVisible();
  expect((await page.request.get(`/dashboard/${project.project_id}/sandbox/keys/revoke-tokens`)).status()).toBe(404);
  expect(policyViolations).toEqual([]);
  await context.close();
});
