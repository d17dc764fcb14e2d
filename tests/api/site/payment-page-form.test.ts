// The payment page's simulated bank over HTTP (POST /pay/{token}/bank; docs/payments.md, "The payment page"):
// an HTML form post, answered with a redirect back to the page, that settles or fails the link as the bank
// would; refused without the form's token or from another site's page; harmless once the link is answered
// or expired; errors are pages a person reads, and each address has a bucket of bank posts.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { createPaymentLink } from "@/lib/accounts/payment-links";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import type { Tenant } from "@/lib/tenant";
import { fundedAccount } from "../../database/accounts/helpers";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectErrorPage } from "../../helpers/http";
import { createTestProject } from "../../helpers/partner";
import { tenantNow } from "@/lib/tenant-clock";

const NOW = "2027-04-02T08:00:00.000Z";

let server: AppServer;
let project: ProjectCredentials;
let tenant: Tenant;
let clock: ReturnType<typeof freezeClock>;

beforeAll(async () => {
  server = await startAppServer();
});
// Each test two days after the one before (one moves its clock a day on): the bank's per-address bucket, timed by
// lib/clock.ts, is full at the start of each.
let testNumber = 0;
let now: Date;
beforeEach(async () => {
  testNumber += 1;
  now = new Date(Date.parse(NOW) + testNumber * 2 * 86_400_000);
  clock = freezeClock(now);
  project = await createTestProject();
  tenant = { projectId: project.project_id, environment: "sandbox" };
});
afterAll(() => server?.close());

/** A link on a fresh account, with the tokens its page and form carry. */
async function link(amountPence = 10_000) {
  const account = await fundedAccount(tenant);
  const payment = await db().$transaction(async (transaction) => createPaymentLink({ tenant, now: await tenantNow(tenant), input: { account_id: account.id, amount_pence: amountPence }, transaction }));
  const row = await db().payment.findUniqueOrThrow({ where: { id: payment.id } });
  return { account, payment, linkToken: row.linkToken!, formToken: row.formToken! };
}

function post(linkToken: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}/pay/${linkToken}/bank`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields),
  });
}

async function statusOf(id: string) {
  return db().payment.findUniqueOrThrow({ where: { id } });
}

describe("the simulated bank", () => {
  it("Approve settles the link and sends the browser back to the page", async () => {
    const { account, payment, linkToken, formToken } = await link(10_000);
    const response = await post(linkToken, { decision: "approve", form_token: formToken }, { origin: server.url });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/pay/${linkToken}`);
    expect(await statusOf(payment.id)).toMatchObject({ status: "settled", settledAt: now, failureCode: null });
    const ledger = await db().ledgerTransaction.findMany({ where: { accountId: account.id }, orderBy: { id: "asc" } });
    expect(ledger.at(-1)).toMatchObject({ type: "collection", amountPence: 10_000, paymentId: payment.id });
    expect((await db().account.findUniqueOrThrow({ where: { id: account.id } })).principalOutstandingPence).toBe(1_000_000 - 10_000);
  });

  it("Fail fails it bank_rejected and leaves the account alone", async () => {
    const { account, payment, linkToken, formToken } = await link();
    const response = await post(linkToken, { decision: "fail", form_token: formToken });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/pay/${linkToken}`);
    expect(await statusOf(payment.id)).toMatchObject({ status: "failed", failureCode: "bank_rejected", settledAt: null });
    expect(await db().ledgerTransaction.count({ where: { accountId: account.id } })).toBe(1);
  });

  it("answers a second click with the same redirect and settles once", async () => {
    const { payment, linkToken, formToken } = await link();
    const clicks = await Promise.all([post(linkToken, { decision: "approve", form_token: formToken }), post(linkToken, { decision: "approve", form_token: formToken })]);
    expect(clicks.map((response) => response.status)).toEqual([303, 303]);
    const late = await post(linkToken, { decision: "fail", form_token: formToken });
    expect(late.status).toBe(303);
    expect((await statusOf(payment.id)).status).toBe("settled");
    const settledEvents = await db().event.count({ where: { projectId: project.project_id, type: "payment.settled", object: { path: ["id"], equals: payment.id } } });
    expect(settledEvents).toBe(1);
  });

  it("leaves an expired link as it is", async () => {
    const { payment, linkToken, formToken } = await link();
    clock.set(new Date(now.getTime() + 24 * 60 * 60 * 1000));
    const response = await post(linkToken, { decision: "approve", form_token: formToken });
    expect(response.status).toBe(303);
    expect((await statusOf(payment.id)).status).toBe("provisioned");
  });
});

describe("CSRF protection", () => {
  it("refuses a post without the form's token, or with another link's, with 403", async () => {
    const { payment, linkToken } = await link();
    const other = await link();
    const page = await expectErrorPage(await post(linkToken, { decision: "approve", form_token: other.formToken }), 403, "Sorry, that did not work");
    expect(page).toContain("<p>The form&#39;s security token is missing or does not match; go back, reload the page and try again.</p>");
    await expectErrorPage(await post(linkToken, { decision: "approve", form_token: "x" }), 403, "Sorry, that did not work");
    await expectErrorPage(await post(linkToken, { decision: "approve" }), 422, "Sorry, that did not work");
    expect((await statusOf(payment.id)).status).toBe("provisioned");
  });

  it("refuses a post from another site's page with 403, even with the right token", async () => {
    const { payment, linkToken, formToken } = await link();
    await expectErrorPage(await post(linkToken, { decision: "approve", form_token: formToken }, { origin: "https://attacker.example" }), 403, "Sorry, that did not work");
    await expectErrorPage(await post(linkToken, { decision: "approve", form_token: formToken }, { origin: "null" }), 403, "Sorry, that did not work");
    expect((await statusOf(payment.id)).status).toBe("provisioned");
  });
});

describe("the per-address limit", () => {
  it("answers the 11th post at once from one address 429 with Retry-After, as a page, without touching the link", async () => {
    const { payment, linkToken, formToken } = await link();
    const other = await link();
    for (let index = 0; index < 10; index += 1) {
      expect((await post(other.linkToken, { decision: "approve", form_token: other.formToken })).status).toBe(303);
    }
    const refused = await post(linkToken, { decision: "approve", form_token: formToken });
    const page = await expectErrorPage(refused, 429, "Too many requests");
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(page).toContain("Wait 1 second, then reload the page.");
    expect((await statusOf(payment.id)).status).toBe("provisioned");

    clock.advance(1_000);
    expect((await post(linkToken, { decision: "approve", form_token: formToken })).status).toBe(303);
    expect((await statusOf(payment.id)).status).toBe("settled");
  });
});

describe("bad input", () => {
  it("answers a clear 4xx", async () => {
    const { payment, linkToken, formToken } = await link();
    await expectErrorPage(await post(linkToken, { decision: "maybe", form_token: formToken }), 422, "Sorry, that did not work");
    await expectErrorPage(await post(linkToken, { decision: "approve", form_token: formToken, amount: "1" }), 400, "Sorry, that did not work");
    // A well-formed token of no link, and a malformed one, name nothing.
    await expectErrorPage(await post("A".repeat(32), { decision: "approve", form_token: formToken }), 404, "Page not found");
    await expectErrorPage(await post("short", { decision: "approve", form_token: formToken }), 404, "Page not found");
    const json = await fetch(`${server.url}/pay/${linkToken}/bank`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ decision: "approve", form_token: formToken }) });
    expect(json.status).toBeGreaterThanOrEqual(400);
    expect(json.status).toBeLessThan(500);
    expect((await fetch(`${server.url}/pay/${linkToken}/bank`)).status).toBe(405);
    expect((await statusOf(payment.id)).status).toBe("provisioned");
  });

  it("is not a simulated bank for a live link", async () => {
    const { payment, linkToken, formToken } = await link();
    await db().payment.update({ where: { id: payment.id }, data: { environment: "live" } });
    await expectErrorPage(await post(linkToken, { decision: "approve", form_token: formToken }), 404, "Page not found");
    expect((await statusOf(payment.id)).status).toBe("provisioned");
  });
});
