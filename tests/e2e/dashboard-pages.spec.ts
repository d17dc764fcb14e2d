// Every page of the partner dashboard, as an owner sees it (every control shown) with data in each section, at a
// desktop's width and a 390px phone's: axe finds no serious or critical violation, the phone never scrolls sideways,
// no Content-Security-Policy violation happens, and a screenshot of each is kept (test-results/dashboard-pages-*).
// The sections' own specs drive the controls; this one holds the whole dashboard to the same bar.
import { expect, test } from "@playwright/test";
import { seriousViolations, noSidewaysScroll } from "./accessibility";
import { cliJson, createProjectWithCli, sandboxHeaders } from "./cli-project";
import { decidedApplication, signInAt, teamMember } from "./dashboard-session";

test("every dashboard page, with data, is accessible on a desktop and on a phone", async ({ browser, request }) => {
  // Nineteen pages at two widths, each with axe.
  test.setTimeout(210_000);
  const project = await createProjectWithCli(`E2E Pages ${Date.now()}`);
  // The beta sections too: a sub-account the funded application is originated through, and its payout.
  await cliJson("project", "capability", project.project_id, "--enable", "beta");
  const email = await teamMember(project.project_id, "owner");
  await teamMember(project.project_id, "developer");
  const headers = await sandboxHeaders(request, project);
  const endpoint = await request.post("/partner/v1/webhook_endpoints", { headers, data: { url: "https://127.0.0.1:9/hooks", enabled_events: ["*"], description: "Order system" } });
  expect(endpoint.status()).toBe(201);
  const endpointId = (await endpoint.json()).id as string;
  const subAccount = await request.post("/partner/v1/sub-accounts", { headers: { ...headers, "idempotency-key": `e2e-pages-${Date.now()}` }, data: { name: "Northside Brokers" } });
  expect(subAccount.status()).toBe(201);
  const funded = await decidedApplication(request, headers, "SC123456", { sub_account_id: (await subAccount.json()).id });
  const fundedResponse = await request.post(`/partner/v1/test_helpers/applications/${funded.id}/fund`, { headers });
  const accountId = (await fundedResponse.json()).account_id as string;
  expect(accountId).toMatch(/^acc_/);
  const payouts = await request.post("/partner/v1/test_helpers/payouts/run", { headers });
  const payoutId = (await payouts.json()).data[0].id as string;
  expect(payoutId).toMatch(/^po_/);
  const eventId = (await (await request.get("/partner/v1/events?limit=1", { headers })).json()).data[0].id as string;
  const keyId = (await (await request.get("/partner/v1/keys", { headers })).json()).data[0].id as string;
  const developerId = ((await cliJson("team", "list", "--project", project.project_id)) as unknown as { data: Array<{ user_id: string; role: string }> }).data.find((member) => member.role === "developer")!.user_id;

  const base = `/dashboard/${project.project_id}/sandbox`;
  const pages: Array<[name: string, path: string, heading: string | RegExp]> = [
    ["keys", `${base}/keys`, "API keys"],
    ["key-revoke", `${base}/keys/${keyId}/revoke`, "Revoke this key?"],
    ["revoke-tokens", `${base}/keys/revoke-tokens`, /Revoke every/],
    ["webhooks", `${base}/webhooks`, "Webhooks"],
    ["webhook-endpoint", `${base}/webhooks/${endpointId}`, "Webhook endpoint"],
    ["events", `${base}/events`, "Events"],
    ["event", `${base}/events/${eventId}`, /./],
    ["applications", `${base}/applications`, "Applications"],
    ["application", `${base}/applications/${funded.id}`, /^Application from/],
    ["accounts", `${base}/accounts`, "Accounts"],
    ["account", `${base}/accounts/${accountId}`, /^Business loan for/],
    ["sub-accounts", `${base}/sub-accounts`, "Sub-accounts"],
    ["introductions", `${base}/introductions`, "Introductions"],
    ["payouts", `${base}/payouts`, "Payouts"],
    ["payout", `${base}/payouts/${payoutId}`, /^Payout to Northside Brokers for/],
    ["team", `${base}/team`, "Team"],
    ["member-remove", `${base}/team/${developerId}/remove`, /^Remove/],
    ["usage", `${base}/usage`, "Usage"],
    ["activity", `${base}/activity`, "Activity"],
  ];

  const { context, page, policyViolations } = await signInAt(browser, pages[0]![1], email);
  for (const [width, height, label] of [[1280, 900, "desktop"], [390, 844, "phone"]] as const) {
    await page.setViewportSize({ width, height });
    for (const [name, path, heading] of pages) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      await expect(page.getByRole("heading", { level: 1 }), path).toHaveText(heading);
      await page.screenshot({ path: `test-results/dashboard-pages-${name}-${label}.png`, fullPage: true });
      expect(await seriousViolations(page), `${path} at ${label} width`).toEqual([]);
      expect(await noSidewaysScroll(page), `${path} at ${label} width`).toBe(true);
    }
  }
  expect(policyViolations).toEqual([]);
  await context.close();
});
