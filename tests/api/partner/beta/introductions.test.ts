// Introductions over HTTP (beta, spec 2.5, 3.3; docs/beta.md): an application created with `sub_account_id` makes
// its introduction, which follows the application row by row through docs/beta.md's table (started, decisioned,
// declined, funded) as the sandbox decides by the company number's last four digits (docs/sandbox.md); the list
// and its filters; and the refusals of `sub_account_id` at create, each writing nothing.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { changeProjectCapabilities } from "@/lib/projects/capabilities";
import { setMasterRevenueShare } from "@/lib/revenue-share/sub-accounts";
import { startAppServer, type AppServer } from "../../../helpers/app-server";
import { betaRows, partnerCaller, type Json } from "../../../helpers/beta";
import { expectApiError, expectJson } from "../../../helpers/http";
import { createTestPartner, mintToken, untilDecided, type TestPartner } from "../../../helpers/partner";

const T0 = "2027-05-10T08:00:00.000Z";

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

/** A project of its own with the beta capability and a sub-account at `bps` (the master rate raised to allow it). */
async function betaPartnerWithSubAccount(bps = 100): Promise<TestPartner & { subAccount: Json }> {
  const partner = await createTestPartner(server.url, { capabilities: ["beta"] });
  if (bps > 100) await setMasterRevenueShare(db(), partner.project.project_id, bps);
  const subAccount = await expectJson(await call("POST", "/sub-accounts", { name: "Northside Brokers", revenue_share_bps: bps }, { token: partner.token }), 201);
  return { ...partner, subAccount };
}

const applicationBody = (companyNumber: string, extra: Json = {}) => ({
  business: { company_number: companyNumber },
  amount_pence: 1_000_000,
  term_months: 12,
  applicant: { email: "director@example.co.uk" },
  ...extra,
});

/** POST /applications; a second passes first on the frozen clock, so a file's creates never meet the 5-a-second sub-limit. */
function postApplication(token: string, body: Json, headers: Record<string, string> = {}): Promise<Response> {
  clock.advance(1_000);
  return call("POST", "/applications", body, { token, headers });
}

async function introduce(partner: TestPartner & { subAccount: Json }, companyNumber: string, extra: Json = {}): Promise<Json> {
  return expectJson(await postApplication(partner.token, applicationBody(companyNumber, { sub_account_id: partner.subAccount.id, ...extra })), 201);
}

async function submitAndDecide(token: string, applicationId: string): Promise<Json> {
  await expectJson(await call("POST", `/test_helpers/applications/${applicationId}/submit`, undefined, { token }), 200);
  return untilDecided(applicationId, async () => expectJson(await call("GET", `/applications/${applicationId}`, undefined, { token }), 200));
}

async function introductionOf(token: string, applicationId: string): Promise<Json> {
  const list = await expectJson(await call("GET", "/introductions?limit=100", undefined, { token }), 200);
  const found = list.data.filter((item: Json) => item.application_id === applicationId);
  expect(found).toHaveLength(1);
  return found[0];
}

describe("originating an application through a sub-account", () => {
  it("attributes the application and makes its introduction, started, in the same request", async () => {
    const partner = await betaPartnerWithSubAccount();
    const application = await introduce(partner, "12345678");
    expect(application).toMatchObject({ object: "application", status: "created", sub_account_id: partner.subAccount.id });
    expect(application.introduction_id).toMatch(/^intro_[0-9a-z]{26}$/);
    const introductions = await expectJson(await call("GET", "/introductions", undefined, { token: partner.token }), 200);
    expect(introductions).toEqual({
      object: "list",
      has_more: false,
      url: "/partner/v1/introductions",
      data: [
        {
          id: application.introduction_id,
          object: "introduction",
          livemode: false,
          sub_account_id: partner.subAccount.id,
          application_id: application.id,
          stage: "started",
          account_id: null,
          revenue_share_bps: 100,
          principal_pence: null,
          share_pence: null,
          payout_id: null,
          introduced_at: application.created_at,
          funded_at: null,
        },
      ],
    });
    expect(await expectJson(await call("GET", `/applications/${application.id}`, undefined, { token: partner.token }), 200)).toMatchObject({
      sub_account_id: partner.subAccount.id,
      introduction_id: application.introduction_id,
    });
  });

  it("keeps an introduction_id sent without a sub-account as the partner's own attribution, making no introduction", async () => {
    const partner = await betaPartnerWithSubAccount();
    const application = await expectJson(await postApplication(partner.token, applicationBody("12345678", { introduction_id: "intro_crm42" })), 201);
    expect(application).toMatchObject({ introduction_id: "intro_crm42", sub_account_id: null });
    expect(await betaRows(partner.project.project_id)).toEqual({ subAccounts: 1, introductions: 0, payouts: 0, applications: 1 });
  });

  it("makes an introduction at the sub-account's rate when it was made, which the master rate's change does not rewrite", async () => {
    const partner = await betaPartnerWithSubAccount(300);
    const before = await introduce(partner, "12345678");
    await setMasterRevenueShare(db(), partner.project.project_id, 50);
    const after = await introduce(partner, "12345679");
    expect((await introductionOf(partner.token, before.id)).revenue_share_bps).toBe(300);
    expect((await introductionOf(partner.token, after.id)).revenue_share_bps).toBe(300);
  });
});

describe("sub_account_id refused at create, writing nothing", () => {
  it("is 403 capability_denied without the beta capability, while the same body without it is created", async () => {
    const owner = await betaPartnerWithSubAccount();
    const without = await createTestPartner(server.url);
    const denied = await expectApiError(await postApplication(without.token, applicationBody("12345678", { sub_account_id: owner.subAccount.id })), 403, "capability_denied");
    expect(denied.error.message).toContain("beta");
    await expectApiError(await postApplication(without.token, applicationBody("12345678", { sub_account_id: "sub_00000000000000000000000000" })), 403, "capability_denied");
    expect(await betaRows(without.project.project_id)).toEqual({ subAccounts: 0, introductions: 0, payouts: 0, applications: 0 });
    expect((await expectJson(await postApplication(without.token, applicationBody("12345678")), 201)).sub_account_id).toBeNull();
  });

  it("is 404 resource_not_found for another project's sub-account and for an unknown one", async () => {
    const owner = await betaPartnerWithSubAccount();
    const stranger = await betaPartnerWithSubAccount();
    for (const id of [owner.subAccount.id, "sub_00000000000000000000000000"]) {
      const error = await expectApiError(await postApplication(stranger.token, applicationBody("12345678", { sub_account_id: id })), 404, "resource_not_found");
      expect(error.error.message).toBe(`No such sub-account: ${id}.`);
      expect(error.error.detail?.map(({ field, reason }) => ({ field, reason }))).toEqual([{ field: "sub_account_id", reason: "not_found" }]);
    }
    expect(await betaRows(stranger.project.project_id)).toEqual({ subAccounts: 1, introductions: 0, payouts: 0, applications: 0 });
    expect(await betaRows(owner.project.project_id)).toEqual({ subAccounts: 1, introductions: 0, payouts: 0, applications: 0 });
  });

  it("is 401 environment_mismatch for the other environment's sub-account", async () => {
    const partner = await betaPartnerWithSubAccount();
    const live = await mintToken(server.url, partner.project, { environment: "live" });
    await expectApiError(await postApplication(live, applicationBody("12345678", { sub_account_id: partner.subAccount.id })), 401, "environment_mismatch");
    expect(await betaRows(partner.project.project_id)).toEqual({ subAccounts: 1, introductions: 0, payouts: 0, applications: 0 });
  });

  it("is 422 with both sub_account_id and introduction_id, and with a malformed sub_account_id", async () => {
    const partner = await betaPartnerWithSubAccount();
    const both = await expectApiError(
      await postApplication(partner.token, applicationBody("12345678", { sub_account_id: partner.subAccount.id, introduction_id: "intro_crm42" })),
      422,
      "validation_failed",
    );
    expect(both.error.detail?.map(({ field, reason }) => ({ field, reason }))).toEqual([{ field: "introduction_id", reason: "mutually_exclusive" }]);
    for (const id of ["nope", "acc_01jabc", "sub_UPPER", 42, ""]) {
      const malformed = await expectApiError(await postApplication(partner.token, applicationBody("12345678", { sub_account_id: id })), 422, "validation_failed");
      expect(malformed.error.detail?.map((item) => item.field)).toEqual(["sub_account_id"]);
    }
    expect(await betaRows(partner.project.project_id)).toEqual({ subAccounts: 1, introductions: 0, payouts: 0, applications: 0 });
  });

  it("stores the refusal under its Idempotency-Key, so a replay is refused the same way and nothing is made", async () => {
    const partner = await betaPartnerWithSubAccount();
    const stranger = await betaPartnerWithSubAccount();
    const body = applicationBody("12345678", { sub_account_id: partner.subAccount.id });
    await expectApiError(await postApplication(stranger.token, body, { "idempotency-key": "order-1" }), 404, "resource_not_found");
    const replay = await postApplication(stranger.token, body, { "idempotency-key": "order-1" });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    await expectApiError(replay, 404, "resource_not_found");
    expect(await betaRows(stranger.project.project_id)).toEqual({ subAccounts: 1, introductions: 0, payouts: 0, applications: 0 });
  });

  it("replays a create with its introduction for the same key and body: one application, one introduction", async () => {
    const partner = await betaPartnerWithSubAccount();
    const body = applicationBody("12345678", { sub_account_id: partner.subAccount.id });
    const created = await expectJson(await postApplication(partner.token, body, { "idempotency-key": "order-2" }), 201);
    const replay = await postApplication(partner.token, body, { "idempotency-key": "order-2" });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect((await expectJson(replay, 201)).introduction_id).toBe(created.introduction_id);
    expect(await betaRows(partner.project.project_id)).toEqual({ subAccounts: 1, introductions: 1, payouts: 0, applications: 1 });
  });
});

describe("the introduction follows its application", () => {
  it("approved (any ending that approves) → decisioned, then funded with its principal, share and account", async () => {
    const partner = await betaPartnerWithSubAccount(137);
    const application = await introduce(partner, "12345678", { amount_pence: 1_234_567 });
    const decided = await submitAndDecide(partner.token, application.id);
    expect(decided.status).toBe("approved");
    expect(await introductionOf(partner.token, application.id)).toMatchObject({ stage: "decisioned", account_id: null, principal_pence: null, share_pence: null, funded_at: null });

    const funded = await expectJson(await call("POST", `/test_helpers/applications/${application.id}/fund`, undefined, { token: partner.token }), 200);
    expect(funded.status).toBe("funded");
    const introduction = await introductionOf(partner.token, application.id);
    expect(introduction).toEqual({
      id: application.introduction_id,
      object: "introduction",
      livemode: false,
      sub_account_id: partner.subAccount.id,
      application_id: application.id,
      stage: "funded",
      account_id: funded.account_id,
      revenue_share_bps: 137,
      principal_pence: 1_234_567,
      // 1,234,567 × 137 ÷ 10,000 = 16,913.56: rounded down to the penny.
      share_pence: 16_913,
      payout_id: null,
      introduced_at: application.created_at,
      funded_at: funded.funded_at,
    });
    const account = await expectJson(await call("GET", `/accounts/${funded.account_id}`, undefined, { token: partner.token }), 200);
    expect(account).toMatchObject({ sub_account_id: partner.subAccount.id, principal_pence: 1_234_567 });
    // Funded is final: the application cannot be decided or funded again, and the introduction stays funded.
    await expectApiError(await call("POST", `/test_helpers/applications/${application.id}/fund`, undefined, { token: partner.token }), 409, "conflict");
    expect((await introductionOf(partner.token, application.id)).stage).toBe("funded");
  });

  it("approved with any ending that approves (…5678, 0007, 0008, 0009) → decisioned", async () => {
    const partner = await betaPartnerWithSubAccount();
    for (const companyNumber of ["12345678", "12340007", "12340008", "12340009"]) {
      const application = await introduce(partner, companyNumber);
      expect((await submitAndDecide(partner.token, application.id)).status).toBe("approved");
      expect((await introductionOf(partner.token, application.id)).stage).toBe("decisioned");
    }
  });

  it("approved for half (ending 0007) → decisioned, funded on the half it lent", async () => {
    const partner = await betaPartnerWithSubAccount();
    const application = await introduce(partner, "12340007", { amount_pence: 2_000_000 });
    expect((await submitAndDecide(partner.token, application.id)).status).toBe("approved");
    expect((await introductionOf(partner.token, application.id)).stage).toBe("decisioned");
    await expectJson(await call("POST", `/test_helpers/applications/${application.id}/fund`, undefined, { token: partner.token }), 200);
    expect(await introductionOf(partner.token, application.id)).toMatchObject({ stage: "funded", principal_pence: 1_000_000, share_pence: 10_000 });
  });

  it("a Flex facility earns on its limit, the principal made available when it opened", async () => {
    const partner = await betaPartnerWithSubAccount();
    const application = await introduce(partner, "12345678", { product: "flex", amount_pence: 750_050 });
    await submitAndDecide(partner.token, application.id);
    const funded = await expectJson(await call("POST", `/test_helpers/applications/${application.id}/fund`, undefined, { token: partner.token }), 200);
    expect(await introductionOf(partner.token, application.id)).toMatchObject({ stage: "funded", account_id: funded.account_id, principal_pence: 750_050, share_pence: 7_500 });
    // A drawdown later earns nothing more.
    await expectJson(await call("POST", `/accounts/${funded.account_id}/drawdowns`, { amount_pence: 100_000 }, { token: partner.token }), 201);
    expect(await introductionOf(partner.token, application.id)).toMatchObject({ principal_pence: 750_050, share_pence: 7_500 });
  });

  it("referred (ending 0006) → decisioned; the referral approved stays decisioned and funds", async () => {
    const partner = await betaPartnerWithSubAccount();
    const application = await introduce(partner, "12340006");
    const referred = await submitAndDecide(partner.token, application.id);
    expect(referred.status).toBe("in_review");
    const decisioned = await introductionOf(partner.token, application.id);
    expect(decisioned.stage).toBe("decisioned");
    const resolved = await expectJson(await call("POST", `/test_helpers/decisions/${referred.decision}/resolve_referral`, { outcome: "approved" }, { token: partner.token }), 200);
    expect(resolved.outcome).toBe("approved");
    // A move to the stage it is at changes nothing.
    expect(await introductionOf(partner.token, application.id)).toEqual(decisioned);
    await expectJson(await call("POST", `/test_helpers/applications/${application.id}/fund`, undefined, { token: partner.token }), 200);
    expect((await introductionOf(partner.token, application.id)).stage).toBe("funded");
  });

  it("referred (ending 0006) and then declined → declined, which cannot be funded", async () => {
    const partner = await betaPartnerWithSubAccount();
    const application = await introduce(partner, "12340006");
    const referred = await submitAndDecide(partner.token, application.id);
    await expectJson(await call("POST", `/test_helpers/decisions/${referred.decision}/resolve_referral`, { outcome: "declined" }, { token: partner.token }), 200);
    expect(await introductionOf(partner.token, application.id)).toMatchObject({ stage: "declined", account_id: null, share_pence: null });
    await expectApiError(await call("POST", `/test_helpers/applications/${application.id}/fund`, undefined, { token: partner.token }), 409, "conflict");
    expect((await introductionOf(partner.token, application.id)).stage).toBe("declined");
  });

  it.each([
    ["0001", "adverse_credit"],
    ["0005", "out_of_appetite"],
  ])("declined (ending %s, %s) → declined", async (ending) => {
    const partner = await betaPartnerWithSubAccount();
    const application = await introduce(partner, `1234${ending}`);
    expect((await submitAndDecide(partner.token, application.id)).status).toBe("declined");
    expect((await introductionOf(partner.token, application.id)).stage).toBe("declined");
  });

  it("expired (the test helper) → declined", async () => {
    const partner = await betaPartnerWithSubAccount();
    const application = await introduce(partner, "12345678");
    expect((await expectJson(await call("POST", `/test_helpers/applications/${application.id}/expire`, undefined, { token: partner.token }), 200)).status).toBe("expired");
    expect((await introductionOf(partner.token, application.id)).stage).toBe("declined");
  });

  it("withdrawn → declined, from started and from decisioned; a declined one withdrawn stays declined", async () => {
    const partner = await betaPartnerWithSubAccount();
    const started = await introduce(partner, "12345678");
    const approved = await introduce(partner, "12345679");
    const declined = await introduce(partner, "12340001");
    await submitAndDecide(partner.token, approved.id);
    await submitAndDecide(partner.token, declined.id);
    for (const application of [started, approved, declined]) {
      expect((await expectJson(await call("POST", `/applications/${application.id}/withdraw`, {}, { token: partner.token }), 200)).status).toBe("withdrawn");
      expect((await introductionOf(partner.token, application.id)).stage).toBe("declined");
    }
    await expectApiError(await call("POST", `/test_helpers/applications/${approved.id}/fund`, undefined, { token: partner.token }), 409, "conflict");
  });
});

describe("listing introductions", () => {
  let partner: TestPartner & { subAccount: Json };
  let second: Json;
  let ids: { started: string; decisioned: string; declined: string; other: string };
  beforeAll(async () => {
    clock = freezeClock(T0);
    partner = await betaPartnerWithSubAccount();
    second = await expectJson(await call("POST", "/sub-accounts", { name: "Second" }, { token: partner.token }), 201);
    const started = await introduce(partner, "12345678");
    const decisioned = await introduce(partner, "12345679");
    const declined = await introduce(partner, "12340001");
    const other = await introduce(partner, "12345680", { sub_account_id: second.id });
    await submitAndDecide(partner.token, decisioned.id);
    await submitAndDecide(partner.token, declined.id);
    ids = { started: started.introduction_id, decisioned: decisioned.introduction_id, declined: declined.introduction_id, other: other.introduction_id };
  });

  const list = async (query: string) => (await expectJson(await call("GET", `/introductions${query}`, undefined, { token: partner.token }), 200)).data.map((item: Json) => item.id);

  it("lists newest first, filtered by stage and by sub-account", async () => {
    expect(await list("")).toEqual([ids.other, ids.declined, ids.decisioned, ids.started]);
    expect(await list("?stage=started")).toEqual([ids.other, ids.started]);
    expect(await list("?stage=decisioned")).toEqual([ids.decisioned]);
    expect(await list("?stage=declined")).toEqual([ids.declined]);
    expect(await list("?stage=funded")).toEqual([]);
    expect(await list(`?sub_account_id=${partner.subAccount.id}`)).toEqual([ids.declined, ids.decisioned, ids.started]);
    expect(await list(`?sub_account_id=${second.id}&stage=started`)).toEqual([ids.other]);
    expect(await list(`?sub_account_id=${second.id}&stage=declined`)).toEqual([]);
    expect(await list("?sub_account_id=sub_00000000000000000000000000")).toEqual([]);
  });

  it("pages with starting_after and ending_before, keeping the filter", async () => {
    const page1 = await expectJson(await call("GET", `/introductions?sub_account_id=${partner.subAccount.id}&limit=2`, undefined, { token: partner.token }), 200);
    expect(page1).toMatchObject({ object: "list", has_more: true, url: "/partner/v1/introductions" });
    expect(page1.data.map((item: Json) => item.id)).toEqual([ids.declined, ids.decisioned]);
    expect(await list(`?sub_account_id=${partner.subAccount.id}&limit=2&starting_after=${ids.decisioned}`)).toEqual([ids.started]);
    expect(await list(`?limit=2&ending_before=${ids.started}`)).toEqual([ids.declined, ids.decisioned]);
    // A cursor outside the filter names nothing in it.
    await expectApiError(await call("GET", `/introductions?stage=declined&starting_after=${ids.started}`, undefined, { token: partner.token }), 404, "not_found");
  });

  it("answers a bad filter or cursor with a clear 4xx", async () => {
    const stage = await expectApiError(await call("GET", "/introductions?stage=approved", undefined, { token: partner.token }), 422, "validation_failed");
    expect(stage.error.detail?.map((item) => item.field)).toEqual(["stage"]);
    for (const id of ["nope", "acc_01jabc", "sub_UPPER", ""]) {
      const malformed = await expectApiError(await call("GET", `/introductions?sub_account_id=${id}`, undefined, { token: partner.token }), 422, "validation_failed");
      expect(malformed.error.detail?.map((item) => item.field)).toEqual(["sub_account_id"]);
    }
    await expectApiError(await call("GET", "/introductions?colour=red", undefined, { token: partner.token }), 400, "unknown_field");
    await expectApiError(await call("GET", "/introductions?limit=101", undefined, { token: partner.token }), 422, "validation_failed");
    await expectApiError(await call("GET", "/introductions?starting_after=intro_00000000000000000000000000", undefined, { token: partner.token }), 404, "not_found");
  });

  it("needs accounts.read, and shows nothing to another project or the other environment", async () => {
    const writer = await mintToken(server.url, partner.project, { scope: "accounts.manage apply:write" });
    const refused = await call("GET", "/introductions", undefined, { token: writer });
    await expectApiError(refused, 403, "insufficient_scope");
    expect(refused.headers.get("www-authenticate")).toContain('scope="accounts.read"');
    const stranger = await createTestPartner(server.url, { capabilities: ["beta"] });
    expect((await expectJson(await call("GET", "/introductions", undefined, { token: stranger.token }), 200)).data).toEqual([]);
    expect((await expectJson(await call("GET", `/introductions?sub_account_id=${partner.subAccount.id}`, undefined, { token: stranger.token }), 200)).data).toEqual([]);
    await expectApiError(await call("GET", `/introductions?starting_after=${ids.started}`, undefined, { token: stranger.token }), 404, "not_found");
    const live = await mintToken(server.url, partner.project, { environment: "live" });
    expect((await expectJson(await call("GET", "/introductions", undefined, { token: live }), 200)).data).toEqual([]);
  });

  it("goes with the capability: 403 once beta is disabled", async () => {
    const own = await betaPartnerWithSubAccount();
    await changeProjectCapabilities(db(), own.project.project_id, { disable: ["beta"] });
    await expectApiError(await call("GET", "/introductions", undefined, { token: own.token }), 403, "capability_denied");
  });
});
