// The dashboard's read sections in Chromium behind the production server (docs/dashboard.md, "Events, applications
// and accounts"). The test makes its data as a partner would, through the partner API in the sandbox: an
// application approved and funded into an account (its events delivered to a webhook endpoint), and a declined one
// whose decision an operator locks with the CLI. A viewer filters the events by type and by day and opens one (its
// JSON and its delivery), opens the funded application (decision and timeline) and its account (balance, schedule
// chart, ledger), and sees the locked decision without a control to release it; an owner releases it. axe finds
// nothing serious at desktop or phone width, a 390px phone never scrolls sideways, and addresses that name nothing
// here (another project, an unknown id, a filter value the list does not know) are a 404 page.
import { once } from "node:events";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { runCertificate } from "../helpers/tls";
import { seriousViolations, noSidewaysScroll } from "./accessibility";
import { cliJson, createProjectWithCli, sandboxHeaders } from "./cli-project";
import { decidedApplication, signInAt, teamMember } from "./dashboard-session";

test("a viewer filters events and opens one, then an application with its timeline and an account with its balance, chart and ledger, accessibly, on a desktop and a phone", async ({ browser, request }) => {
  // One rich walk: five admin CLI runs, a lifecycle through the API, a sign-in, and axe on a dozen page views.
  test.setTimeout(120_000);
  const delivered: string[] = [];
  const { key, cert } = runCertificate();
  const receiver = https.createServer({ key, cert }, (incoming, outgoing) => {
    let body = "";
    incoming.setEncoding("utf8");
    incoming.on("data", (chunk: string) => (body += chunk));
    incoming.on("end", () => {
      delivered.push(JSON.parse(body).type);
      outgoing.writeHead(204).end();
    });
  });
  receiver.listen(0, "127.0.0.1");
  await once(receiver, "listening");
  try {
    const project = await createProjectWithCli(`E2E Browse ${Date.now()}`);
    await teamMember(project.project_id, "owner");
    const email = await teamMember(project.project_id, "viewer");
    const headers = await sandboxHeaders(request, project);
    const hookUrl = `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const endpoint = await request.post("/partner/v1/webhook_endpoints", { headers, data: { url: hookUrl, enabled_events: ["account.activated"] } });
    expect(endpoint.status()).toBe(201);
    const endpointId = (await endpoint.json()).id;

    const funded = await decidedApplication(request, headers, "SC123456");
    expect(funded.status).toBe("approved");
    const fundedResponse = await request.post(`/partner/v1/test_helpers/applications/${funded.id}/fund`, { headers });
    const accountId = (await fundedResponse.json()).account_id as string;
    expect(accountId).toMatch(/^acc_/);
    const declined = await decidedApplication(request, headers, "12340001");
    expect(declined.status).toBe("declined");
    await cliJson("decision", "lock", declined.decision);
    await expect.poll(() => delivered, { timeout: 10_000, intervals: [200] }).toEqual(["account.activated"]);

    const base = `/dashboard/${project.project_id}/sandbox`;
    const { context, page, policyViolations } = await signInAt(browser, `${base}/events`, email);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Events");
    const events = page.getByRole("region", { name: "Events, newest first" });
    await expect(events.getByRole("row").nth(1)).toContainText("Decision made");
    expect(await seriousViolations(page)).toEqual([]);

    // By type: the account's opening, alone; the filters are the address, so the filtered list is a link.
    await page.getByLabel("Type", { exact: true }).selectOption("account.activated");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(new RegExp(`${base}/events\\?type=account.activated&from=&to=$`));
    const filtered = page.getByRole("region", { name: "Events matching your filters, newest first" });
    await expect(filtered.getByRole("row")).toHaveCount(2);
    await expect(filtered.getByRole("row").nth(1)).toContainText("Account opened");
    // By day: today (UTC) keeps it; from tomorrow, nothing.
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel("From", { exact: true }).fill(today);
    await page.getByLabel("To", { exact: true }).fill(today);
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(new RegExp(`\\?type=account.activated&from=${today}&to=${today}$`));
    await expect(filtered.getByRole("row")).toHaveCount(2);
    await page.goto(`${base}/events?from=${tomorrow}`);
    await expect(page.getByText("No events match these filters.")).toBeVisible();
    await page.getByRole("link", { name: "Clear filters" }).click();
    await expect(page).toHaveURL(new RegExp(`${base}/events$`));

    await page.goto(`${base}/events?type=account.activated`);
    await filtered.getByRole("link", { name: /^evt_/ }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Account opened");
    const json = JSON.parse((await page.getByTestId("event-json").textContent())!);
    expect(json).toMatchObject({ object: "event", type: "account.activated", livemode: false, data: { object: { id: accountId, object: "account", application_id: funded.id } } });
    const delivery = page.getByRole("region", { name: "Deliveries" }).getByRole("row").nth(1);
    await expect(delivery).toContainText(hookUrl);
    await expect(delivery).toContainText(endpointId);
    await expect(delivery.getByRole("cell").nth(1)).toHaveText("1");
    await expect(delivery).toContainText("Delivered");
    await expect(delivery).toContainText("HTTP 204");
    await page.screenshot({ path: "test-results/dashboard-event-desktop.png", fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);

    // The funded application: its decision and its timeline, oldest first, each event a link to its page.
    await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Applications" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Applications");
    await page.getByLabel("Status", { exact: true }).selectOption("funded");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(new RegExp(`${base}/applications\\?status=funded$`));
    const applications = page.getByRole("region", { name: "Funded applications, newest first" });
    await expect(applications.getByRole("row")).toHaveCount(2);
    await applications.getByRole("link", { name: "Sandbox Trading SC123456 Ltd" }).click();
    await expect(page).toHaveURL(new RegExp(`${base}/applications/${funded.id}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Application from Sandbox Trading SC123456 Ltd");
    const decision = page.getByRole("region", { name: "Decision" });
    await expect(decision).toContainText(/Outcome\s*Approved/);
    await expect(decision).toContainText(/Amount approved\s*£20,000.00/);
    await expect(decision).toContainText(/APR\s*24%/);
    const timeline = page.getByRole("region", { name: "Timeline" }).getByRole("listitem");
    await expect(timeline.first()).toContainText("Application created");
    await expect(page.getByRole("region", { name: "Timeline" })).toContainText("Decision made");
    await expect(page.getByRole("region", { name: "Timeline" })).toContainText("Application funded");
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: "test-results/dashboard-application-desktop.png", fullPage: true });

    // Its account: balance, the schedule as a chart, the ledger.
    await page.getByRole("link", { name: accountId }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Business loan for Sandbox Trading SC123456 Ltd");
    const balance = page.getByRole("region", { name: "Balance today" });
    await expect(balance).toContainText(/Principal outstanding\s*£20,000.00/);
    await expect(balance).toContainText(/Arrears\s*£0.00/);
    await expect(page.getByRole("img", { name: /Each instalment/ })).toBeVisible();
    await expect(page.locator(".account-chart rect")).toHaveCount(24);
    const ledger = page.getByRole("region", { name: "Ledger entries, newest first" });
    await expect(ledger.getByRole("row").nth(1)).toContainText("Drawdown");
    await expect(ledger.getByRole("row").nth(1)).toContainText("-£20,000.00");
    await expect(page.getByRole("region", { name: "Timeline" })).toContainText("Account opened");
    await page.screenshot({ path: "test-results/dashboard-account-desktop.png", fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);

    // The declined application's decision is locked: a viewer is told who can release it, and has no button.
    await page.goto(`${base}/applications/${declined.id}`);
    await expect(page.getByRole("heading", { name: "This decision is locked" })).toBeVisible();
    await expect(page.getByText("Ask an owner of this project to release it.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Release decision" })).toHaveCount(0);
    await expect(page.getByRole("region", { name: "Decision" })).toContainText("The business or its directors have adverse credit history.");

    // On a phone: every page fits, and axe finds nothing serious.
    await page.setViewportSize({ width: 390, height: 844 });
    const eventId = json.id as string;
    for (const [name, path] of [
      ["events", `${base}/events?type=account.activated`],
      ["event", `${base}/events/${eventId}`],
      ["applications", `${base}/applications`],
      ["application", `${base}/applications/${funded.id}`],
      ["accounts", `${base}/accounts`],
      ["account", `${base}/accounts/${accountId}`],
    ]) {
      await page.goto(path!);
      await page.screenshot({ path: `test-results/dashboard-${name}-phone.png`, fullPage: true });
      expect(await noSidewaysScroll(page), path).toBe(true);
      expect(await seriousViolations(page), path).toEqual([]);
    }

    // Addresses that name nothing here: the dashboard's 404 page, never a 500.
    const other = await createProjectWithCli(`E2E Browse other ${Date.now()}`);
    for (const path of [
      `/dashboard/${other.project_id}/sandbox/events`,
      `${base}/events/evt_00000000000000000000000000`,
      `${base}/applications/app_00000000000000000000000000`,
      `${base}/accounts/acc_00000000000000000000000000`,
      `${base}/events?type=application.exploded`,
      `${base}/events?from=2026-02-30`,
      `${base}/applications?status=approvedish`,
      `${base}/accounts?status=overdrawn`,
    ]) {
      const response = await page.request.get(path);
      expect(response.status(), path).toBe(404);
      expect(await response.text(), path).toContain("There is nothing at this address in the dashboard.");
    }
    expect(policyViolations).toEqual([]);
    await context.close();
  } finally {
    receiver.close();
  }
});

test("an owner releases a locked decision, and the Activity page says who did", async ({ browser, request }) => {
  test.setTimeout(60_000);
  const project = await createProjectWithCli(`E2E Browse release ${Date.now()}`);
  const email = await teamMember(project.project_id, "owner");
  const headers = await sandboxHeaders(request, project);
  const declined = await decidedApplication(request, headers, "12340001");
  await cliJson("decision", "lock", declined.decision);
  const applicationPath = `/dashboard/${project.project_id}/sandbox/applications/${declined.id}`;
  const { context, page, policyViolations } = await signInAt(browser, applicationPath, email, { width: 390, height: 844 });

  await expect(page.getByRole("heading", { name: "This decision is locked" })).toBeVisible();
  expect(await noSidewaysScroll(page)).toBe(true);
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: "test-results/dashboard-locked-decision-phone.png", fullPage: true });
  await page.getByRole("button", { name: "Release decision" }).click();
  await expect(page).toHaveURL(new RegExp(`${applicationPath}\\?released=1$`));
  await expect(page.getByRole("status")).toHaveText("The decision is released: it can change again.");
  await expect(page.getByRole("heading", { name: "This decision is locked" })).toHaveCount(0);
  expect((await (await request.get(`/partner/v1/decisions/${declined.decision}`, { headers })).json()).locked).toBe(false);
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByRole("link", { name: "Activity" }).click();
  const activity = page.getByRole("region", { name: /The latest/ });
  await expect(activity.getByRole("row").nth(1)).toContainText(new RegExp(`You\\s*Released a locked decision\\s*${declined.decision}`));
  expect(policyViolations).toEqual([]);
  await context.close();
});
