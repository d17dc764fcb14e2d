// The payments API over HTTP (spec 4.4, 2.6, 4.11; docs/payments.md): payment links on an account's payoff,
// reads and lists scoped to the caller's project and environment, the sandbox settle and fail helpers, one
// payment for 20 concurrent requests under one Idempotency-Key, and a clear 4xx for bad input on every
// endpoint, on a frozen clock.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { balanceAsOf } from "@/lib/accounts/allocation";
import { writeOffAccount } from "@/lib/accounts/service";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { config } from "@/lib/env";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import type { Tenant } from "@/lib/tenant";
import { fundedAccount } from "../../database/accounts/helpers";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError, expectJson, jsonRequest } from "../../helpers/http";
import { bearer, createTestProject, mintToken } from "../../helpers/partner";
import { tenantNow } from "@/lib/tenant-clock";

// 20 requests at once under one key exceed the sandbox's 10 in flight; the limits have their own tests.
process.env.RATE_LIMIT_SCALE = "100";

const NOW = "2027-03-10T10:00:00.000Z";
const DAY_MS = 24 * 60 * 60 * 1000;

let server: AppServer;
let project: ProjectCredentials;
let tenant: Tenant;
let token: string;
let clock: ReturnType<typeof freezeClock>;

beforeAll(async () => {
  server = await startAppServer();
});
beforeEach(async () => {
  clock = freezeClock(NOW);
  project = await createTestProject();
  tenant = { projectId: project.project_id, environment: "sandbox" };
  token = await mintToken(server.url, project);
});
afterAll(() => server?.close());

function call(method: string, path: string, body?: unknown, options: { token?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  const init = body === undefined ? { method, headers: options.headers ?? {} } : jsonRequest(method, body, options.headers);
  return fetch(`${server.url}/partner/v1${path}`, bearer(options.token ?? token, init));
}

async function createLink(body: Record<string, unknown>, options: { token?: string; key?: string } = {}) {
  return call("POST", "/payments/links", body, { token: options.token, headers: options.key ? { "idempotency-key": options.key } : {} });
}

async function eventsOf(projectId: string, since = 0) {
  return db().event.findMany({ where: { projectId }, orderBy: { id: "asc" }, skip: since });
}

describe("POST /partner/v1/payments/links", () => {
  it("provisions a link: 201 with the payment, its page on the hosted site and a 24-hour expiry", async () => {
    const account = await fundedAccount(tenant);
    const before = (await eventsOf(project.project_id)).length;
    const payment = await expectJson(
      await createLink({ account_id: account.id, amount_pence: 25_000, reference: "inv-7", redirect_uri: "https://partner.example/paid?order=7", metadata: { order: "7" } }, { key: "link-1" }),
      201,
    );
    expect(payment).toEqual({
      id: expect.stringMatching(/^pay_[0-9a-z]{26}$/),
      object: "payment",
      livemode: false,
      type: "payment_link",
      status: "provisioned",
      failure_code: null,
      account_id: account.id,
      amount_pence: 25_000,
      currency: "gbp",
      reference: "inv-7",
      url: expect.stringMatching(new RegExp(`^${config().APPLY_URL.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/pay/[0-9A-Za-z]{32}$`)),
      expires_at: new Date(Date.parse(NOW) + DAY_MS).toISOString(),
      redirect_uri: "https://partner.example/paid?order=7",
      metadata: { order: "7" },
      created_at: NOW,
      settled_at: null,
    });
    // The page's address carries its own token, never the payment id.
    expect(payment.url).not.toContain(payment.id.slice(4));
    const events = await eventsOf(project.project_id, before);
    expect(events.map((event) => event.type)).toEqual(["payment.created"]);
    expect(events[0]!.object).toEqual(payment);
    expect(await expectJson(await call("GET", `/payments/${payment.id}`), 200)).toEqual(payment);
  });

  it("takes the account's reference when none is given, and an amount up to the payoff exactly", async () => {
    const account = await fundedAccount(tenant);
    await db().account.update({ where: { id: account.id }, data: { reference: "acct-ref" } });
    const payment = await expectJson(await createLink({ account_id: account.id, amount_pence: 1_000_000 }), 201);
    expect(payment).toMatchObject({ reference: "acct-ref", redirect_uri: null, metadata: {}, amount_pence: 1_000_000 });
  });

  it("refuses an amount over the payoff with 422 on amount_pence", async () => {
    const account = await fundedAccount(tenant);
    clock.set("2027-03-25T10:00:00.000Z");
    token = await mintToken(server.url, project);
    const instalments = await db().instalment.findMany({ where: { accountId: account.id } });
    const payoff = balanceAsOf(account, instalments, "2027-03-25").payoff_pence;
    expect(payoff).toBeGreaterThan(1_000_000);
    const over = await expectApiError(await createLink({ account_id: account.id, amount_pence: payoff + 1 }), 422, "validation_failed");
    expect(over.error.detail).toEqual([{ field: "amount_pence", reason: "exceeds_payoff", message: `At most the account's payoff today, ${payoff} pence.` }]);
    await expectJson(await createLink({ account_id: account.id, amount_pence: payoff }), 201);
    expect(await db().payment.count({ where: { accountId: account.id, type: "payment_link" } })).toBe(1);
  });

  it("refuses a settled or closed account with 409 conflict, and an unknown one with 404", async () => {
    const settled = await fundedAccount(tenant);
    const paid = await expectJson(await createLink({ account_id: settled.id, amount_pence: 1_000_000 }), 201);
    await expectJson(await call("POST", `/test_helpers/payments/${paid.id}/settle`), 200);
    const closed = await fundedAccount(tenant);
    await writeOffAccount({ tenant, now: await tenantNow(tenant), id: closed.id });
    for (const account of [settled, closed]) {
      const refused = await expectApiError(await createLink({ account_id: account.id, amount_pence: 100 }), 409, "conflict");
      expect(refused.error.message).toMatch(/^An account that is (settled|closed) takes no payments/);
    }
    await expectApiError(await createLink({ account_id: "acc_00000000000000000000000000", amount_pence: 100 }), 404, "not_found");
    expect(await db().payment.count({ where: { accountId: { in: [settled.id, closed.id] }, status: "provisioned" } })).toBe(0);
  });

  it("creates exactly one payment and one payment.created for 20 concurrent requests under one key", async () => {
    const account = await fundedAccount(tenant);
    const body = { account_id: account.id, amount_pence: 12_345 };
    const responses = await Promise.all(Array.from({ length: 20 }, () => createLink(body, { key: "concurrent-link" })));
    const outcomes = await Promise.all(responses.map(async (response) => ({ status: response.status, body: await response.json() })));
    expect(await db().payment.count({ where: { accountId: account.id, type: "payment_link" } })).toBe(1);
    expect((await eventsOf(project.project_id)).filter((event) => event.type === "payment.created" && (event.object as { type: string }).type === "payment_link")).toHaveLength(1);
    expect(outcomes.map((outcome) => outcome.status).filter((status) => status !== 201 && status !== 409)).toEqual([]);
    const created = outcomes.filter((outcome) => outcome.status === 201).map((outcome) => outcome.body);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const payment of created) expect(payment).toEqual(created[0]);
    for (const outcome of outcomes.filter((item) => item.status === 409)) expect(outcome.body.error).toMatchObject({ code: "idempotency_key_in_progress", retryable: true });
    // The same key with another body is refused.
    await expectApiError(await createLink({ ...body, amount_pence: 1 }, { key: "concurrent-link" }), 409, "idempotency_key_reused");
  });

  it("answers a live account 503: no open-banking provider is connected to live", async () => {
    const account = await fundedAccount(tenant);
    await db().account.update({ where: { id: account.id }, data: { environment: "live" } });
    const live = await mintToken(server.url, project, { environment: "live" });
    const refused = await expectApiError(await createLink({ account_id: account.id, amount_pence: 100 }, { token: live }), 503, "service_unavailable");
    expect(refused.error.message).toContain("open-banking provider");
    expect(await db().payment.count({ where: { accountId: account.id, type: "payment_link" } })).toBe(0);
  });
});

describe("a link paid in full", () => {
  it("settles the account: account.closed, balance all zero, events in order with their objects", async () => {
    const account = await fundedAccount(tenant);
    const payment = await expectJson(await createLink({ account_id: account.id, amount_pence: 1_000_000 }), 201);
    const before = (await eventsOf(project.project_id)).length;
    const settled = await expectJson(await call("POST", `/test_helpers/payments/${payment.id}/settle`), 200);
    expect(settled).toEqual({ ...payment, status: "settled", settled_at: NOW });

    const detail = await expectJson(await fetch(`${server.url}/partner/v1/accounts/${account.id}`, bearer(token)), 200);
    expect(detail.status).toBe("settled");
    expect(detail.balance).toEqual({ principal_outstanding_pence: 0, interest_accrued_pence: 0, arrears_pence: 0, payoff_pence: 0 });
    const ledger = await expectJson(await fetch(`${server.url}/partner/v1/accounts/${account.id}/transactions`, bearer(token)), 200);
    expect(ledger.data[0]).toMatchObject({ type: "collection", amount_pence: 1_000_000, payment_id: payment.id, posted_at: NOW });

    const events = await eventsOf(project.project_id, before);
    expect(events.map((event) => [event.type, (event.object as { object: string }).object])).toEqual([
      ["payment.settled", "payment"],
      ["account.updated", "account"],
      ["account.closed", "account"],
    ]);
    expect(events[0]!.object).toEqual(settled);
    expect(events[2]!.object).toEqual(detail);
    // The page's link is spent: the helper refuses to settle it again.
    await expectApiError(await call("POST", `/test_helpers/payments/${payment.id}/settle`), 409, "conflict");
  });
});

describe("the sandbox test helpers", () => {
  it("fail a provisioned link with the failure code given, and refuse to move it again", async () => {
    const account = await fundedAccount(tenant);
    const payment = await expectJson(await createLink({ account_id: account.id, amount_pence: 5_000 }), 201);
    const failed = await expectJson(await call("POST", `/test_helpers/payments/${payment.id}/fail`, { failure_code: "disputed_by_customer" }), 200);
    expect(failed).toEqual({ ...payment, status: "failed", failure_code: "disputed_by_customer" });
    const events = await eventsOf(project.project_id);
    expect(events.at(-1)).toMatchObject({ type: "payment.failed", object: failed });
    for (const [path, move] of [[`/test_helpers/payments/${payment.id}/settle`, "settled"], [`/test_helpers/payments/${payment.id}/fail`, "failed"]]) {
      const refused = await expectApiError(await call("POST", path!, path!.endsWith("fail") ? { failure_code: "bank_rejected" } : undefined), 409, "conflict");
      // The one shape of an illegal move, as every lifecycle words it (lib/lifecycle.ts).
      expect(refused.error.message).toBe(`A payment that is failed cannot be ${move}.`);
    }
    expect((await db().account.findUniqueOrThrow({ where: { id: account.id } })).principalOutstandingPence).toBe(1_000_000);
  });

  it("refuse a settled disbursement with 409", async () => {
    const account = await fundedAccount(tenant);
    const disbursement = await db().payment.findFirstOrThrow({ where: { accountId: account.id, type: "disbursement" } });
    await expectApiError(await call("POST", `/test_helpers/payments/${disbursement.id}/settle`), 409, "conflict");
    await expectApiError(await call("POST", `/test_helpers/payments/${disbursement.id}/fail`, { failure_code: "technical_error" }), 409, "conflict");
  });

  it("do not exist for a live token, and need applications:write", async () => {
    const account = await fundedAccount(tenant);
    const payment = await expectJson(await createLink({ account_id: account.id, amount_pence: 5_000 }), 201);
    const live = await mintToken(server.url, project, { environment: "live" });
    await expectApiError(await call("POST", `/test_helpers/payments/${payment.id}/settle`, undefined, { token: live }), 404, "route_not_found");
    await expectApiError(await call("POST", `/test_helpers/payments/${payment.id}/fail`, { failure_code: "bank_rejected" }, { token: live }), 404, "route_not_found");
    const payments = await mintToken(server.url, project, { scope: "payments:read payments:write" });
    await expectApiError(await call("POST", `/test_helpers/payments/${payment.id}/settle`, undefined, { token: payments }), 403, "insufficient_scope");
    expect((await db().payment.findUniqueOrThrow({ where: { id: payment.id } })).status).toBe("provisioned");
  });
});

describe("reads", () => {
  it("lists payments newest first, filtered by status and account, with the filters kept across pages", async () => {
    const first = await fundedAccount(tenant);
    const second = await fundedAccount(tenant, { companyNumber: "12345679" });
    const links: Array<{ id: string }> = [];
    for (const [account, amount] of [[first, 100], [second, 200], [first, 300], [first, 400]] as const) {
      links.push(await expectJson(await createLink({ account_id: account.id, amount_pence: amount }), 201));
    }
    const everything = await expectJson(await call("GET", "/payments?limit=100"), 200);
    expect(everything).toMatchObject({ object: "list", has_more: false, url: "/partner/v1/payments" });
    // Four links and the two disbursements that funded the accounts.
    expect(everything.data.map((payment: { type: string; amount_pence: number }) => [payment.type, payment.amount_pence])).toEqual([
      ["payment_link", 400],
      ["payment_link", 300],
      ["payment_link", 200],
      ["payment_link", 100],
      ["disbursement", 1_000_000],
      ["disbursement", 1_000_000],
    ]);

    const page1 = await expectJson(await call("GET", `/payments?status=provisioned&account_id=${first.id}&limit=2`), 200);
    expect(page1.data.map((payment: { id: string }) => payment.id)).toEqual([links[3]!.id, links[2]!.id]);
    expect(page1.has_more).toBe(true);
    const page2 = await expectJson(await call("GET", `/payments?status=provisioned&account_id=${first.id}&limit=2&starting_after=${links[2]!.id}`), 200);
    expect(page2.data.map((payment: { id: string }) => payment.id)).toEqual([links[0]!.id]);
    expect(page2.has_more).toBe(false);
    const back = await expectJson(await call("GET", `/payments?status=provisioned&account_id=${first.id}&limit=1&ending_before=${links[0]!.id}`), 200);
    expect(back.data.map((payment: { id: string }) => payment.id)).toEqual([links[2]!.id]);
    expect(back.has_more).toBe(true);
    const settled = await expectJson(await call("GET", "/payments?status=settled"), 200);
    expect(settled.data.map((payment: { type: string }) => payment.type)).toEqual(["disbursement", "disbursement"]);
    expect((await expectJson(await call("GET", `/payments?account_id=${second.id}&status=failed`), 200)).data).toEqual([]);
  });

  it("hides every payment from another project (404) and refuses it to the other environment (401 environment_mismatch)", async () => {
    const account = await fundedAccount(tenant);
    const payment = await expectJson(await createLink({ account_id: account.id, amount_pence: 5_000 }), 201);
    const other = await mintToken(server.url, await createTestProject());
    const live = await mintToken(server.url, project, { environment: "live" });
    for (const [outsider, status, code] of [[other, 404, "not_found"], [live, 401, "environment_mismatch"]] as const) {
      await expectApiError(await call("GET", `/payments/${payment.id}`, undefined, { token: outsider }), status, code);
      expect((await expectJson(await call("GET", "/payments", undefined, { token: outsider }), 200)).data).toEqual([]);
      expect((await expectJson(await call("GET", `/payments?account_id=${account.id}`, undefined, { token: outsider }), 200)).data).toEqual([]);
      await expectApiError(await call("GET", `/payments?starting_after=${payment.id}`, undefined, { token: outsider }), 404, "not_found");
      await expectApiError(await createLink({ account_id: account.id, amount_pence: 100 }, { token: outsider }), status, code);
    }
    const otherSandbox = await mintToken(server.url, await createTestProject());
    await expectApiError(await call("POST", `/test_helpers/payments/${payment.id}/settle`, undefined, { token: otherSandbox }), 404, "not_found");
    await expectApiError(await call("POST", `/test_helpers/payments/${payment.id}/fail`, { failure_code: "bank_rejected" }, { token: otherSandbox }), 404, "not_found");
    expect((await db().payment.findUniqueOrThrow({ where: { id: payment.id } })).status).toBe("provisioned");
    expect(await db().payment.count({ where: { accountId: account.id, type: "payment_link" } })).toBe(1);
  });
});

describe("bad input", () => {
  it("answers every endpoint with a clear 4xx", async () => {
    const account = await fundedAccount(tenant);
    const payment = await expectJson(await createLink({ account_id: account.id, amount_pence: 5_000 }), 201);
    const link = (body: Record<string, unknown>) => createLink({ account_id: account.id, amount_pence: 100, ...body });

    await expectApiError(await link({ currency: "gbp" }), 400, "unknown_field");
    for (const [body, field] of [
      [{ amount_pence: 0 }, "amount_pence"],
      [{ amount_pence: 10.5 }, "amount_pence"],
      [{ amount_pence: "100" }, "amount_pence"],
      [{ account_id: "app_123" }, "account_id"],
      [{ redirect_uri: "not a url" }, "redirect_uri"],
      [{ redirect_uri: "javascript:alert(1)" }, "redirect_uri"],
      [{ reference: "" }, "reference"],
      [{ metadata: Object.fromEntries(Array.from({ length: 21 }, (_, index) => [`k${index}`, "v"])) }, "metadata"],
    ] as const) {
      const refused = await expectApiError(await link(body), 422, "validation_failed");
      expect(refused.error.detail?.[0]?.field, JSON.stringify(body)).toBe(field);
    }
    const missing = await expectApiError(await call("POST", "/payments/links", { amount_pence: 100 }), 422, "validation_failed");
    expect(missing.error.detail?.[0]).toMatchObject({ field: "account_id" });
    await expectApiError(await fetch(`${server.url}/partner/v1/payments/links`, bearer(token, { method: "POST", headers: { "content-type": "application/json" }, body: "{" })), 400, "invalid_json");

    await expectApiError(await call("GET", "/payments?colour=red"), 400, "unknown_field");
    expect((await expectApiError(await call("GET", "/payments?status=paid"), 422, "validation_failed")).error.detail?.[0]?.field).toBe("status");
    expect((await expectApiError(await call("GET", "/payments?account_id=pay_1"), 422, "validation_failed")).error.detail?.[0]?.field).toBe("account_id");
    await expectApiError(await call("GET", "/payments?limit=0"), 422, "validation_failed");
    await expectApiError(await call("GET", `/payments?starting_after=${payment.id}&ending_before=${payment.id}`), 422, "validation_failed");
    // A cursor of another kind, or of nothing, names nothing here.
    await expectApiError(await call("GET", `/payments?starting_after=${account.id}`), 404, "not_found");
    await expectApiError(await call("GET", "/payments?ending_before=pay_00000000000000000000000000"), 404, "not_found");
    for (const path of ["/payments/pay_00000000000000000000000000", `/payments/${account.id}`, "/payments/nope"]) await expectApiError(await call("GET", path), 404, "not_found");
    await expectApiError(await call("GET", "/payments/links"), 405, "method_not_allowed");

    await expectApiError(await call("POST", `/test_helpers/payments/${payment.id}/fail`, {}), 422, "validation_failed");
    expect((await expectApiError(await call("POST", `/test_helpers/payments/${payment.id}/fail`, { failure_code: "expired" }), 422, "validation_failed")).error.detail?.[0]?.field).toBe("failure_code");
    await expectApiError(await call("POST", `/test_helpers/payments/${payment.id}/fail`, { failure_code: "bank_rejected", note: "x" }), 400, "unknown_field");
    await expectApiError(await call("POST", `/test_helpers/payments/${payment.id}/settle`, { at: "now" }), 400, "unknown_field");
    for (const path of ["/test_helpers/payments/pay_00000000000000000000000000/settle", `/test_helpers/payments/${account.id}/settle`]) await expectApiError(await call("POST", path), 404, "not_found");
    expect((await db().payment.findUniqueOrThrow({ where: { id: payment.id } })).status).toBe("provisioned");

    const readOnly = await mintToken(server.url, project, { scope: "payments:read" });
    await expectApiError(await createLink({ account_id: account.id, amount_pence: 100 }, { token: readOnly }), 403, "insufficient_scope");
    const noPayments = await mintToken(server.url, project, { scope: "accounts.read" });
    for (const path of ["/payments", `/payments/${payment.id}`]) await expectApiError(await call("GET", path, undefined, { token: noPayments }), 403, "insufficient_scope");
  });
});
