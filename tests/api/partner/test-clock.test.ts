// The sandbox test clock over HTTP (docs/sandbox.md, "Test clock"): each project's sandbox has its own clock;
// an advance runs everything due on the way (collections with their outcomes by company number, mandate
// revocation, arrears, application expiry) before it answers, stamps what it does with the project's time, and
// leaves other projects and the live environment on real time. The real clock is frozen in 2028. Every advance here answers once
// done (a long one's 202 and background run are test-clock-advancing.test.ts's).
process.env.SANDBOX_CLOCK_ANSWER_WITHIN_MS = "30000";

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { freezeClock, restoreClock } from "@/lib/clock";
import { db } from "@/lib/db";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError, expectJson, jsonRequest } from "../../helpers/http";
import { bearer, createTestProject, mintToken, untilDecided } from "../../helpers/partner";

const DAY_MS = 86_400_000;
/** Real time, frozen: a Monday morning whose first due date (one month on, 10 February) is 31 days away. */
const T0 = new Date("2028-01-10T10:00:00.000Z");
const at = (days: number) => new Date(T0.getTime() + days * DAY_MS).toISOString();

let server: AppServer;
let project: ProjectCredentials;
let token: string;

beforeAll(async () => {
  server = await startAppServer();
});
beforeEach(async () => {
  freezeClock(T0);
  project = await createTestProject();
  token = await mintToken(server.url, project);
});
afterAll(() => server?.close());

function call(method: string, path: string, body?: unknown, options: { token?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  const init = body === undefined ? { method, headers: options.headers ?? {} } : jsonRequest(method, body, options.headers);
  return fetch(`${server.url}/partner/v1${path}`, bearer(options.token ?? token, init));
}

async function advance(days: number, options: { token?: string; headers?: Record<string, string> } = {}) {
  return expectJson(await call("POST", "/test_helpers/clock/advance", { days }, options), 200);
}

async function createApplication(companyNumber: string, callerToken = token) {
  return expectJson(
    await call("POST", "/applications", { business: { company_number: companyNumber }, amount_pence: 1_200_000, term_months: 12, applicant: { email: "director@example.co.uk" } }, { token: callerToken }),
    201,
  );
}

/** Creates, submits, decides and funds a £12,000 term loan over 12 months; returns its account. */
async function fundedAccount(companyNumber: string) {
  const application = await createApplication(companyNumber);
  await expectJson(await call("POST", `/test_helpers/applications/${application.id}/submit`), 200);
  await untilDecided(application.id, async () => expectJson(await call("GET", `/applications/${application.id}`), 200));
  const funded = await expectJson(await call("POST", `/test_helpers/applications/${application.id}/fund`), 200);
  return expectJson(await call("GET", `/accounts/${funded.account_id}`), 200);
}

async function account(id: string) {
  return expectJson(await call("GET", `/accounts/${id}`), 200);
}

/** The project's sandbox events about `objectId` (its own, or a payment of it), oldest first. */
async function eventsAbout(objectId: string) {
  const rows = await db().event.findMany({ where: { projectId: project.project_id, environment: "sandbox" }, orderBy: { id: "asc" } });
  return rows
    .filter((row) => {
      const object = row.object as { id?: string; account_id?: string };
      return object.id === objectId || object.account_id === objectId;
    })
    .map((row) => ({ type: row.type, created_at: row.createdAt.toISOString(), object: row.object as Record<string, any> }));
}

describe("reading the clock", () => {
  it("starts at real time with no offset", async () => {
    const real = new Date();
    freezeClock(real);
    const clock = await expectJson(await call("GET", "/test_helpers/clock"), 200);
    expect(clock).toEqual({ object: "test_clock", livemode: false, now: real.toISOString(), offset_days: 0, status: "ready", target_offset_days: 0 });
  });

  it("follows real time when it is not frozen", async () => {
    restoreClock();
    const before = Date.now();
    const clock = await expectJson(await call("GET", "/test_helpers/clock"), 200);
    const after = Date.now();
    expect(Date.parse(clock.now)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(clock.now)).toBeLessThanOrEqual(after);
  });
});

describe("advancing the clock", () => {
  it("moves only this project's sandbox clock: another project and the live environment stay on real time", async () => {
    expect(await advance(10)).toEqual({ object: "test_clock", livemode: false, now: at(10), offset_days: 10, status: "ready", target_offset_days: 10 });
    expect(await expectJson(await call("GET", "/test_helpers/clock"), 200)).toMatchObject({ now: at(10), offset_days: 10 });
    expect(await advance(5)).toMatchObject({ now: at(15), offset_days: 15 });

    const sandbox = await createApplication("12345678");
    expect(sandbox).toMatchObject({ created_at: at(15), expires_at: at(29) });
    const stored = await db().event.findFirstOrThrow({ where: { type: "application.created", object: { path: ["id"], equals: sandbox.id } } });
    expect(stored.createdAt.toISOString()).toBe(at(15));

    const live = await createApplication("12345678", await mintToken(server.url, project, { environment: "live" }));
    expect(live).toMatchObject({ livemode: true, created_at: at(0), expires_at: at(14) });

    const other = await createTestProject();
    const otherToken = await mintToken(server.url, other);
    expect(await expectJson(await call("GET", "/test_helpers/clock", undefined, { token: otherToken }), 200)).toMatchObject({ now: at(0), offset_days: 0 });
    expect(await createApplication("12345678", otherToken)).toMatchObject({ created_at: at(0) });
  });

  it("collects instalments as they fall due: a normal account pays its first, one ending 0008 falls into arrears", async () => {
    const normal = await fundedAccount("12345678");
    const short = await fundedAccount("12340008");
    expect(normal.schedule[0].due_date).toBe("2028-02-10");

    expect(await advance(30)).toMatchObject({ offset_days: 30 });
    expect((await account(normal.id)).schedule[0].status).toBe("scheduled");
    expect((await account(short.id)).status).toBe("performing");

    await advance(2);
    const paid = await account(normal.id);
    expect(paid.status).toBe("performing");
    expect(paid.schedule[0]).toMatchObject({ status: "paid", due_date: "2028-02-10" });
    expect(paid.schedule[1].status).toBe("scheduled");
    expect(paid.balance.principal_outstanding_pence).toBe(1_200_000 - normal.schedule[0].principal_pence);
    // Interest accrues on the project's days: one day into the second period.
    expect(paid.balance.interest_accrued_pence).toBeGreaterThan(0);
    const ledger = await expectJson(await call("GET", `/accounts/${normal.id}/transactions`), 200);
    expect(ledger.data.map((row: { type: string; amount_pence: number; posted_at: string }) => [row.type, row.amount_pence, row.posted_at])).toEqual([
      ["collection", normal.schedule[0].amount_pence, at(31)],
      ["drawdown", -1_200_000, at(0)],
    ]);

    await advance(3);
    const behind = await account(short.id);
    expect(behind.status).toBe("in_arrears");
    expect(behind.balance.arrears_pence).toBe(short.schedule[0].amount_pence);
    expect(behind.schedule[0].status).toBe("missed");
    const events = await eventsAbout(short.id);
    const failed = events.filter((event) => event.type === "payment.failed");
    expect(failed.map((event) => event.object.failure_code)).toEqual(["insufficient_funds"]);
    const updated = events.filter((event) => event.type === "account.updated");
    expect(updated).toEqual([expect.objectContaining({ created_at: at(31), object: expect.objectContaining({ status: "in_arrears", balance: expect.objectContaining({ arrears_pence: short.schedule[0].amount_pence }) }) })]);
  });

  it("revokes a 0009 borrower's mandate before the first collection, and fails every collection mandate_cancelled", async () => {
    const revoking = await fundedAccount("12340009");
    await advance(60);
    const events = await eventsAbout(revoking.id);
    const relevant = events.filter((event) => ["mandate.revoked", "payment.failed"].includes(event.type));
    expect(relevant.map((event) => [event.type, event.object.failure_code ?? null, event.created_at])).toEqual([
      ["mandate.revoked", null, at(31)],
      ["payment.failed", "mandate_cancelled", at(31)],
      ["payment.failed", "mandate_cancelled", at(60)],
    ]);
    expect(relevant[0]!.object).toMatchObject({ object: "mandate", account_id: revoking.id, status: "revoked", revoked_at: at(31) });
    const now = await account(revoking.id);
    expect(now.status).toBe("in_arrears");
    expect(now.schedule.slice(0, 2).map((item: { status: string }) => item.status)).toEqual(["missed", "missed"]);
  });

  it("expires an application the applicant did not finish, at its expiry on the project's time", async () => {
    const application = await createApplication("12345678");
    expect(application.expires_at).toBe(at(14));
    await advance(13);
    expect((await expectJson(await call("GET", `/applications/${application.id}`), 200)).status).toBe("created");
    await advance(1);
    expect(await expectJson(await call("GET", `/applications/${application.id}`), 200)).toMatchObject({ status: "expired", expires_at: at(14) });
    const expired = (await eventsAbout(application.id)).filter((event) => event.type === "application.expired");
    expect(expired).toEqual([expect.objectContaining({ created_at: at(14), object: expect.objectContaining({ status: "expired" }) })]);
  });

  it("stamps the events of an advance with the project's time, while their ids stay in real-time order", async () => {
    const funded = await fundedAccount("12345678");
    await advance(31);
    const listed = await expectJson(await call("GET", "/events?type=payment.settled"), 200);
    const collection = listed.data.find((event: { data: { object: { type: string; account_id: string } } }) => event.data.object.type === "collection" && event.data.object.account_id === funded.id);
    expect(collection).toMatchObject({ created_at: at(31), data: { object: { status: "settled", settled_at: at(31), created_at: at(31) } } });
    const disbursement = listed.data.find((event: { data: { object: { type: string } } }) => event.data.object.type === "disbursement");
    expect(disbursement.created_at).toBe(at(0));
    // Ids carry real time, which was frozen: the list's order is the order events were recorded.
    expect(listed.data[0].id > listed.data[1].id).toBe(true);
  });

  it("adds up two advances of one project, and collects no instalment twice", async () => {
    const funded = await fundedAccount("12345678");
    await advance(1);
    expect(await advance(20)).toMatchObject({ now: at(21), offset_days: 21, status: "ready", target_offset_days: 21 });
    expect(await advance(20)).toMatchObject({ now: at(41), offset_days: 41, status: "ready", target_offset_days: 41 });
    expect(await expectJson(await call("GET", "/test_helpers/clock"), 200)).toMatchObject({ offset_days: 41 });
    const collections = await db().payment.findMany({ where: { accountId: funded.id, type: "collection" } });
    expect(collections.map((payment) => [payment.status, payment.amountPence, payment.createdAt.toISOString()])).toEqual([["settled", funded.schedule[0].amount_pence, at(31)]]);
    expect((await account(funded.id)).schedule.slice(0, 2).map((item: { status: string }) => item.status)).toEqual(["paid", "scheduled"]);
  });

  // Four hundred days of due work in one request: seconds alone, far more with other files beside it.
  it("sees a loan through its whole term in one advance of 400 days: every instalment collected, the account settled", async () => {
    const funded = await fundedAccount("12345678");
    expect(await advance(400)).toMatchObject({ now: at(400), offset_days: 400 });
    const settled = await account(funded.id);
    expect(settled).toMatchObject({ status: "settled", balance: { principal_outstanding_pence: 0, interest_accrued_pence: 0, arrears_pence: 0, payoff_pence: 0 } });
    expect(settled.schedule.map((item: { status: string }) => item.status)).toEqual(Array(12).fill("paid"));
    const collections = await db().payment.findMany({ where: { accountId: funded.id, type: "collection" }, orderBy: { id: "asc" } });
    // Each on its own due date, at the clock's time of day.
    expect(collections.map((payment) => payment.createdAt.toISOString().slice(0, 10))).toEqual(funded.schedule.map((item: { due_date: string }) => item.due_date));
    expect((await eventsAbout(funded.id)).filter((event) => event.type === "account.closed")).toHaveLength(1);
  }, 90_000);

  it("does not advance twice for a retried request with the same Idempotency-Key", async () => {
    const headers = { "idempotency-key": "advance-once" };
    expect(await advance(7, { headers })).toMatchObject({ offset_days: 7 });
    const retried = await call("POST", "/test_helpers/clock/advance", { days: 7 }, { headers });
    expect(retried.headers.get("idempotent-replayed")).toBe("true");
    expect(await expectJson(retried, 200)).toMatchObject({ offset_days: 7, now: at(7) });
    expect(await expectJson(await call("GET", "/test_helpers/clock"), 200)).toMatchObject({ offset_days: 7 });
  });
});

describe("what the clock refuses", () => {
  it.each([
    ["zero days", { days: 0 }],
    ["more than 400 days", { days: 401 }],
    ["a fraction of a day", { days: 1.5 }],
    ["days as a string", { days: "5" }],
    ["no days", {}],
  ])("answers 422 validation_failed on the days field for %s", async (_name, body) => {
    const refused = await expectApiError(await call("POST", "/test_helpers/clock/advance", body), 422, "validation_failed");
    expect(refused.error.detail).toEqual([expect.objectContaining({ field: "days" })]);
    expect(await expectJson(await call("GET", "/test_helpers/clock"), 200)).toMatchObject({ offset_days: 0 });
  });

  it("answers 400 unknown_field for a field it does not take", async () => {
    await expectApiError(await call("POST", "/test_helpers/clock/advance", { days: 1, hours: 2 }), 400, "unknown_field");
    expect(await expectJson(await call("GET", "/test_helpers/clock"), 200)).toMatchObject({ offset_days: 0 });
  });

  it("does not exist for a live token (404 route_not_found), and leaves the clock alone", async () => {
    const live = await mintToken(server.url, project, { environment: "live" });
    await expectApiError(await call("GET", "/test_helpers/clock", undefined, { token: live }), 404, "route_not_found");
    await expectApiError(await call("POST", "/test_helpers/clock/advance", { days: 1 }, { token: live }), 404, "route_not_found");
    expect(await db().sandboxClock.count({ where: { projectId: project.project_id } })).toBe(0);
  });

  it("needs applications:write (403 insufficient_scope)", async () => {
    const reader = await mintToken(server.url, project, { scope: "applications:read" });
    await expectApiError(await call("GET", "/test_helpers/clock", undefined, { token: reader }), 403, "insufficient_scope");
    await expectApiError(await call("POST", "/test_helpers/clock/advance", { days: 1 }, { token: reader }), 403, "insufficient_scope");
  });
});
