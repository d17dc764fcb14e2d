// The accounts API over HTTP (spec 4.3, 2.4, 2.6): funding opens an account whose detail, balance and ledger
// agree; a Flex facility is drawn on; every endpoint is scoped to the caller's project and environment and
// answers bad input with a clear 4xx. The clock is frozen on the last day of a month, so the
// schedule's end-of-month rule shows.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError, expectJson, jsonRequest } from "../../helpers/http";
import { bearer, createTestProject, mintToken, untilDecided } from "../../helpers/partner";

const FUNDED_AT = "2027-01-31T10:00:00.000Z";

let server: AppServer;
let project: ProjectCredentials;
let token: string;

beforeAll(async () => {
  server = await startAppServer();
});
beforeEach(async () => {
  freezeClock(FUNDED_AT);
  project = await createTestProject();
  token = await mintToken(server.url, project);
});
afterAll(() => server?.close());

function call(method: string, path: string, body?: unknown, options: { token?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  const init = body === undefined ? { method, headers: options.headers ?? {} } : jsonRequest(method, body, options.headers);
  return fetch(`${server.url}/partner/v1${path}`, bearer(options.token ?? token, init));
}

/** Creates, submits, decides and funds an application; returns the funded application. */
async function fund(companyNumber: string, extra: Record<string, unknown> = {}, callerToken = token) {
  const application = await expectJson(
    await call("POST", "/applications", { business: { company_number: companyNumber }, amount_pence: 1_000_000, term_months: 12, applicant: { email: "director@example.co.uk" }, reference: `ref-${companyNumber}`, ...extra }, { token: callerToken }),
    201,
  );
  await expectJson(await call("POST", `/test_helpers/applications/${application.id}/submit`, undefined, { token: callerToken }), 200);
  await untilDecided(application.id, async () => expectJson(await call("GET", `/applications/${application.id}`, undefined, { token: callerToken }), 200));
  return expectJson(await call("POST", `/test_helpers/applications/${application.id}/fund`, undefined, { token: callerToken }), 200);
}

describe("funding a business loan", () => {
  it("opens a performing term-loan account whose detail, balance, ledger and events agree", async () => {
    const funded = await fund("12345678", { metadata: { crm: "C-1" } });
    expect(funded).toMatchObject({ status: "funded", product: "business_loan", funded_at: FUNDED_AT });
    expect(funded.account_id).toMatch(/^acc_[0-9a-z]{26}$/);
    const reread = await expectJson(await call("GET", `/applications/${funded.id}`), 200);
    expect(reread.account_id).toBe(funded.account_id);

    const account = await expectJson(await call("GET", `/accounts/${funded.account_id}`), 200);
    expect(account).toMatchObject({
      id: funded.account_id,
      object: "account",
      livemode: false,
      status: "performing",
      product: "business_term_loan",
      application_id: funded.id,
      borrower: { company_number: "12345678", company_name: "Sandbox Trading 12345678 Ltd" },
      principal_pence: 1_000_000,
      credit_limit_pence: null,
      available_pence: null,
      term_months: 12,
      rate_apr: 24,
      apr_bps: 2400,
      disbursed_at: FUNDED_AT,
      balance: { principal_outstanding_pence: 1_000_000, interest_accrued_pence: 0, arrears_pence: 0, payoff_pence: 1_000_000 },
      sub_account_id: null,
      reference: "ref-12345678",
      metadata: { crm: "C-1" },
      created_at: FUNDED_AT,
    });
    expect(account.schedule).toHaveLength(12);
    // Opened on 31 January: due on the last day of shorter months, and on the 31st again when a month has one.
    expect(account.schedule.slice(0, 4).map((item: { due_date: string }) => item.due_date)).toEqual(["2027-02-28", "2027-03-31", "2027-04-30", "2027-05-31"]);
    expect(account.schedule.map((item: { number: number }) => item.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(account.schedule.reduce((sum: number, item: { principal_pence: number }) => sum + item.principal_pence, 0)).toBe(1_000_000);
    for (const item of account.schedule) {
      expect(item.amount_pence).toBe(item.principal_pence + item.interest_pence);
      expect(item.status).toBe("scheduled");
    }
    // The same arithmetic the offer showed.
    const decision = await expectJson(await call("GET", `/decisions/${funded.decision}`), 200);
    expect(account.schedule[0].amount_pence).toBe(decision.offer.monthly_repayment_pence);

    expect(await expectJson(await call("GET", `/accounts/${funded.account_id}/balance`), 200)).toEqual(account.balance);

    const ledger = await expectJson(await call("GET", `/accounts/${funded.account_id}/transactions`), 200);
    expect(ledger).toMatchObject({ object: "list", has_more: false, url: `/partner/v1/accounts/${funded.account_id}/transactions` });
    expect(ledger.data).toHaveLength(1);
    expect(ledger.data[0]).toMatchObject({ object: "transaction", account_id: funded.account_id, type: "drawdown", amount_pence: -1_000_000, posted_at: FUNDED_AT });
    expect(ledger.data[0].id).toMatch(/^txn_[0-9a-z]{26}$/);
    expect(ledger.data[0].payment_id).toMatch(/^pay_[0-9a-z]{26}$/);

    const events = await db().event.findMany({ where: { projectId: project.project_id }, orderBy: { id: "asc" } });
    const funding = events.filter((event) => event.createdAt.toISOString() === FUNDED_AT && event.type !== "application.created" && event.type !== "application.submitted" && event.type !== "decision.completed");
    expect(funding.map((event) => [event.type, (event.object as { object: string }).object])).toEqual([
      ["offer.accepted", "offer"],
      ["application.funded", "application"],
      ["account.activated", "account"],
      ["payment.created", "payment"],
      ["payment.settled", "payment"],
    ]);
    expect(funding[1]!.object).toMatchObject({ id: funded.id, status: "funded", account_id: funded.account_id });
    expect(funding[2]!.object).toMatchObject({ id: funded.account_id, status: "performing", balance: { principal_outstanding_pence: 1_000_000 } });
    expect(funding[3]!.object).toMatchObject({ id: ledger.data[0].payment_id, type: "disbursement", status: "pending", failure_code: null, account_id: funded.account_id, amount_pence: 1_000_000, currency: "gbp", settled_at: null, livemode: false });
    expect(funding[4]!.object).toMatchObject({ id: ledger.data[0].payment_id, type: "disbursement", status: "settled", settled_at: FUNDED_AT });
  });

  it("refuses to fund an application twice", async () => {
    const funded = await fund("12345678");
    await expectApiError(await call("POST", `/test_helpers/applications/${funded.id}/fund`), 409, "conflict");
    expect(await db().account.count({ where: { applicationId: funded.id } })).toBe(1);
  });
});

describe("a Flex facility", () => {
  it("echoes the product, opens with nothing drawn and draws within its limit", async () => {
    const funded = await fund("12345678", { product: "flex" });
    expect(funded.product).toBe("flex");
    const account = await expectJson(await call("GET", `/accounts/${funded.account_id}`), 200);
    expect(account).toMatchObject({
      product: "flex_facility",
      principal_pence: 0,
      credit_limit_pence: 1_000_000,
      available_pence: 1_000_000,
      disbursed_at: null,
      schedule: [],
      balance: { principal_outstanding_pence: 0, interest_accrued_pence: 0, arrears_pence: 0, payoff_pence: 0 },
    });
    const types = (await db().event.findMany({ where: { projectId: project.project_id }, orderBy: { id: "asc" } })).map((event) => event.type);
    expect(types.slice(-3)).toEqual(["offer.accepted", "application.funded", "account.activated"]);

    const payment = await expectJson(await call("POST", `/accounts/${funded.account_id}/drawdowns`, { amount_pence: 250_000 }, { headers: { "idempotency-key": "draw-1" } }), 201);
    expect(payment).toMatchObject({ object: "payment", type: "disbursement", status: "settled", amount_pence: 250_000, account_id: funded.account_id, failure_code: null });
    // A retry with the same key does not draw twice.
    const replay = await expectJson(await call("POST", `/accounts/${funded.account_id}/drawdowns`, { amount_pence: 250_000 }, { headers: { "idempotency-key": "draw-1" } }), 201);
    expect(replay.id).toBe(payment.id);

    const drawn = await expectJson(await call("GET", `/accounts/${funded.account_id}`), 200);
    expect(drawn).toMatchObject({ principal_pence: 250_000, available_pence: 750_000, disbursed_at: FUNDED_AT, balance: { principal_outstanding_pence: 250_000, payoff_pence: 250_000 } });
    const ledger = await expectJson(await call("GET", `/accounts/${funded.account_id}/transactions`), 200);
    expect(ledger.data.map((row: { type: string; amount_pence: number; payment_id: string }) => [row.type, row.amount_pence, row.payment_id])).toEqual([["drawdown", -250_000, payment.id]]);

    const over = await expectApiError(await call("POST", `/accounts/${funded.account_id}/drawdowns`, { amount_pence: 750_001 }), 422, "validation_failed");
    expect(over.error.detail).toEqual([expect.objectContaining({ field: "amount_pence", reason: "exceeds_available" })]);
    await expectJson(await call("POST", `/accounts/${funded.account_id}/drawdowns`, { amount_pence: 750_000 }), 201);
    expect((await expectJson(await call("GET", `/accounts/${funded.account_id}`), 200)).available_pence).toBe(0);
  });

  it("refuses a drawdown on a term loan, a bad amount, an unknown field and a token without accounts.manage", async () => {
    const funded = await fund("12345678");
    await expectApiError(await call("POST", `/accounts/${funded.account_id}/drawdowns`, { amount_pence: 1_000 }), 409, "conflict");
    const zero = await expectApiError(await call("POST", `/accounts/${funded.account_id}/drawdowns`, { amount_pence: 0 }), 422, "validation_failed");
    expect(zero.error.detail?.[0]?.field).toBe("amount_pence");
    await expectApiError(await call("POST", `/accounts/${funded.account_id}/drawdowns`, { amount_pence: 1_000, currency: "gbp" }), 400, "unknown_field");
    const readOnly = await mintToken(server.url, project, { scope: "accounts.read" });
    await expectApiError(await call("POST", `/accounts/${funded.account_id}/drawdowns`, { amount_pence: 1_000 }, { token: readOnly }), 403, "insufficient_scope");
  });
});

describe("reads", () => {
  it("lists accounts newest first, filtered by status, with the filter kept across pages", async () => {
    const first = await fund("12345678");
    const second = await fund("12345679");
    const third = await fund("12345680");
    const page1 = await expectJson(await call("GET", "/accounts?status=performing&limit=2"), 200);
    expect(page1).toMatchObject({ object: "list", has_more: true, url: "/partner/v1/accounts" });
    expect(page1.data.map((item: { id: string }) => item.id)).toEqual([third.account_id, second.account_id]);
    const page2 = await expectJson(await call("GET", `/accounts?status=performing&limit=2&starting_after=${second.account_id}`), 200);
    expect(page2.data.map((item: { id: string }) => item.id)).toEqual([first.account_id]);
    expect(page2.has_more).toBe(false);
    const back = await expectJson(await call("GET", `/accounts?limit=1&ending_before=${first.account_id}`), 200);
    expect(back.data.map((item: { id: string }) => item.id)).toEqual([second.account_id]);
    expect((await expectJson(await call("GET", "/accounts?status=in_arrears"), 200)).data).toEqual([]);
    expect((await expectJson(await call("GET", "/accounts?sub_account_id=sub_none"), 200)).data).toEqual([]);
  });

  it("pages through a ledger", async () => {
    const funded = await fund("12345678", { product: "flex" });
    for (const amount of [1_000, 2_000, 3_000]) await expectJson(await call("POST", `/accounts/${funded.account_id}/drawdowns`, { amount_pence: amount }), 201);
    const page1 = await expectJson(await call("GET", `/accounts/${funded.account_id}/transactions?limit=2`), 200);
    expect(page1.data.map((row: { amount_pence: number }) => row.amount_pence)).toEqual([-3_000, -2_000]);
    expect(page1.has_more).toBe(true);
    const page2 = await expectJson(await call("GET", `/accounts/${funded.account_id}/transactions?limit=2&starting_after=${page1.data[1].id}`), 200);
    expect(page2.data.map((row: { amount_pence: number }) => row.amount_pence)).toEqual([-1_000]);
    expect(page2.has_more).toBe(false);
  });

  it("answers bad input with a clear 4xx", async () => {
    const funded = await fund("12345678");
    const id = funded.account_id;
    await expectApiError(await call("GET", "/accounts?colour=red"), 400, "unknown_field");
    await expectApiError(await call("GET", `/accounts/${id}/transactions?colour=red`), 400, "unknown_field");
    const status = await expectApiError(await call("GET", "/accounts?status=late"), 422, "validation_failed");
    expect(status.error.detail?.[0]?.field).toBe("status");
    await expectApiError(await call("GET", "/accounts?limit=101"), 422, "validation_failed");
    await expectApiError(await call("GET", "/accounts?sub_account_id=acc_1"), 422, "validation_failed");
    for (const path of ["/accounts/app_00000000000000000000000000", "/accounts/acc_00000000000000000000000000", "/accounts/acc_00000000000000000000000000/balance", "/accounts/acc_00000000000000000000000000/transactions", "/accounts/nope/balance"]) {
      await expectApiError(await call("GET", path), 404, "not_found");
    }
    await expectApiError(await call("POST", "/accounts/acc_00000000000000000000000000/drawdowns", { amount_pence: 1 }), 404, "not_found");
    // A cursor of another kind, or of nothing, names nothing here.
    await expectApiError(await call("GET", `/accounts?starting_after=${funded.id}`), 404, "not_found");
    await expectApiError(await call("GET", "/accounts?starting_after=acc_00000000000000000000000000"), 404, "not_found");
    await expectApiError(await call("GET", `/accounts/${id}/transactions?starting_after=${id}`), 404, "not_found");
    await expectApiError(await call("GET", `/accounts?starting_after=${id}&ending_before=${id}`), 422, "validation_failed");
    const noScope = await mintToken(server.url, project, { scope: "applications:read" });
    for (const path of ["/accounts", `/accounts/${id}`, `/accounts/${id}/balance`, `/accounts/${id}/transactions`]) {
      await expectApiError(await call("GET", path, undefined, { token: noScope }), 403, "insufficient_scope");
    }
  });

  it("hides every account from another project (404) and refuses it to the other environment (401 environment_mismatch)", async () => {
    const funded = await fund("12345678", { product: "flex" });
    await expectJson(await call("POST", `/accounts/${funded.account_id}/drawdowns`, { amount_pence: 1_000 }), 201);
    const ledgerRow = (await expectJson(await call("GET", `/accounts/${funded.account_id}/transactions`), 200)).data[0].id;
    const other = await mintToken(server.url, await createTestProject());
    const live = await mintToken(server.url, project, { environment: "live" });
    for (const [outsider, status, code] of [[other, 404, "not_found"], [live, 401, "environment_mismatch"]] as const) {
      for (const path of [`/accounts/${funded.account_id}`, `/accounts/${funded.account_id}/balance`, `/accounts/${funded.account_id}/transactions`]) {
        await expectApiError(await call("GET", path, undefined, { token: outsider }), status, code);
      }
      await expectApiError(await call("POST", `/accounts/${funded.account_id}/drawdowns`, { amount_pence: 1_000 }, { token: outsider }), status, code);
      expect((await expectJson(await call("GET", "/accounts", undefined, { token: outsider }), 200)).data).toEqual([]);
      await expectApiError(await call("GET", `/accounts?starting_after=${funded.account_id}`, undefined, { token: outsider }), 404, "not_found");
    }
    // The owner's ledger cursor is no cursor on another account's ledger.
    const second = await fund("12345679");
    await expectApiError(await call("GET", `/accounts/${second.account_id}/transactions?starting_after=${ledgerRow}`), 404, "not_found");
    expect((await expectJson(await call("GET", `/accounts/${funded.account_id}`), 200)).balance.principal_outstanding_pence).toBe(1_000);
  });
});
