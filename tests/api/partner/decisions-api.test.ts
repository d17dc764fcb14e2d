// The decisions API (spec 4.4, 2.3) and the sandbox test helpers over HTTP: reading a decision with its offer
// terms, refreshing it (new version, its own decision.completed, the 1 req/s sub-limit, conflicts and the
// decision lock of spec 2.3), and driving applications through submit, expire, fund and resolve_referral.
// Every test has its own project (POST /applications is limited to 5/s per project) and a frozen clock, so
// timestamps, first repayment dates and rate-limit buckets are exact; decisioning runs in process right after
// the submit commits, and tests poll for it as an integrator would.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { DecisionLockError, lockDecision, releaseDecision } from "@/lib/decisions/service";
import { computeOfferTerms } from "@/lib/decisions/offer-terms";
import { aprBpsFor } from "@/lib/decisions/pricing-table";
import { newId } from "@/lib/ids";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError, jsonRequest, expectJson } from "../../helpers/http";
import { bearer, createTestProject, mintToken, untilDecided } from "../../helpers/partner";

/** The frozen instant every test starts at; the first repayment falls one calendar month later. */
const T0 = "2027-03-15T09:30:00.000Z";
const FIRST_REPAYMENT_DATE = "2027-04-15";
const DECISION_ID = /^dec_[0-9a-z]{26}$/;

const REASON_MESSAGES = {
  adverse_credit: "The business or its directors have adverse credit history.",
  affordability: "The repayments are not affordable on the business's turnover.",
} as const;

let server: AppServer;
let project: ProjectCredentials;
let token: string;
let clock: ReturnType<typeof freezeClock>;

beforeAll(async () => {
  server = await startAppServer();
});
// A project per test: its own rate-limit buckets, drained only under this test's frozen clock.
beforeEach(async () => {
  clock = freezeClock(T0);
  project = await createTestProject();
  token = await mintToken(server.url, project);
});
afterAll(() => server?.close());

const at = (offsetMs: number) => new Date(new Date(T0).getTime() + offsetMs).toISOString();

function call(method: string, path: string, body?: unknown, as: string = token): Promise<Response> {
  const init = body === undefined ? { method } : jsonRequest(method, body);
  return fetch(`${server.url}/partner/v1${path}`, bearer(as, init));
}

async function createApplication(companyNumber: string, extra: Record<string, unknown> = {}, as: string = token) {
  return expectJson(
    await call(
      "POST",
      "/applications",
      {
        business: { company_number: companyNumber },
        amount_pence: 5_000_000,
        term_months: 24,
        applicant: { email: "director@example.co.uk" },
        reference: `ref-${companyNumber}`,
        ...extra,
      },
      as,
    ),
    201,
  );
}

/** Reads the application over HTTP until it is decided, running its decisioning as the background driver would. */
async function waitForDecision(id: string, as: string = token) {
  return untilDecided(id, async () => expectJson(await call("GET", `/applications/${id}`, undefined, as), 200));
}

/** Creates an application, submits it through the test helper and returns it decided, with its decision. */
async function decidedApplication(companyNumber: string, extra: Record<string, unknown> = {}, as: string = token) {
  const created = await createApplication(companyNumber, extra, as);
  await expectJson(await call("POST", `/test_helpers/applications/${created.id}/submit`, undefined, as), 200);
  const application = await waitForDecision(created.id, as);
  const decision = await expectJson(await call("GET", `/decisions/${application.decision}`, undefined, as), 200);
  return { application, decision };
}

/** The project's event rows about one object (by its id, or the application it belongs to), oldest first. */
async function eventsAbout(objectId: string, projectId: string = project.project_id) {
  const rows = await db().event.findMany({ where: { projectId }, orderBy: { id: "asc" } });
  return rows.filter((row) => {
    const object = row.object as { id?: string; application_id?: string };
    return object.id === objectId || object.application_id === objectId;
  });
}

describe("GET /decisions/{id}", () => {
  it("returns an approved decision with its conditions and the offer terms the offer arithmetic gives", async () => {
    const { application, decision } = await decidedApplication("12345678", { amount_pence: 12_000_000, term_months: 36, reference: "loan-42" });

    // £100,000–£250,000 over 25–36 months is the 11% band of the published table.
    expect(aprBpsFor({ amountPence: 12_000_000, termMonths: 36 })).toBe(1100);
    const terms = computeOfferTerms({ principalPence: 12_000_000, aprBps: 1100, termMonths: 36, firstRepaymentDate: FIRST_REPAYMENT_DATE });
    expect(decision.id).toMatch(DECISION_ID);
    expect(decision).toEqual({
      id: application.decision,
      object: "decision",
      livemode: false,
      application_id: application.id,
      outcome: "approved",
      approved_amount_pence: 12_000_000,
      apr_bps: 1100,
      reference: "loan-42",
      version: 1,
      reasons: [],
      conditions: [{ code: "personal_guarantee", description: "A director's personal guarantee is required before funding." }],
      offer: {
        principal_pence: 12_000_000,
        apr_bps: 1100,
        term_months: 36,
        monthly_repayment_pence: terms.monthly_repayment_pence,
        total_repayable_pence: terms.total_repayable_pence,
        total_interest_pence: terms.total_interest_pence,
        first_repayment_date: FIRST_REPAYMENT_DATE,
        schedule_preview: terms.schedule.slice(0, 3),
      },
      locked: false,
      decided_at: T0,
      created_at: T0,
    });
    expect(decision.offer.total_repayable_pence).toBe(12_000_000 + decision.offer.total_interest_pence);
    expect(decision.offer.schedule_preview.map((row: { number: number; due_date: string }) => [row.number, row.due_date])).toEqual([
      [1, "2027-04-15"],
      [2, "2027-05-15"],
      [3, "2027-06-15"],
    ]);
  });

  it("returns a declined decision with structured reasons and no offer", async () => {
    const { application, decision } = await decidedApplication("12340001");
    expect(decision).toEqual({
      id: application.decision,
      object: "decision",
      livemode: false,
      application_id: application.id,
      outcome: "declined",
      approved_amount_pence: 0,
      apr_bps: 0,
      reference: "ref-12340001",
      version: 1,
      reasons: [{ code: "adverse_credit", message: REASON_MESSAGES.adverse_credit }],
      conditions: [],
      offer: null,
      locked: false,
      decided_at: T0,
      created_at: T0,
    });
  });

  it("answers 404 for another project's decision", async () => {
    const other = await createTestProject();
    const otherToken = await mintToken(server.url, other);
    const { decision } = await decidedApplication("12345678", {}, otherToken);

    const body = await expectApiError(await call("GET", `/decisions/${decision.id}`), 404, "not_found");
    expect(body.error).toMatchObject({ type: "invalid_request_error", message: `No such decision: ${decision.id}.`, retryable: false });
  });

  it("answers 404 for an unknown decision id", async () => {
    const unknown = newId("decision");
    const body = await expectApiError(await call("GET", `/decisions/${unknown}`), 404, "not_found");
    expect(body.error.message).toBe(`No such decision: ${unknown}.`);
  });

  it.each(["app_00000000000000000000000000", "not-a-decision"])("answers 404 for the malformed id %s", async (id) => {
    const body = await expectApiError(await call("GET", `/decisions/${id}`), 404, "not_found");
    expect(body.error).toMatchObject({ type: "invalid_request_error", message: "No such object.", retryable: false });
  });

  it("answers 403 insufficient_scope to a token without decisions:read", async () => {
    const { decision } = await decidedApplication("12345678");
    const readOnly = await mintToken(server.url, project, { scope: "applications:read" });
    const body = await expectApiError(await call("GET", `/decisions/${decision.id}`, undefined, readOnly), 403, "insufficient_scope");
    expect(body.error).toMatchObject({ type: "authentication_error", retryable: false });
  });
});

describe("POST /decisions/{id}/refresh", () => {
  it("re-decides an approved decision under the same id as version 2, with its own decision.completed", async () => {
    const { application, decision } = await decidedApplication("12345678");
    clock.advance(60_000);

    const refreshed = await expectJson(await call("POST", `/decisions/${decision.id}/refresh`), 200);
    expect(refreshed).toEqual({ ...decision, version: 2, decided_at: at(60_000) });
    expect(await expectJson(await call("GET", `/decisions/${decision.id}`), 200)).toEqual(refreshed);
    expect((await expectJson(await call("GET", `/applications/${application.id}`), 200)).status).toBe("approved");

    const completed = (await eventsAbout(decision.id)).filter((event) => event.type === "decision.completed");
    expect(completed.map((event) => event.createdAt.toISOString())).toEqual([T0, at(60_000)]);
    expect(completed[1]!.object).toEqual({
      id: decision.id,
      object: "decision",
      application_id: application.id,
      outcome: "approved",
      approved_amount_pence: 5_000_000,
      apr_bps: 1700,
      reference: "ref-12345678",
    });
  });

  it("allows one refresh a second per project: the second at once is 429 with Retry-After 1", async () => {
    const { decision } = await decidedApplication("12345678");

    expect((await expectJson(await call("POST", `/decisions/${decision.id}/refresh`), 200)).version).toBe(2);
    const refused = await call("POST", `/decisions/${decision.id}/refresh`);
    const body = await expectApiError(refused, 429, "rate_limited");
    expect(body.error).toMatchObject({ type: "rate_limit_error", retryable: true, retry_after_ms: 1000 });
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(refused.headers.get("ratelimit-policy")).toBe("1;w=1;burst=1");
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    // The refused refresh never reached the engine.
    expect((await expectJson(await call("GET", `/decisions/${decision.id}`), 200)).version).toBe(2);

    clock.advance(1_000);
    expect((await expectJson(await call("POST", `/decisions/${decision.id}/refresh`), 200)).version).toBe(3);
  });

  it("answers 409 conflict once the application is withdrawn", async () => {
    const { application, decision } = await decidedApplication("12345678");
    expect((await expectJson(await call("POST", `/applications/${application.id}/withdraw`), 200)).status).toBe("withdrawn");

    const body = await expectApiError(await call("POST", `/decisions/${decision.id}/refresh`), 409, "conflict");
    expect(body.error).toMatchObject({
      type: "invalid_request_error",
      message: "The application is withdrawn; its decision can no longer be refreshed.",
      retryable: false,
    });
    expect(await expectJson(await call("GET", `/decisions/${decision.id}`), 200)).toEqual(decision);
  });

  it("answers 423 decision_locked for a locked declined decision, and refreshes again once released", async () => {
    const { decision } = await decidedApplication("12340001");

    const locked = await lockDecision(decision.id, "ops@example.com", new Date(T0));
    expect(locked).toEqual({ ...decision, locked: true });
    expect(await db().decision.findUniqueOrThrow({ where: { id: decision.id } })).toMatchObject({ lockedBy: "ops@example.com", lockedAt: new Date(T0) });
    expect((await expectJson(await call("GET", `/decisions/${decision.id}`), 200)).locked).toBe(true);

    const body = await expectApiError(await call("POST", `/decisions/${decision.id}/refresh`), 423, "decision_locked");
    expect(body.error).toMatchObject({
      type: "invalid_request_error",
      message: `Decision ${decision.id} is locked; it cannot change until released.`,
      retryable: false,
    });
    expect((await eventsAbout(decision.id)).filter((event) => event.type === "decision.completed")).toHaveLength(1);

    expect(await releaseDecision(decision.id)).toEqual({ ...decision, locked: false });
    expect(await db().decision.findUniqueOrThrow({ where: { id: decision.id } })).toMatchObject({ lockedBy: null, lockedAt: null });
    // The refused refresh spent this second's refresh allowance.
    clock.advance(1_000);
    const refreshed = await expectJson(await call("POST", `/decisions/${decision.id}/refresh`), 200);
    expect(refreshed).toEqual({ ...decision, version: 2, locked: false, decided_at: at(1_000) });
  });

  it("refuses to lock an approved decision", async () => {
    const { decision } = await decidedApplication("12345678");
    const attempt = lockDecision(decision.id, "ops@example.com", new Date(T0));
    await expect(attempt).rejects.toThrow(DecisionLockError);
    await expect(attempt).rejects.toThrow(`Only a declined decision can be locked; ${decision.id} is approved`);
    expect((await expectJson(await call("GET", `/decisions/${decision.id}`), 200)).locked).toBe(false);
  });

  it("refuses to lock or release a decision that does not exist", async () => {
    const unknown = newId("decision");
    await expect(lockDecision(unknown, "ops@example.com", new Date(T0))).rejects.toThrow(new DecisionLockError(`No such decision: ${unknown}`));
    await expect(releaseDecision(unknown)).rejects.toThrow(new DecisionLockError(`No such decision: ${unknown}`));
  });

  it("answers 400 unknown_field for a body field, without spending the refresh allowance, and accepts {}", async () => {
    const { decision } = await decidedApplication("12345678");

    const body = await expectApiError(await call("POST", `/decisions/${decision.id}/refresh`, { force: true }), 400, "unknown_field");
    expect(body.error.detail).toEqual([{ field: "force", reason: "unknown_field", message: "Unknown field `force`: no fields are accepted here." }]);

    const refreshed = await expectJson(await call("POST", `/decisions/${decision.id}/refresh`, {}), 200);
    expect(refreshed).toMatchObject({ id: decision.id, version: 2, outcome: "approved" });
  });
});

describe("POST /test_helpers/applications/{id}/submit", () => {
  it("submits a created application, which is then decided shortly", async () => {
    const created = await createApplication("12345678");
    const submitted = await expectJson(await call("POST", `/test_helpers/applications/${created.id}/submit`), 200);
    expect(submitted).toEqual({ ...created, status: "submitted", submitted_at: T0 });

    const decided = await waitForDecision(created.id);
    expect(decided).toMatchObject({ id: created.id, status: "approved", submitted_at: T0 });
    expect(decided.decision).toMatch(DECISION_ID);
    expect((await eventsAbout(created.id)).map((event) => event.type)).toEqual(["application.created", "application.submitted", "decision.completed"]);
  });

  it("answers 409 conflict to a second submit and leaves the application as it was", async () => {
    const { application } = await decidedApplication("12345678");
    const body = await expectApiError(await call("POST", `/test_helpers/applications/${application.id}/submit`), 409, "conflict");
    expect(body.error).toMatchObject({ type: "invalid_request_error", message: "An application that is approved cannot be submitted.", retryable: false });
    expect(await expectJson(await call("GET", `/applications/${application.id}`), 200)).toEqual(application);
    expect((await eventsAbout(application.id)).filter((event) => event.type === "application.submitted")).toHaveLength(1);
  });

  it.each([5_000_000, 100_000_000_000])("records a declared annual turnover of %i pence", async (turnover) => {
    const created = await createApplication("12345678");
    const submitted = await expectJson(await call("POST", `/test_helpers/applications/${created.id}/submit`, { declared_annual_turnover_pence: turnover }), 200);
    expect(submitted.status).toBe("submitted");
    const row = await db().application.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.declaredAnnualTurnoverPence).toBe(BigInt(turnover));
    await waitForDecision(created.id);
  });

  it.each([
    ["a float", 5_000_000.5, "not_integer"],
    ["a string", "5000000", "invalid_type"],
    ["a negative number", -1, "too_small"],
    ["more than £1bn", 100_000_000_001, "too_large"],
  ])("answers 422 validation_failed to %s as the declared turnover", async (_label, value, reason) => {
    const created = await createApplication("12345678");
    const body = await expectApiError(
      await call("POST", `/test_helpers/applications/${created.id}/submit`, { declared_annual_turnover_pence: value }),
      422,
      "validation_failed",
    );
    expect(body.error.detail).toHaveLength(1);
    expect(body.error.detail![0]).toMatchObject({ field: "declared_annual_turnover_pence", reason });
    expect((await expectJson(await call("GET", `/applications/${created.id}`), 200)).status).toBe("created");
  });

  it("answers 400 unknown_field to a field it does not accept", async () => {
    const created = await createApplication("12345678");
    const body = await expectApiError(await call("POST", `/test_helpers/applications/${created.id}/submit`, { turnover: 5_000_000 }), 400, "unknown_field");
    expect(body.error.detail).toEqual([{ field: "turnover", reason: "unknown_field", message: "Unknown field `turnover`: the only field accepted here is declared_annual_turnover_pence." }]);
    expect((await expectJson(await call("GET", `/applications/${created.id}`), 200)).status).toBe("created");
  });
});

describe("POST /test_helpers/applications/{id}/expire", () => {
  it("expires a created application now, with application.expired", async () => {
    const created = await createApplication("12345678");
    clock.advance(5_000);
    const expired = await expectJson(await call("POST", `/test_helpers/applications/${created.id}/expire`), 200);
    expect(expired).toEqual({ ...created, status: "expired", expires_at: at(5_000) });

    const events = await eventsAbout(created.id);
    expect(events.map((event) => event.type)).toEqual(["application.created", "application.expired"]);
    expect(events[1]!.object).toEqual(expired);
    expect(events[1]!.createdAt.toISOString()).toBe(at(5_000));
  });

  it("answers 409 conflict for a submitted application", async () => {
    const created = await createApplication("12345678");
    // Submitted and not yet picked up by decisioning (the test server runs no sweeps).
    await db().application.update({ where: { id: created.id }, data: { status: "submitted", submittedAt: new Date(T0) } });

    const body = await expectApiError(await call("POST", `/test_helpers/applications/${created.id}/expire`), 409, "conflict");
    expect(body.error).toMatchObject({ type: "invalid_request_error", message: "An application that is submitted cannot be expired.", retryable: false });
    expect((await expectJson(await call("GET", `/applications/${created.id}`), 200)).status).toBe("submitted");
    expect((await eventsAbout(created.id)).map((event) => event.type)).toEqual(["application.created"]);
  });
});

describe("POST /test_helpers/applications/{id}/fund", () => {
  it("funds an approved application, with offer.accepted carrying the offer, then application.funded and account.activated", async () => {
    const { application, decision } = await decidedApplication("12345678");
    clock.advance(60_000);

    const funded = await expectJson(await call("POST", `/test_helpers/applications/${application.id}/fund`), 200);
    expect(funded).toEqual({ ...application, status: "funded", funded_at: at(60_000), account_id: expect.stringMatching(/^acc_[0-9a-z]{26}$/) });

    const events = await eventsAbout(application.id);
    expect(events.map((event) => event.type)).toEqual([
      "application.created",
      "application.submitted",
      "decision.completed",
      "offer.accepted",
      "application.funded",
      "account.activated",
    ]);
    expect(events[5]!.object).toMatchObject({ id: funded.account_id, object: "account", application_id: application.id });
    expect(events[3]!.object).toEqual({
      object: "offer",
      decision_id: decision.id,
      application_id: application.id,
      reference: "ref-12345678",
      ...decision.offer,
      accepted_at: at(60_000),
      signed: false,
    });
    expect(events[3]!.object).toMatchObject({
      principal_pence: 5_000_000,
      apr_bps: 1700,
      total_repayable_pence: decision.offer.total_repayable_pence,
      total_interest_pence: decision.offer.total_interest_pence,
    });
    expect(events[4]!.object).toEqual(funded);
  });

  it("answers 409 conflict for a created application", async () => {
    const created = await createApplication("12345678");
    const body = await expectApiError(await call("POST", `/test_helpers/applications/${created.id}/fund`), 409, "conflict");
    expect(body.error).toMatchObject({ type: "invalid_request_error", message: "An application that is created cannot be funded.", retryable: false });
    expect((await eventsAbout(created.id)).map((event) => event.type)).toEqual(["application.created"]);
  });
});

describe("POST /test_helpers/decisions/{id}/resolve_referral", () => {
  it("declines a referral for the reason given, and the application becomes declined", async () => {
    const { application, decision } = await decidedApplication("12340006");
    expect(application.status).toBe("in_review");
    expect(decision.outcome).toBe("referred");
    clock.advance(60_000);

    const resolved = await expectJson(
      await call("POST", `/test_helpers/decisions/${decision.id}/resolve_referral`, { outcome: "declined", reason: "adverse_credit" }),
      200,
    );
    expect(resolved).toEqual({
      ...decision,
      outcome: "declined",
      approved_amount_pence: 0,
      apr_bps: 0,
      version: 2,
      reasons: [{ code: "adverse_credit", message: REASON_MESSAGES.adverse_credit }],
      conditions: [],
      offer: null,
      decided_at: at(60_000),
    });
    expect((await expectJson(await call("GET", `/applications/${application.id}`), 200)).status).toBe("declined");
    expect((await eventsAbout(decision.id)).map((event) => event.type)).toEqual(["decision.completed", "decision.referred", "decision.completed"]);
  });

  it("declines for affordability when no reason is given", async () => {
    const { decision } = await decidedApplication("12340006");
    const resolved = await expectJson(await call("POST", `/test_helpers/decisions/${decision.id}/resolve_referral`, { outcome: "declined" }), 200);
    expect(resolved).toMatchObject({ outcome: "declined", version: 2, reasons: [{ code: "affordability", message: REASON_MESSAGES.affordability }], offer: null });
  });

  it.each([
    [
      "a reason with an approval",
      { outcome: "approved", reason: "affordability" },
      { field: "reason", reason: "not_allowed", message: "reason applies only to a declined outcome." },
    ],
    ["an outcome that is neither approved nor declined", { outcome: "maybe" }, { field: "outcome", reason: "invalid_value" }],
    ["a missing outcome", {}, { field: "outcome", reason: "required", message: "outcome is required." }],
  ])("answers 422 validation_failed to %s and leaves the referral open", async (_label, requestBody, detail) => {
    const { application, decision } = await decidedApplication("12340006");
    const body = await expectApiError(await call("POST", `/test_helpers/decisions/${decision.id}/resolve_referral`, requestBody), 422, "validation_failed");
    expect(body.error.detail).toHaveLength(1);
    expect(body.error.detail![0]).toMatchObject(detail);
    expect(await expectJson(await call("GET", `/decisions/${decision.id}`), 200)).toEqual(decision);
    expect((await expectJson(await call("GET", `/applications/${application.id}`), 200)).status).toBe("in_review");
  });

  it("answers 409 conflict for a decision that was not referred", async () => {
    const { decision } = await decidedApplication("12345678");
    const body = await expectApiError(await call("POST", `/test_helpers/decisions/${decision.id}/resolve_referral`, { outcome: "declined" }), 409, "conflict");
    expect(body.error).toMatchObject({
      type: "invalid_request_error",
      message: `Decision ${decision.id} is approved, not referred; only a referral can be resolved.`,
      retryable: false,
    });
    expect(await expectJson(await call("GET", `/decisions/${decision.id}`), 200)).toEqual(decision);
  });
});

describe("test helper access", () => {
  it("hides every test helper from a live token with 404 route_not_found", async () => {
    const { application, decision } = await decidedApplication("12340006");
    const live = await mintToken(server.url, project, { environment: "live" });
    const attempts: Array<[string, unknown]> = [
      [`/test_helpers/applications/${application.id}/submit`, undefined],
      [`/test_helpers/applications/${application.id}/expire`, undefined],
      [`/test_helpers/applications/${application.id}/fund`, undefined],
      [`/test_helpers/decisions/${decision.id}/resolve_referral`, { outcome: "approved" }],
    ];
    for (const [path, requestBody] of attempts) {
      const body = await expectApiError(await call("POST", path, requestBody, live), 404, "route_not_found");
      expect(body.error).toMatchObject({ type: "invalid_request_error", retryable: false });
    }
    expect(await expectJson(await call("GET", `/decisions/${decision.id}`), 200)).toEqual(decision);
  });

  it("answers 404 not_found to a sandbox token for another project's application or decision", async () => {
    const other = await createTestProject();
    const otherToken = await mintToken(server.url, other);
    const { application: referredApplication, decision } = await decidedApplication("12340006", {}, otherToken);
    const created = await createApplication("12345678", {}, otherToken);
    const attempts: Array<[string, unknown, string]> = [
      [`/test_helpers/applications/${created.id}/submit`, undefined, `No such application: ${created.id}.`],
      [`/test_helpers/applications/${created.id}/expire`, undefined, `No such application: ${created.id}.`],
      [`/test_helpers/applications/${referredApplication.id}/fund`, undefined, `No such application: ${referredApplication.id}.`],
      [`/test_helpers/decisions/${decision.id}/resolve_referral`, { outcome: "approved" }, `No such decision: ${decision.id}.`],
    ];
    for (const [path, requestBody, message] of attempts) {
      const body = await expectApiError(await call("POST", path, requestBody), 404, "not_found");
      expect(body.error.message).toBe(message);
    }
    expect((await expectJson(await call("GET", `/applications/${created.id}`, undefined, otherToken), 200)).status).toBe("created");
    expect(await expectJson(await call("GET", `/decisions/${decision.id}`, undefined, otherToken), 200)).toEqual(decision);
  });
});
