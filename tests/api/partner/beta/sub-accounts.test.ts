// Sub-accounts over HTTP (beta, spec 2.5, 4.3; docs/beta.md): creating one at or under the project's master rate,
// reading and listing them, Idempotency-Key, and every refusal of the beta routes: the `beta` capability, scopes,
// tenancy and environments, and bad bodies and ids, each writing nothing.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { changeProjectCapabilities } from "@/lib/projects/capabilities";
import { setMasterRevenueShare } from "@/lib/revenue-share/sub-accounts";
import { startAppServer, type AppServer } from "../../../helpers/app-server";
import { betaRows, partnerCaller, type Json } from "../../../helpers/beta";
import { expectApiError, expectJson } from "../../../helpers/http";
import { createTestPartner, mintToken, type TestPartner, type TokenOptions } from "../../../helpers/partner";

const T0 = "2027-04-14T09:30:00.000Z";

let server: AppServer;
let partner: TestPartner;
let call: ReturnType<typeof partnerCaller>;

beforeAll(async () => {
  server = await startAppServer();
  freezeClock(T0);
  partner = await createTestPartner(server.url, { capabilities: ["beta"] });
  call = partnerCaller(server.url, partner.token);
});
afterAll(() => server?.close());
beforeEach(() => {
  freezeClock(T0);
});

const betaPartner = (options: TokenOptions = {}) => createTestPartner(server.url, { capabilities: ["beta"], ...options });

async function createSubAccount(body: Json, options: { token?: string; key?: string } = {}): Promise<Json> {
  return expectJson(await call("POST", "/sub-accounts", body, { token: options.token, headers: options.key ? { "idempotency-key": options.key } : {} }), 201);
}

describe("creating a sub-account", () => {
  it("answers 201 with the sub-account at the master rate by default, and reads it back", async () => {
    const own = await betaPartner();
    const created = await createSubAccount({ name: "Northside Brokers" }, { token: own.token });
    expect(created).toEqual({
      id: expect.stringMatching(/^sub_[0-9a-z]{26}$/),
      object: "sub_account",
      livemode: false,
      name: "Northside Brokers",
      revenue_share_bps: 100,
      created_at: T0,
    });
    expect(await expectJson(await call("GET", `/sub-accounts/${created.id}`, undefined, { token: own.token }), 200)).toEqual(created);
    const stored = await db().subAccount.findUniqueOrThrow({ where: { id: created.id } });
    expect(stored).toMatchObject({ projectId: own.project.project_id, environment: "sandbox", name: "Northside Brokers", revenueShareBps: 100 });
  });

  it("takes a rate up to the master rate, 0 included, and trims the name", async () => {
    const own = await betaPartner();
    await setMasterRevenueShare(db(), own.project.project_id, 250);
    expect(await createSubAccount({ name: "  Marketplace  ", revenue_share_bps: 250 }, { token: own.token })).toMatchObject({ name: "Marketplace", revenue_share_bps: 250 });
    expect((await createSubAccount({ name: "Own channel", revenue_share_bps: 0 }, { token: own.token })).revenue_share_bps).toBe(0);
    expect((await createSubAccount({ name: "Default" }, { token: own.token })).revenue_share_bps).toBe(250);
    expect((await createSubAccount({ name: "x".repeat(100), revenue_share_bps: 1 }, { token: own.token })).name).toBe("x".repeat(100));
  });

  it("makes a live sub-account with a live token, apart from the sandbox's", async () => {
    const own = await betaPartner();
    const live = await mintToken(server.url, own.project, { environment: "live" });
    const created = await createSubAccount({ name: "Live broker" }, { token: live });
    expect(created).toMatchObject({ livemode: true, revenue_share_bps: 100 });
    expect((await expectJson(await call("GET", "/sub-accounts", undefined, { token: live }), 200)).data.map((item: Json) => item.id)).toEqual([created.id]);
    expect((await expectJson(await call("GET", "/sub-accounts", undefined, { token: own.token }), 200)).data).toEqual([]);
  });
});

describe("Idempotency-Key", () => {
  it("replays the same sub-account for the same key and body, with one row", async () => {
    const own = await betaPartner();
    const first = await call("POST", "/sub-accounts", { name: "Broker A", revenue_share_bps: 50 }, { token: own.token, headers: { "idempotency-key": "sub-a" } });
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const created = await expectJson(first, 201);
    const again = await call("POST", "/sub-accounts", { name: "Broker A", revenue_share_bps: 50 }, { token: own.token, headers: { "idempotency-key": "sub-a" } });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await expectJson(again, 201)).toEqual(created);
    expect((await betaRows(own.project.project_id)).subAccounts).toBe(1);
  });

  it("refuses the same key with another body: 409 idempotency_key_reused, writing nothing more", async () => {
    const own = await betaPartner();
    await createSubAccount({ name: "Broker B" }, { token: own.token, key: "sub-b" });
    await expectApiError(await call("POST", "/sub-accounts", { name: "Broker C" }, { token: own.token, headers: { "idempotency-key": "sub-b" } }), 409, "idempotency_key_reused");
    expect(await db().subAccount.findMany({ where: { projectId: own.project.project_id }, select: { name: true } })).toEqual([{ name: "Broker B" }]);
  });
});

describe("reading sub-accounts", () => {
  it("lists them newest first and pages with starting_after and ending_before", async () => {
    const own = await betaPartner();
    const ids: string[] = [];
    for (const name of ["One", "Two", "Three"]) ids.push((await createSubAccount({ name }, { token: own.token })).id);
    const [one, two, three] = ids;
    const page1 = await expectJson(await call("GET", "/sub-accounts?limit=2", undefined, { token: own.token }), 200);
    expect(page1).toMatchObject({ object: "list", has_more: true, url: "/partner/v1/sub-accounts" });
    expect(page1.data.map((item: Json) => item.name)).toEqual(["Three", "Two"]);
    expect(page1.data[0]).toEqual({ id: three, object: "sub_account", livemode: false, name: "Three", revenue_share_bps: 100, created_at: T0 });
    const page2 = await expectJson(await call("GET", `/sub-accounts?limit=2&starting_after=${two}`, undefined, { token: own.token }), 200);
    expect(page2).toMatchObject({ has_more: false, data: [{ id: one }] });
    const back = await expectJson(await call("GET", `/sub-accounts?limit=1&ending_before=${one}`, undefined, { token: own.token }), 200);
    expect(back.data.map((item: Json) => item.id)).toEqual([two]);
  });

  it("answers bad list queries with a clear 4xx", async () => {
    await expectApiError(await call("GET", "/sub-accounts?colour=red"), 400, "unknown_field");
    await expectApiError(await call("GET", "/sub-accounts?limit=0"), 422, "validation_failed");
    await expectApiError(await call("GET", "/sub-accounts?starting_after=sub_00000000000000000000000000"), 404, "not_found");
    await expectApiError(await call("GET", "/sub-accounts?starting_after=nope"), 404, "not_found");
  });

  it("answers a malformed or unknown id with 404 not_found", async () => {
    for (const id of ["nope", "sub_", "SUB_01ABC", "sub_01j-bad", "po_00000000000000000000000000", "sub_00000000000000000000000000"]) {
      await expectApiError(await call("GET", `/sub-accounts/${id}`), 404, "not_found");
    }
  });
});

describe("bad bodies", () => {
  it.each([
    ["a name missing", { revenue_share_bps: 10 }, "name"],
    ["an empty name", { name: "" }, "name"],
    ["a name of spaces", { name: "   " }, "name"],
    ["a name too long", { name: "x".repeat(101) }, "name"],
    ["a name not a string", { name: 42 }, "name"],
    ["a name null", { name: null }, "name"],
    ["a negative rate", { name: "Broker", revenue_share_bps: -1 }, "revenue_share_bps"],
    ["a fractional rate", { name: "Broker", revenue_share_bps: 12.5 }, "revenue_share_bps"],
    ["a rate as a string", { name: "Broker", revenue_share_bps: "50" }, "revenue_share_bps"],
    ["a rate above 10000", { name: "Broker", revenue_share_bps: 10_001 }, "revenue_share_bps"],
  ])("refuses %s with 422 validation_failed on the field, writing nothing", async (_what, body, field) => {
    const before = await betaRows(partner.project.project_id);
    const error = await expectApiError(await call("POST", "/sub-accounts", body), 422, "validation_failed");
    expect(error.error.detail?.map((item) => item.field)).toEqual([field]);
    expect(error.error.detail?.[0]?.message).toEqual(expect.any(String));
    expect(await betaRows(partner.project.project_id)).toEqual(before);
  });

  it("refuses an unknown field with 400 unknown_field, writing nothing", async () => {
    const before = await betaRows(partner.project.project_id);
    const error = await expectApiError(await call("POST", "/sub-accounts", { name: "Broker", colour: "red" }), 400, "unknown_field");
    expect(error.error.detail?.map(({ field, reason }) => ({ field, reason }))).toEqual([{ field: "colour", reason: "unknown_field" }]);
    expect(await betaRows(partner.project.project_id)).toEqual(before);
  });

  it("refuses a rate above the project's master rate: 422 above_master_rate, naming the rate", async () => {
    const own = await betaPartner();
    const error = await expectApiError(await call("POST", "/sub-accounts", { name: "Broker", revenue_share_bps: 101 }, { token: own.token }), 422, "validation_failed");
    expect(error.error.detail).toEqual([
      { field: "revenue_share_bps", reason: "above_master_rate", message: "revenue_share_bps may be at most the project's master rate, 100; leave it out to use that rate." },
    ]);
    await setMasterRevenueShare(db(), own.project.project_id, 40);
    const lowered = await expectApiError(await call("POST", "/sub-accounts", { name: "Broker", revenue_share_bps: 41 }, { token: own.token }), 422, "validation_failed");
    expect(lowered.error.detail?.[0]).toMatchObject({ field: "revenue_share_bps", reason: "above_master_rate" });
    expect((await betaRows(own.project.project_id)).subAccounts).toBe(0);
  });

  it("keeps a refused create under its Idempotency-Key, as every 4xx: the same body replays the 422, another is 409", async () => {
    const own = await betaPartner();
    const headers = { "idempotency-key": "sub-refused" };
    await expectApiError(await call("POST", "/sub-accounts", { name: "Broker", revenue_share_bps: 500 }, { token: own.token, headers }), 422, "validation_failed");
    const replayed = await call("POST", "/sub-accounts", { name: "Broker", revenue_share_bps: 500 }, { token: own.token, headers });
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect((await expectApiError(replayed, 422, "validation_failed")).error.detail?.[0]?.reason).toBe("above_master_rate");
    await expectApiError(await call("POST", "/sub-accounts", { name: "Broker", revenue_share_bps: 50 }, { token: own.token, headers }), 409, "idempotency_key_reused");
    expect((await betaRows(own.project.project_id)).subAccounts).toBe(0);
  });
});

describe("the beta capability", () => {
  it("answers every beta route 403 capability_denied without it, before reading the body, writing nothing", async () => {
    const owner = await betaPartner();
    const subAccount = await createSubAccount({ name: "Broker" }, { token: owner.token });
    const without = await createTestPartner(server.url);
    const routes: Array<[string, string, unknown?]> = [
      ["POST", "/sub-accounts", { name: "Broker" }],
      ["POST", "/sub-accounts", { nonsense: true }],
      ["GET", "/sub-accounts"],
      ["GET", `/sub-accounts/${subAccount.id}`],
      ["GET", "/sub-accounts/nope"],
      ["GET", "/introductions"],
      ["GET", "/introductions?stage=nowhere"],
      ["GET", "/payouts"],
      ["GET", "/payouts/po_00000000000000000000000000"],
      ["POST", "/test_helpers/payouts/run", {}],
    ];
    for (const [method, path, body] of routes) {
      const denied = await expectApiError(await call(method, path, body, { token: without.token }), 403, "capability_denied");
      expect(denied.error).toMatchObject({ type: "authentication_error", retryable: false });
      expect(denied.error.message).toContain("beta");
    }
    expect(await betaRows(without.project.project_id)).toEqual({ subAccounts: 0, introductions: 0, payouts: 0, applications: 0 });
  });

  it("answers once the capability is enabled, and 403 again once it is disabled", async () => {
    const own = await createTestPartner(server.url);
    await expectApiError(await call("GET", "/sub-accounts", undefined, { token: own.token }), 403, "capability_denied");
    await changeProjectCapabilities(db(), own.project.project_id, { enable: ["beta"] });
    const created = await createSubAccount({ name: "Broker" }, { token: own.token });
    await changeProjectCapabilities(db(), own.project.project_id, { disable: ["beta"] });
    await expectApiError(await call("GET", `/sub-accounts/${created.id}`, undefined, { token: own.token }), 403, "capability_denied");
    expect((await betaRows(own.project.project_id)).subAccounts).toBe(1);
  });
});

describe("scopes", () => {
  it("needs accounts.manage to create one, and accounts.read to read", async () => {
    const own = await betaPartner();
    const created = await createSubAccount({ name: "Broker" }, { token: own.token });
    const reader = await mintToken(server.url, own.project, { scope: "accounts.read" });
    const refused = await call("POST", "/sub-accounts", { name: "Another" }, { token: reader });
    const body = await expectApiError(refused, 403, "insufficient_scope");
    expect(body.error.message).toContain("accounts.manage");
    expect(refused.headers.get("www-authenticate")).toContain('scope="accounts.manage"');
    expect((await betaRows(own.project.project_id)).subAccounts).toBe(1);

    const manager = await mintToken(server.url, own.project, { scope: "accounts.manage applications:read" });
    for (const path of ["/sub-accounts", `/sub-accounts/${created.id}`]) {
      const unread = await call("GET", path, undefined, { token: manager });
      await expectApiError(unread, 403, "insufficient_scope");
      expect(unread.headers.get("www-authenticate")).toContain('scope="accounts.read"');
    }
    expect((await expectJson(await call("GET", `/sub-accounts/${created.id}`, undefined, { token: reader }), 200)).id).toBe(created.id);
  });
});

describe("tenancy and environments", () => {
  it("hides another project's sub-account (404) and refuses it to the other environment (401 environment_mismatch)", async () => {
    const owner = await betaPartner();
    const created = await createSubAccount({ name: "Broker" }, { token: owner.token });
    const stranger = await betaPartner();
    const body = await expectApiError(await call("GET", `/sub-accounts/${created.id}`, undefined, { token: stranger.token }), 404, "not_found");
    expect(body.error.message).toBe(`No such sub-account: ${created.id}.`);
    expect((await expectJson(await call("GET", "/sub-accounts", undefined, { token: stranger.token }), 200)).data).toEqual([]);
    await expectApiError(await call("GET", `/sub-accounts?starting_after=${created.id}`, undefined, { token: stranger.token }), 404, "not_found");

    const live = await mintToken(server.url, owner.project, { environment: "live" });
    await expectApiError(await call("GET", `/sub-accounts/${created.id}`, undefined, { token: live }), 401, "environment_mismatch");
    expect((await expectJson(await call("GET", "/sub-accounts", undefined, { token: live }), 200)).data).toEqual([]);
    expect(await betaRows(stranger.project.project_id)).toEqual({ subAccounts: 0, introductions: 0, payouts: 0, applications: 0 });
  });
});
