// The partner dashboard's Webhooks section in Chromium behind the production server (docs/dashboard.md, "Webhooks"):
// a developer adds an endpoint pointing at a real https receiver on 127.0.0.1 (a refused answer first comes back to
// the form with an error summary), sees its signing secret once, and sees the receiver's failures in the attempts
// table after an application is created through the partner API; replays the event, disables and enables the
// endpoint, and once the receiver answers 200 recovers the failed deliveries and sees them delivered; rolls the
// secret. A viewer sees the endpoints and their attempts and no control. axe finds nothing serious at desktop or
// phone width, a 390px phone never scrolls sideways, and no Content-Security-Policy violation happens.
import { once } from "node:events";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { runCertificate } from "../helpers/tls";
import { seriousViolations, noSidewaysScroll } from "./accessibility";
import { createProjectWithCli, sandboxHeaders, type CliProject } from "./cli-project";
import { signInAt, teamMember } from "./dashboard-session";

/** An https receiver on 127.0.0.1 that answers `answer` (change it to change the receiver), counting what it gets. */
async function startReceiver(answer: { status: number; body: string }) {
  const received: string[] = [];
  const server = https.createServer(runCertificate(), (incoming, outgoing) => {
    incoming.resume();
    incoming.on("end", () => {
      received.push(String(incoming.headers["service-event-id"]));
      outgoing.writeHead(answer.status, { "content-type": "text/plain" }).end(answer.body);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received, close: () => server.close() };
}

async function createApplication(request: Parameters<typeof sandboxHeaders>[0], project: CliProject) {
  const response = await request.post("/partner/v1/applications", {
    headers: await sandboxHeaders(request, project),
    data: { business: { company_number: "12345678" }, amount_pence: 3_000_000, term_months: 18, applicant: { email: "director@example.co.uk" } },
  });
  expect(response.status()).toBe(201);
}

/** Reloads the page until the attempts table has a row with `text` (an attempt is recorded once the receiver answers). */
async function attemptRow(page: Page, text: RegExp) {
  const row = page.getByRole("region", { name: /The latest/ }).getByRole("row").filter({ hasText: text });
  await expect(async () => {
    await page.reload();
    await expect(row.first()).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 15_000 });
  return row.first();
}

test("a developer adds an endpoint, sees its failures, replays, recovers once the receiver answers and rolls its secret, accessibly, on a desktop and a phone", async ({ browser, request }) => {
  // Many steps, each a page view and an axe run, and three deliveries to wait for: more than the default's 30 s.
  test.setTimeout(120_000);
  const answer = { status: 500, body: "receiver down for maintenance" };
  const receiver = await startReceiver(answer);
  try {
    const project = await createProjectWithCli(`E2E Dashboard webhooks ${Date.now()}`);
    const email = await teamMember(project.project_id, "developer");
    const webhooksPath = `/dashboard/${project.project_id}/sandbox/webhooks`;
    const { context, page, policyViolations } = await signInAt(browser, webhooksPath, email);

    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Webhooks");
    await expect(page.getByRole("link", { name: "Webhooks" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByText("No sandbox webhook endpoints yet.")).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    // A refused answer comes back to the form, as typed, with the error summary.
    await page.getByLabel("URL").fill(receiver.url.replace("https:", "http:"));
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page).toHaveTitle(/^Error: Webhooks/);
    const summary = page.getByRole("alert");
    await expect(summary.getByRole("heading")).toHaveText("There is a problem");
    await expect(summary.getByRole("link", { name: "Events to send: Select the events to send, or All events" })).toBeVisible();
    await expect(page.getByLabel("URL")).toHaveValue(receiver.url.replace("https:", "http:"));
    await page.screenshot({ path: "test-results/dashboard-webhooks-refused-desktop.png", fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel("URL").fill(receiver.url);
    await page.getByLabel("application.created", { exact: true }).check();
    await page.getByLabel("Description (optional)").fill("Loan events");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page).toHaveURL(new RegExp(`${webhooksPath}/whe_[0-9a-z]{26}$`));
    const endpointPath = new URL(page.url()).pathname;
    await expect(page.getByRole("heading", { name: "Your endpoint's signing secret" })).toBeVisible();
    await expect(page.getByText("It will not be shown again")).toBeVisible();
    await expect(page.getByRole("button", { name: "Copy secret" })).toBeVisible();
    const secret = (await page.getByTestId("new-secret").textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    await page.screenshot({ path: "test-results/dashboard-webhooks-created-desktop.png", fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
    await page.reload();
    await expect(page.getByTestId("new-secret")).toHaveCount(0);
    expect(await page.content()).not.toContain(secret);

    // An application made through the partner API: its event reaches the receiver, which fails.
    await createApplication(request, project);
    const failed = await attemptRow(page, /Failed: HTTP 500/);
    await expect(failed).toContainText("application.created");
    await expect(failed).toContainText(/\d+ ms/);
    await expect(failed).toContainText("receiver down for maintenance");
    const eventId = (await failed.getByText(/^evt_/).textContent())!.trim();

    await failed.getByRole("button", { name: `Replay event ${eventId}` }).click();
    await expect(page).toHaveURL(new RegExp(`${endpointPath}\\?replayed=${eventId}$`));
    await expect(page.getByRole("status")).toHaveText(`Event ${eventId} is queued to be sent to this endpoint again.`);
    await expect(await attemptRow(page, /1 \(replay\)/)).toContainText("Failed: HTTP 500");
    expect(receiver.received).toEqual([eventId, eventId]);

    // Disabling stops the retries; once the receiver is fixed, enabling and recovering sends the event again.
    await page.getByRole("button", { name: "Disable endpoint" }).click();
    await expect(page.getByRole("status")).toHaveText("The endpoint is disabled: nothing is sent to it.");
    await expect(page.getByText("Disabled by your team")).toBeVisible();
    await expect(page.getByRole("button", { name: /^Replay/ })).toHaveCount(0);
    answer.status = 200;
    answer.body = "ok";
    await page.getByRole("button", { name: "Enable endpoint" }).click();
    await expect(page.getByRole("status")).toHaveText("The endpoint is enabled.");
    await expect(page.getByLabel("Recover failed deliveries since")).toHaveValue(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    await page.getByRole("button", { name: "Recover failed deliveries" }).click();
    await expect(page.getByRole("status")).toHaveText("1 failed delivery is queued to be sent again.");
    const delivered = await attemptRow(page, /Delivered: HTTP 200/);
    await expect(delivered).toContainText(eventId);
    await expect(delivered).toContainText("ok");
    expect(receiver.received).toEqual([eventId, eventId, eventId]);
    await page.screenshot({ path: "test-results/dashboard-webhooks-attempts-desktop.png", fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);

    // Rolling: a bad overlap comes back to the form; a good one shows the new secret once.
    await page.getByLabel("Overlap in hours").fill("999");
    await page.getByRole("button", { name: "Roll secret" }).click();
    await expect(page.getByRole("alert").getByRole("link", { name: "Overlap in hours: Overlap must be at most 168 hours (a week)" })).toBeVisible();
    await expect(page.getByLabel("Overlap in hours")).toHaveValue("999");
    await page.getByLabel("Overlap in hours").fill("2");
    await page.getByRole("button", { name: "Roll secret" }).click();
    await expect(page.getByRole("heading", { name: "Your endpoint's new signing secret" })).toBeVisible();
    const rolled = (await page.getByTestId("new-secret").textContent())!.trim();
    expect(rolled).toMatch(/^whsec_/);
    expect(rolled).not.toBe(secret);
    await expect(page.getByText("The old secret also signs deliveries until")).toBeVisible();

    await page.getByLabel("Description (optional)").fill("Loan and decision events");
    await page.getByLabel("decision.completed", { exact: true }).check();
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByRole("status")).toHaveText("Your changes are saved.");
    await expect(page.getByText("application.created, decision.completed").first()).toBeVisible();

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.screenshot({ path: "test-results/dashboard-webhooks-endpoint-phone.png", fullPage: true });
    expect(await noSidewaysScroll(page)).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("link", { name: "All webhook endpoints" }).click();
    const listed = page.getByRole("row").filter({ hasText: receiver.url });
    await expect(listed).toContainText("Enabled");
    await expect(listed).toContainText("Loan and decision events");
    await page.screenshot({ path: "test-results/dashboard-webhooks-list-phone.png", fullPage: true });
    expect(await noSidewaysScroll(page)).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    expect(policyViolations).toEqual([]);
    await context.close();
  } finally {
    receiver.close();
  }
});

test("a viewer sees the endpoints and their attempts but no control, and a forced post is refused", async ({ browser, request }) => {
  const receiver = await startReceiver({ status: 204, body: "" });
  try {
    const project = await createProjectWithCli(`E2E Dashboard webhooks viewer ${Date.now()}`);
    const registered = await request.post("/partner/v1/webhook_endpoints", {
      headers: await sandboxHeaders(request, project),
      data: { url: receiver.url, enabled_events: ["*"], description: "Everything" },
    });
    expect(registered.status()).toBe(201);
    const endpointId = (await registered.json()).id as string;
    await createApplication(request, project);
    const email = await teamMember(project.project_id, "viewer");
    const webhooksPath = `/dashboard/${project.project_id}/sandbox/webhooks`;
    const { context, page, policyViolations } = await signInAt(browser, webhooksPath, email, { width: 390, height: 844 });

    await expect(page.getByRole("row").filter({ hasText: endpointId })).toContainText("All events");
    await expect(page.getByRole("button", { name: "Add endpoint" })).toHaveCount(0);
    expect(await noSidewaysScroll(page)).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("link", { name: receiver.url }).click();
    await expect(await attemptRow(page, /Delivered: HTTP 204/)).toContainText("application.created");
    for (const control of [/^Replay/, "Disable endpoint", "Roll secret", "Recover failed deliveries", "Save changes"]) {
      await expect(page.getByRole("button", { name: control })).toHaveCount(0);
    }
    await page.screenshot({ path: "test-results/dashboard-webhooks-viewer-phone.png", fullPage: true });
    expect(await noSidewaysScroll(page)).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);

    // With the page's own CSRF token, so that the role is what refuses it.
    const csrfToken = (await context.cookies()).find((cookie) => cookie.name === "svc_csrf")!.value;
    const forced = await page.request.post(`${webhooksPath}/${endpointId}/disable`, { form: { csrf_token: csrfToken }, maxRedirects: 0 });
    expect(forced.status()).toBe(403);
    expect(await forced.text()).toContain("Your role in this project does not allow this.");
    expect(policyViolations).toEqual([]);
    await context.close();
  } finally {
    receiver.close();
  }
});
