// Payouts over HTTP (beta, spec 2.5; docs/beta.md, "Payouts"): a month's revenue share per sub-account, whose
// statement reconciles to the ledger line by line and sums exactly to gross_pence (property-based, over random
// principals and rates); the sandbox's run now and its monthly run on the test clock, both paid at once with
// payout.paid; live payouts left pending; nothing paid twice; the hourly sweep finding only sub-accounts whose
// month has closed on their project's clock; and the refusals of the payout routes, each writing nothing.
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { payOutRevenueShare } from "@/lib/revenue-share/background";
import { revenueSharePence } from "@/lib/revenue-share/introductions";
import { payOutSubAccount } from "@/lib/revenue-share/payouts";
import { createSubAccount, setMasterRevenueShare } from "@/lib/revenue-share/sub-accounts";
import type { Tenant } from "@/lib/tenant";
import { tenantNow } from "@/lib/tenant-clock";
import { startAppServer, type AppServer } from "../../../helpers/app-server";
import { betaRows, originate, partnerCaller, type Json } from "../../../helpers/beta";
import { expectApiError, expectJson } from "../../../helpers/http";
import { createTestPartner, mintToken, untilDecided, type TestPartner } from "../../../helpers/partner";

// The property and the walks make more requests of one project than a sandbox burst; the limits have their own tests.
process.env.RATE_LIMIT_SCALE = "100";

const T0 = "2027-01-20T10:00:00.000Z";

let server: AppServer;
let clock: ReturnType<typeof freezeClock>;
let call: ReturnType<typeof partnerCaller>;

beforeAll(async () => {
  server = await startAppServer();
  call = partnerCaller(server.url, "");
});
afterAll(() => server?.close());
beforeEach(() => {
  clock = freezeClock(T0);
});

const betaPartner = (options: { environment?: "sandbox" | "live" } = {}) => createTestPartner(server.url, { capabilities: ["beta"], ...options });

async function newSubAccount(tenant: Tenant, bps?: number, name = "Northside Brokers"): Promise<Json> {
  return createSubAccount({ tenant, now: await tenantNow(tenant), input: { name, ...(bps === undefined ? {} : { revenue_share_bps: bps }) } });
}

async function get(token: string, path: string): Promise<Json> {
  return expectJson(await call("GET", path, undefined, { token }), 200);
}

async function runPayouts(token: string): Promise<Json[]> {
  const list = await expectJson(await call("POST", "/test_helpers/payouts/run", {}, { token }), 200);
  expect(list).toMatchObject({ object: "list", has_more: false, url: "/partner/v1/payouts" });
  return list.data;
}

/**
 * The payout read back over HTTP reconciles: its lines sum exactly to gross_pence and number `introductions`,
 * oldest funding first, and each line's principal is its account's principal and its ledger's opening drawdown.
 */
async function expectReconciled(token: string, payoutId: string): Promise<Json> {
  const payout = await get(token, `/payouts/${payoutId}`);
  const statement: Json[] = payout.statement;
  expect(statement.reduce((sum, line) => sum + line.share_pence, 0)).toBe(payout.gross_pence);
  expect(statement).toHaveLength(payout.introductions);
  const order = [...statement].sort((a, b) => a.funded_at.localeCompare(b.funded_at) || a.introduction_id.localeCompare(b.introduction_id));
  expect(statement).toEqual(order);
  for (const line of statement) {
    expect(line.share_pence).toBe(revenueSharePence(line.principal_pence, line.revenue_share_bps));
    const account = await get(token, `/accounts/${line.account_id}`);
    expect(account).toMatchObject({ id: line.account_id, application_id: line.application_id, sub_account_id: payout.sub_account_id, principal_pence: line.principal_pence });
    const ledger = await get(token, `/accounts/${line.account_id}/transactions`);
    const drawdowns = ledger.data.filter((row: Json) => row.type === "drawdown");
    expect(drawdowns.map((row: Json) => row.amount_pence)).toEqual([-line.principal_pence]);
    expect(drawdowns[0].payment_id).toMatch(/^pay_[0-9a-z]{26}$/);
  }
  return payout;
}

describe("a sub-account's loans, walked over HTTP from application to payout", () => {
  it("funds through the sub-account, pays the share out with payout.paid, reconciles to the ledger and pays nothing twice", async () => {
    const partner = await betaPartner();
    const subAccount = await expectJson(await call("POST", "/sub-accounts", { name: "Northside Brokers", revenue_share_bps: 75 }, { token: partner.token, headers: { "idempotency-key": "sub-1" } }), 201);
    const created = await expectJson(
      await call("POST", "/applications", { business: { company_number: "12345678" }, amount_pence: 2_345_678, term_months: 12, applicant: { email: "director@example.co.uk" }, sub_account_id: subAccount.id }, { token: partner.token }),
      201,
    );
    await expectJson(await call("POST", `/test_helpers/applications/${created.id}/submit`, undefined, { token: partner.token }), 200);
    await untilDecided(created.id, () => get(partner.token, `/applications/${created.id}`));
    clock.advance(60_000);
    const funded = await expectJson(await call("POST", `/test_helpers/applications/${created.id}/fund`, undefined, { token: partner.token }), 200);
    const fundedAt = "2027-01-20T10:01:00.000Z";
    expect(funded).toMatchObject({ status: "funded", funded_at: fundedAt, sub_account_id: subAccount.id });

    clock.advance(60_000);
    const paidAt = "2027-01-20T10:02:00.000Z";
    const made = await runPayouts(partner.token);
    expect(made).toEqual([
      {
        id: expect.stringMatching(/^po_[0-9a-z]{26}$/),
        object: "payout",
        livemode: false,
        sub_account_id: subAccount.id,
        period: "2027-01",
        status: "paid",
        // 2,345,678 × 75 ÷ 10,000 = 17,592.585: rounded down.
        gross_pence: 17_592,
        introductions: 1,
        created_at: paidAt,
        paid_at: paidAt,
      },
    ]);
    const payout = await expectReconciled(partner.token, made[0]!.id);
    expect(payout).toEqual({
      ...made[0],
      statement: [
        {
          introduction_id: created.introduction_id,
          application_id: created.id,
          account_id: funded.account_id,
          funded_at: fundedAt,
          principal_pence: 2_345_678,
          revenue_share_bps: 75,
          share_pence: 17_592,
        },
      ],
    });
    expect((await get(partner.token, "/introductions")).data[0]).toMatchObject({ id: created.introduction_id, stage: "funded", payout_id: payout.id });

    const events = await get(partner.token, "/events?type=payout.paid");
    expect(events.data).toEqual([
      { id: expect.stringMatching(/^evt_[0-9a-z]{26}$/), object: "event", type: "payout.paid", api_version: "2026-11-01", created_at: paidAt, livemode: false, data: { object: made[0] } },
    ]);

    // Nothing paid twice: a second run, and the month's close on the test clock, make nothing more.
    expect(await runPayouts(partner.token)).toEqual([]);
    expect((await expectJson(await call("POST", "/test_helpers/clock/advance", { days: 12 }, { token: partner.token }), 200)).now).toBe("2027-02-01T10:02:00.000Z");
    expect((await get(partner.token, "/payouts")).data).toEqual([made[0]]);
    expect((await get(partner.token, "/events?type=payout.paid")).data).toHaveLength(1);
  });
});

describe("the statement reconciles (property)", () => {
  let partner: TestPartner;
  beforeAll(async () => {
    freezeClock(T0);
    partner = await betaPartner();
    await setMasterRevenueShare(db(), partner.project.project_id, 10_000);
  });

  it("sums exactly to gross_pence and matches every account's principal and drawdown, for any principals and rates", async () => {
    const funding = fc.record({ amountPence: fc.integer({ min: 100_000, max: 25_000_000 }), which: fc.nat({ max: 2 }) });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 10_000 }), { minLength: 1, maxLength: 3 }), fc.array(funding, { minLength: 1, maxLength: 5 }), async (rates, fundings) => {
        clock = freezeClock(T0);
        const subAccounts = [];
        for (const bps of rates) subAccounts.push(await newSubAccount(partner.tenant, bps));
        const expected = new Map<string, { gross: number; count: number; principals: number[] }>();
        for (const { amountPence, which } of fundings) {
          const subAccount = subAccounts[which % subAccounts.length]!;
          clock.advance(1_000);
          const originated = await originate(partner.tenant, subAccount.id, { amountPence });
          expect(originated.status).toBe("funded");
          const sums = expected.get(subAccount.id) ?? { gross: 0, count: 0, principals: [] };
          expected.set(subAccount.id, { gross: sums.gross + revenueSharePence(amountPence, subAccount.revenue_share_bps), count: sums.count + 1, principals: [...sums.principals, amountPence] });
        }
        const made = await runPayouts(partner.token);
        expect(made.map((payout) => payout.sub_account_id).sort()).toEqual([...expected.keys()].sort());
        for (const summary of made) {
          const sums = expected.get(summary.sub_account_id)!;
          expect(summary).toMatchObject({ status: "paid", period: "2027-01", gross_pence: sums.gross, introductions: sums.count });
          const payout = await expectReconciled(partner.token, summary.id);
          expect(payout.statement.map((line: Json) => line.principal_pence)).toEqual(sums.principals);
        }
      }),
      { numRuns: 5 },
    );
  });
});

describe("what earns", () => {
  it("pays only funded introductions: declined, referred and unfunded ones accrue nothing and stay out of every payout", async () => {
    const partner = await betaPartner();
    const subAccount = await newSubAccount(partner.tenant);
    const funded = await originate(partner.tenant, subAccount.id, { amountPence: 500_000 });
    const declined = await originate(partner.tenant, subAccount.id, { companyNumber: "12340001" });
    const referred = await originate(partner.tenant, subAccount.id, { companyNumber: "12340006" });
    const approved = await originate(partner.tenant, subAccount.id, { fund: false });
    expect([funded.status, declined.status, referred.status, approved.status]).toEqual(["funded", "declined", "in_review", "approved"]);

    const [payout] = await runPayouts(partner.token);
    expect(payout).toMatchObject({ gross_pence: 5_000, introductions: 1 });
    expect((await expectReconciled(partner.token, payout!.id)).statement.map((line: Json) => line.introduction_id)).toEqual([funded.introductionId]);
    const introductions = await db().introduction.findMany({ where: { projectId: partner.project.project_id }, orderBy: { id: "asc" } });
    expect(introductions.map((row) => [row.id, row.stage, row.sharePence, row.payoutId])).toEqual([
      [funded.introductionId, "funded", 5_000, payout!.id],
      [declined.introductionId, "declined", null, null],
      [referred.introductionId, "decisioned", null, null],
      [approved.introductionId, "decisioned", null, null],
    ]);
    expect(await runPayouts(partner.token)).toEqual([]);
  });

  it("lists a sub-account's accounts, and only its own, with GET /accounts?sub_account_id=", async () => {
    const partner = await betaPartner();
    const first = await newSubAccount(partner.tenant, undefined, "First");
    const second = await newSubAccount(partner.tenant, undefined, "Second");
    const a = await originate(partner.tenant, first.id);
    const b = await originate(partner.tenant, second.id);
    clock.advance(1_000);
    const c = await originate(partner.tenant, first.id, { product: "flex" });
    const ids = (data: Json[]) => data.map((account) => account.id);
    expect(ids((await get(partner.token, `/accounts?sub_account_id=${first.id}`)).data)).toEqual([c.accountId, a.accountId]);
    expect(ids((await get(partner.token, `/accounts?sub_account_id=${second.id}`)).data)).toEqual([b.accountId]);
    expect((await get(partner.token, `/accounts?sub_account_id=${first.id}&limit=1`)).has_more).toBe(true);
    expect((await get(partner.token, "/accounts")).data).toHaveLength(3);
    const stranger = await betaPartner();
    expect((await get(stranger.token, `/accounts?sub_account_id=${first.id}`)).data).toEqual([]);
  });
});

describe("the monthly run on the sandbox test clock", () => {
  it("pays the closed month's fundings as the clock passes the 1st, at the clock's time, and leaves the new month's for later", async () => {
    clock = freezeClock("2027-01-30T10:00:00.000Z");
    const partner = await betaPartner();
    const subAccount = await newSubAccount(partner.tenant, 100);
    const january = await originate(partner.tenant, subAccount.id, { amountPence: 1_500_000 });
    expect((await expectJson(await call("POST", "/test_helpers/clock/advance", { days: 1 }, { token: partner.token }), 200)).now).toBe("2027-01-31T10:00:00.000Z");
    expect((await get(partner.token, "/payouts")).data).toEqual([]);

    const advanced = await expectJson(await call("POST", "/test_helpers/clock/advance", { days: 2 }, { token: partner.token }), 200);
    expect(advanced).toMatchObject({ status: "ready", offset_days: 3, now: "2027-02-02T10:00:00.000Z" });
    const payouts = (await get(partner.token, "/payouts")).data;
    expect(payouts).toEqual([
      expect.objectContaining({ sub_account_id: subAccount.id, period: "2027-01", status: "paid", gross_pence: 15_000, introductions: 1, created_at: "2027-02-01T10:00:00.000Z", paid_at: "2027-02-01T10:00:00.000Z" }),
    ]);
    const payout = await expectReconciled(partner.token, payouts[0].id);
    expect(payout.statement).toEqual([expect.objectContaining({ introduction_id: january.introductionId, funded_at: "2027-01-30T10:00:00.000Z", principal_pence: 1_500_000 })]);
    expect((await get(partner.token, "/events?type=payout.paid")).data.map((event: Json) => [event.created_at, event.data.object])).toEqual([["2027-02-01T10:00:00.000Z", payouts[0]]]);

    // February's funding waits for February to close; the run now pays it for the current period.
    const february = await originate(partner.tenant, subAccount.id, { amountPence: 400_000 });
    await expectJson(await call("POST", "/test_helpers/clock/advance", { days: 1 }, { token: partner.token }), 200);
    expect((await get(partner.token, "/payouts")).data).toHaveLength(1);
    const [now] = await runPayouts(partner.token);
    expect(now).toMatchObject({ period: "2027-02", status: "paid", gross_pence: 4_000, introductions: 1, paid_at: "2027-02-03T10:00:00.000Z" });
    expect((await expectReconciled(partner.token, now!.id)).statement.map((line: Json) => line.introduction_id)).toEqual([february.introductionId]);
    // Passing March's 1st pays nothing twice.
    await expectJson(await call("POST", "/test_helpers/clock/advance", { days: 27 }, { token: partner.token }), 200);
    expect((await get(partner.token, "/payouts")).data.map((item: Json) => item.period)).toEqual(["2027-02", "2027-01"]);
  });
});

describe("listing and reading payouts", () => {
  let partner: TestPartner;
  let first: Json;
  let second: Json;
  let january: Json;
  let februaryFirst: Json;
  let februarySecond: Json;
  beforeAll(async () => {
    freezeClock("2027-01-25T10:00:00.000Z");
    partner = await betaPartner();
    first = await newSubAccount(partner.tenant, undefined, "First");
    second = await newSubAccount(partner.tenant, undefined, "Second");
    await originate(partner.tenant, first.id);
    january = (await runPayouts(partner.token))[0]!;
    freezeClock("2027-02-10T10:00:00.000Z");
    // A token lives an hour: a new one on the new day.
    partner = { ...partner, token: await mintToken(server.url, partner.project) };
    await originate(partner.tenant, first.id);
    await originate(partner.tenant, second.id);
    const february = await runPayouts(partner.token);
    expect(february).toHaveLength(2);
    februaryFirst = february[0]!;
    februarySecond = february[1]!;
  });

  const list = async (query: string) => (await get(partner.token, `/payouts${query}`)).data.map((payout: Json) => payout.id);

  it("lists newest first, filtered by status, sub-account and period, and pages", async () => {
    expect([january.sub_account_id, februaryFirst.sub_account_id, februarySecond.sub_account_id]).toEqual([first.id, first.id, second.id]);
    const all = await list("");
    expect(all).toHaveLength(3);
    expect(all[2]).toBe(january.id);
    expect(await list("?period=2027-01")).toEqual([january.id]);
    expect((await list("?period=2027-02")).sort()).toEqual([februaryFirst.id, februarySecond.id].sort());
    expect(await list("?period=2026-12")).toEqual([]);
    expect(await list(`?sub_account_id=${second.id}`)).toEqual([februarySecond.id]);
    expect(await list(`?sub_account_id=${first.id}&period=2027-02`)).toEqual([februaryFirst.id]);
    expect(await list("?status=paid")).toEqual(all);
    expect(await list("?status=pending")).toEqual([]);
    const page1 = await get(partner.token, "/payouts?limit=2");
    expect(page1).toMatchObject({ object: "list", has_more: true, url: "/partner/v1/payouts" });
    expect(page1.data.map((payout: Json) => payout.id)).toEqual(all.slice(0, 2));
    expect(await list(`?limit=2&starting_after=${all[1]}`)).toEqual([january.id]);
    expect(await list(`?limit=1&ending_before=${january.id}`)).toEqual([all[1]]);
  });

  it("answers bad filters, ids and queries with a clear 4xx, writing nothing", async () => {
    const before = await betaRows(partner.project.project_id);
    for (const period of ["2027-13", "2027-00", "2027-1", "202701", "27-01", "2027-01-01", "january"]) {
      const error = await expectApiError(await call("GET", `/payouts?period=${period}`, undefined, { token: partner.token }), 422, "validation_failed");
      expect(error.error.detail?.map((item) => item.field)).toEqual(["period"]);
    }
    const status = await expectApiError(await call("GET", "/payouts?status=failed", undefined, { token: partner.token }), 422, "validation_failed");
    expect(status.error.detail?.map((item) => item.field)).toEqual(["status"]);
    for (const id of ["nope", "acc_01jabc", "sub_UPPER"]) {
      const malformed = await expectApiError(await call("GET", `/payouts?sub_account_id=${id}`, undefined, { token: partner.token }), 422, "validation_failed");
      expect(malformed.error.detail?.map((item) => item.field)).toEqual(["sub_account_id"]);
    }
    await expectApiError(await call("GET", "/payouts?colour=red", undefined, { token: partner.token }), 400, "unknown_field");
    await expectApiError(await call("GET", "/payouts?starting_after=po_00000000000000000000000000", undefined, { token: partner.token }), 404, "not_found");
    for (const id of ["nope", "po_", "PO_01ABC", first.id, "po_00000000000000000000000000"]) {
      await expectApiError(await call("GET", `/payouts/${id}`, undefined, { token: partner.token }), 404, "not_found");
    }
    expect(await betaRows(partner.project.project_id)).toEqual(before);
  });

  it("needs accounts.read to read and accounts.manage to run, refusing without paying", async () => {
    const own = await betaPartner();
    const subAccount = await newSubAccount(own.tenant);
    await originate(own.tenant, subAccount.id);
    const reader = await mintToken(server.url, own.project, { scope: "accounts.read" });
    const refused = await call("POST", "/test_helpers/payouts/run", {}, { token: reader });
    await expectApiError(refused, 403, "insufficient_scope");
    expect(refused.headers.get("www-authenticate")).toContain('scope="accounts.manage"');
    expect((await betaRows(own.project.project_id)).payouts).toBe(0);
    const manager = await mintToken(server.url, own.project, { scope: "accounts.manage" });
    for (const path of ["/payouts", `/payouts/${january.id}`]) await expectApiError(await call("GET", path, undefined, { token: manager }), 403, "insufficient_scope");
    expect(await runPayouts(manager)).toHaveLength(1);
  });

  it("hides another project's payout (404) and refuses it to the other environment (401 environment_mismatch)", async () => {
    const stranger = await betaPartner();
    const body = await expectApiError(await call("GET", `/payouts/${january.id}`, undefined, { token: stranger.token }), 404, "not_found");
    expect(body.error.message).toBe(`No such payout: ${january.id}.`);
    expect((await get(stranger.token, "/payouts")).data).toEqual([]);
    expect((await get(stranger.token, `/payouts?sub_account_id=${first.id}`)).data).toEqual([]);
    // Another project's run pays nothing of this one's.
    await originate(partner.tenant, second.id);
    expect(await runPayouts(stranger.token)).toEqual([]);
    expect(await betaRows(stranger.project.project_id)).toEqual({ subAccounts: 0, introductions: 0, payouts: 0, applications: 0 });

    const live = await mintToken(server.url, partner.project, { environment: "live" });
    await expectApiError(await call("GET", `/payouts/${january.id}`, undefined, { token: live }), 401, "environment_mismatch");
    expect((await get(live, "/payouts")).data).toEqual([]);
  });

  it("keeps the run to the sandbox: a live token finds no such route (404 route_not_found), paying nothing", async () => {
    const before = await betaRows(partner.project.project_id);
    const live = await mintToken(server.url, partner.project, { environment: "live" });
    await expectApiError(await call("POST", "/test_helpers/payouts/run", {}, { token: live }), 404, "route_not_found");
    expect(await betaRows(partner.project.project_id)).toEqual(before);
  });

  it("replays a run under the same Idempotency-Key instead of running again", async () => {
    const own = await betaPartner();
    const subAccount = await newSubAccount(own.tenant);
    await originate(own.tenant, subAccount.id);
    const headers = { "idempotency-key": "run-1" };
    const first = await expectJson(await call("POST", "/test_helpers/payouts/run", {}, { token: own.token, headers }), 200);
    expect(first.data).toHaveLength(1);
    await originate(own.tenant, subAccount.id);
    const replay = await call("POST", "/test_helpers/payouts/run", {}, { token: own.token, headers });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await expectJson(replay, 200)).toEqual(first);
    expect((await betaRows(own.project.project_id)).payouts).toBe(1);
  });
});

describe("live payouts and the hourly sweep", () => {
  /** A live introduction funded at `fundedAt` (the live journey's identity and affordability checks are tested elsewhere). */
  async function liveFunding(tenant: Tenant, subAccount: Json, principalPence: number, fundedAt: string): Promise<string> {
    const at = new Date(fundedAt);
    const introduction = await db().introduction.create({
      data: {
        id: newId("introduction"),
        ...tenant,
        subAccountId: subAccount.id,
        applicationId: newId("application"),
        stage: "funded",
        accountId: newId("account"),
        revenueShareBps: subAccount.revenue_share_bps,
        principalPence,
        sharePence: revenueSharePence(principalPence, subAccount.revenue_share_bps),
        introducedAt: at,
        fundedAt: at,
        updatedAt: at,
      },
    });
    return introduction.id;
  }

  it("leaves a live payout pending, without payout.paid, and pays no introduction twice", async () => {
    clock = freezeClock("2027-03-15T12:00:00.000Z");
    const partner = await betaPartner({ environment: "live" });
    const subAccount = await newSubAccount(partner.tenant, 90);
    const introductionId = await liveFunding(partner.tenant, subAccount, 3_333_333, "2027-03-15T12:00:00.000Z");
    // Before the month closes there is nothing to pay.
    expect(await payOutRevenueShare.run(subAccount.id)).toBe(false);
    clock.set("2027-04-01T00:20:00.000Z");
    expect(await payOutRevenueShare.run(subAccount.id)).toBe(true);
    const token = await mintToken(server.url, partner.project, { environment: "live" });
    const read = (path: string) => get(token, path);
    const payouts = (await read("/payouts")).data;
    expect(payouts).toEqual([
      {
        id: expect.stringMatching(/^po_[0-9a-z]{26}$/),
        object: "payout",
        livemode: true,
        sub_account_id: subAccount.id,
        period: "2027-03",
        status: "pending",
        gross_pence: 29_999,
        introductions: 1,
        created_at: "2027-04-01T00:20:00.000Z",
        paid_at: null,
      },
    ]);
    expect((await read(`/payouts/${payouts[0].id}`)).statement.map((line: Json) => line.introduction_id)).toEqual([introductionId]);
    expect((await read("/payouts?status=pending")).data).toEqual(payouts);
    expect(await db().event.count({ where: { projectId: partner.project.project_id, type: "payout.paid" } })).toBe(0);

    expect(await payOutRevenueShare.run(subAccount.id)).toBe(false);
    const again = await db().$transaction((transaction) => payOutSubAccount(transaction, subAccount.id, { fundedBefore: new Date("2027-04-01T00:00:00.000Z"), now: clock.advance(1_000) }));
    expect(again).toEqual([]);
    expect((await betaRows(partner.project.project_id)).payouts).toBe(1);
  });

  it("pays each introduction once when runs overlap: test-helper runs and sweeps at the same moment make one payout", async () => {
    clock = freezeClock("2027-06-30T23:00:00.000Z");
    const partner = await betaPartner();
    const subAccount = await newSubAccount(partner.tenant);
    const fundings = [];
    for (const amountPence of [100_000, 250_000, 399_999]) fundings.push(await originate(partner.tenant, subAccount.id, { amountPence }));
    clock.set("2027-07-01T00:20:00.000Z");
    const token = await mintToken(server.url, partner.project);
    const outcomes = await Promise.all([
      call("POST", "/test_helpers/payouts/run", {}, { token }).then((response) => expectJson(response, 200)),
      payOutRevenueShare.run(subAccount.id),
      call("POST", "/test_helpers/payouts/run", {}, { token }).then((response) => expectJson(response, 200)),
      payOutRevenueShare.run(subAccount.id),
    ]);
    const made = [...(outcomes[0] as Json).data, ...(outcomes[2] as Json).data];
    expect(made.length + [outcomes[1], outcomes[3]].filter((paid) => paid === true).length).toBe(1);
    const payouts = (await get(token, "/payouts")).data;
    expect(payouts).toEqual([expect.objectContaining({ period: "2027-06", status: "paid", gross_pence: 1_000 + 2_500 + 3_999, introductions: 3 })]);
    const payout = await expectReconciled(token, payouts[0].id);
    expect(payout.statement.map((line: Json) => line.introduction_id).sort()).toEqual(fundings.map((funding) => funding.introductionId).sort());
    expect(await db().event.count({ where: { projectId: partner.project.project_id, type: "payout.paid" } })).toBe(1);
  });

  it("finds only the sub-accounts whose month has closed on their project's clock", async () => {
    clock = freezeClock("2027-04-29T12:00:00.000Z");
    const advanced = await betaPartner();
    expect((await expectJson(await call("POST", "/test_helpers/clock/advance", { days: 1 }, { token: advanced.token }), 200)).now).toBe("2027-04-30T12:00:00.000Z");
    const onRealTime = await betaPartner();
    const live = await betaPartner({ environment: "live" });
    const advancedSub = await newSubAccount(advanced.tenant);
    const realTimeSub = await newSubAccount(onRealTime.tenant);
    const liveSub = await newSubAccount(live.tenant);
    const idleSub = await newSubAccount(onRealTime.tenant, undefined, "Nothing funded");
    const declinedOnly = await newSubAccount(onRealTime.tenant, undefined, "Declined only");
    expect((await originate(advanced.tenant, advancedSub.id)).status).toBe("funded");
    expect((await originate(onRealTime.tenant, realTimeSub.id)).status).toBe("funded");
    expect((await originate(onRealTime.tenant, declinedOnly.id, { companyNumber: "12340001" })).status).toBe("declined");
    await liveFunding(live.tenant, liveSub, 1_000_000, "2027-04-29T12:00:00.000Z");
    const ours = new Set([advancedSub.id, realTimeSub.id, liveSub.id, idleSub.id, declinedOnly.id]);
    const due = async () => (await payOutRevenueShare.find(1_000)).filter((id) => ours.has(id));

    // Still April everywhere: nothing due.
    expect(await due()).toEqual([]);
    // An hour on, the advanced sandbox's clock reads 1 May; real time, and so the live project, is still in April.
    clock.set("2027-04-30T13:00:00.000Z");
    expect(await due()).toEqual([advancedSub.id]);
    // The health check's queue counts what the sweep finds.
    expect(await payOutRevenueShare.countDue()).toBe((await payOutRevenueShare.find(1_000)).length);
    expect(await payOutRevenueShare.run(realTimeSub.id)).toBe(false);
    expect(await payOutRevenueShare.run(advancedSub.id)).toBe(true);
    expect((await get(await mintToken(server.url, advanced.project), "/payouts")).data).toEqual([
      expect.objectContaining({ sub_account_id: advancedSub.id, period: "2027-04", status: "paid", created_at: "2027-05-01T13:00:00.000Z", paid_at: "2027-05-01T13:00:00.000Z" }),
    ]);
    expect(await due()).toEqual([]);

    // May on real time: the rest is due, and a run pays each once.
    clock.set("2027-05-01T00:20:00.000Z");
    expect(await due()).toEqual([realTimeSub.id, liveSub.id].sort());
    for (const id of await due()) expect(await payOutRevenueShare.run(id)).toBe(true);
    expect(await due()).toEqual([]);
    expect((await get(await mintToken(server.url, onRealTime.project), "/payouts")).data).toEqual([expect.objectContaining({ sub_account_id: realTimeSub.id, period: "2027-04", status: "paid", paid_at: "2027-05-01T00:20:00.000Z" })]);
    expect((await get(await mintToken(server.url, live.project, { environment: "live" }), "/payouts")).data).toEqual([expect.objectContaining({ sub_account_id: liveSub.id, period: "2027-04", status: "pending", paid_at: null })]);
    for (const id of ours) expect(await payOutRevenueShare.run(id)).toBe(false);
  });
});
