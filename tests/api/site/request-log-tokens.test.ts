// Capability tokens never reach the logs (docs/hosted-journey.md, docs/payments.md): the request log line names
// the route's pattern, so the handoff token of a journey (its waiting page polls the status every 2 s) and the
// token of a payment link are written nowhere, whatever the request came to.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApplication } from "@/lib/applications/create";
import { db } from "@/lib/db";
import { openJourney } from "@/lib/journey/journey";
import type { LogEntry } from "@/lib/log";
import { createPaymentLink } from "@/lib/accounts/payment-links";
import type { Tenant } from "@/lib/tenant";
import { fundedAccount } from "../../database/accounts/helpers";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { captureLogs } from "../../helpers/logs";
import { createTestProject } from "../../helpers/partner";
import { tenantNow } from "@/lib/tenant-clock";

let server: AppServer;
let tenant: Tenant;

beforeAll(async () => {
  server = await startAppServer();
  tenant = { projectId: (await createTestProject()).project_id, environment: "sandbox" };
});
afterAll(() => server?.close());

function form(fields: Record<string, string>, headers: Record<string, string> = {}): RequestInit {
  return { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(fields) };
}

/** The log entries written while `requests` ran, with the statuses they were answered. */
async function logged(requests: Array<() => Promise<Response>>): Promise<{ statuses: number[]; entries: LogEntry[] }> {
  const { result, entries } = await captureLogs(async () => {
    const statuses = [];
    for (const request of requests) {
      const response = await request();
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    return statuses;
  });
  return { statuses: result, entries };
}

function requestLines(entries: readonly LogEntry[]) {
  return entries.filter((entry) => entry.msg === "request").map(({ method, path, status }) => ({ method, path, status }));
}

describe("the request log", () => {
  it("names the journey's routes by their pattern, never by the handoff token", async () => {
    const application = await createApplication({
      tenant, now: await tenantNow(tenant),
      input: { business: { company_number: "12990042" }, amount_pence: 2_500_000, term_months: 12, applicant: { email: "ada@example.co.uk" } },
    });
    const { handoffToken } = await db().application.findUniqueOrThrow({ where: { id: application.id } });
    const formToken = (await openJourney(handoffToken))!.journey.formToken;
    const unknownToken = "Z".repeat(40);

    const { statuses, entries } = await logged([
      () => fetch(`${server.url}/apply/${handoffToken}/status`),
      () => fetch(`${server.url}/apply/${handoffToken}/company/form`, form({ form_token: formToken, annual_turnover: "£500,000" })),
      () => fetch(`${server.url}/apply/${handoffToken}/company/form`, form({ form_token: "not-the-form-token" })),
      () => fetch(`${server.url}/apply/${unknownToken}/status`),
    ]);

    expect(statuses).toEqual([200, 303, 403, 404]);
    expect(requestLines(entries)).toEqual([
      { method: "GET", path: "/apply/{token}/status", status: 200 },
      { method: "POST", path: "/apply/{token}/{step}/form", status: 303 },
      { method: "POST", path: "/apply/{token}/{step}/form", status: 403 },
      { method: "GET", path: "/apply/{token}/status", status: 404 },
    ]);
    const written = JSON.stringify(entries);
    for (const token of [handoffToken, formToken, unknownToken]) expect(written).not.toContain(token);
  });

  it("names the payment link's bank form by its pattern, never by the link's token", async () => {
    const account = await fundedAccount(tenant);
    const payment = await db().$transaction(async (transaction) => createPaymentLink({ tenant, now: await tenantNow(tenant), input: { account_id: account.id, amount_pence: 10_000 }, transaction }));
    const { linkToken, formToken } = await db().payment.findUniqueOrThrow({ where: { id: payment.id } });

    const { statuses, entries } = await logged([
      () => fetch(`${server.url}/pay/${linkToken}/bank`, form({ decision: "approve", form_token: "not-the-form-token" }, { origin: server.url })),
      () => fetch(`${server.url}/pay/${linkToken}/bank`, form({ decision: "approve", form_token: formToken! }, { origin: server.url })),
      () => fetch(`${server.url}/pay/${linkToken}/bank`, { method: "GET" }),
    ]);

    expect(statuses).toEqual([403, 303, 405]);
    expect(requestLines(entries)).toEqual([
      { method: "POST", path: "/pay/{token}/bank", status: 403 },
      { method: "POST", path: "/pay/{token}/bank", status: 303 },
      { method: "GET", path: "/pay/{token}/bank", status: 405 },
    ]);
    const written = JSON.stringify(entries);
    for (const token of [linkToken!, formToken!]) expect(written).not.toContain(token);
  });

  it("names partner routes by their pattern too, and an unmatched path by its ring", async () => {
    const { entries } = await logged([
      () => fetch(`${server.url}/partner/v1/applications/app_01aaaaaaaaaaaaaaaaaaaaaaaa`),
      () => fetch(`${server.url}/partner/v1/no/such/route/${"Q".repeat(32)}`),
    ]);
    expect(requestLines(entries)).toEqual([
      { method: "GET", path: "/partner/v1/applications/{id}", status: 401 },
      { method: "GET", path: "/partner/v1/{unmatched}", status: 404 },
    ]);
    expect(JSON.stringify(entries)).not.toContain("Q".repeat(32));
  });
});
