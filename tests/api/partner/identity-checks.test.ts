// Identity checks over HTTP (spec 4.4, 6.2, 7; docs/identity.md): the sandbox provider's outcomes and their
// events, the white_label capability gate, scopes, the 5/s sub-limit, Idempotency-Key, tenancy and environments,
// which application statuses take a check, and every kind of bad input. The clock is frozen in 2027, so the dates
// of birth are plausible ages.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { createApplication } from "@/lib/applications/create";
import { submitApplication, withdrawApplication } from "@/lib/applications/service";
import { db } from "@/lib/db";
import { decideOnItsClock } from "@/lib/decisions/background";
import { changeProjectCapabilities } from "@/lib/projects/capabilities";
import type { Tenant } from "@/lib/tenant";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { runCli } from "../../helpers/cli";
import { expectApiError, expectJson, jsonRequest, type ErrorBody } from "../../helpers/http";
import { bearer, createTestPartner, mintToken, type TestPartner, type TokenOptions } from "../../helpers/partner";
import { verificationEventOf } from "../../helpers/identity";
import { tenantNow } from "@/lib/tenant-clock";

type Json = Record<string, any>;

const T0 = "2027-06-15T10:00:00.000Z";

let server: AppServer;
beforeAll(async () => {
  server = await startAppServer();
});
afterAll(() => server?.close());
beforeEach(() => {
  freezeClock(T0);
});

/** A project of its own (its own sub-limit bucket), with the white_label capability unless told otherwise. */
function newPartner({ whiteLabel = true, ...options }: TokenOptions & { whiteLabel?: boolean } = {}): Promise<TestPartner> {
  return createTestPartner(server.url, { ...options, capabilities: whiteLabel ? ["white_label"] : [] });
}

async function openApplication(tenant: Tenant, companyNumber = "12345678", reference?: string): Promise<string> {
  const application = await createApplication({
    tenant, now: await tenantNow(tenant),
    input: { business: { company_number: companyNumber }, amount_pence: 500_000, term_months: 12, applicant: { email: "director@example.co.uk" }, reference },
  });
  return application.id;
}

const ADA = { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1989-12-10", role: "director" };
const GRACE = { first_name: "Grace", last_name: "Hopper", date_of_birth: "1984-12-09", role: "psc" };
const REVIEWED = { first_name: "Alan", last_name: "Review", date_of_birth: "1990-06-23", role: "director" };
const UNVERIFIED = { first_name: "Mallory", last_name: "Unverified", date_of_birth: "1988-01-31", role: "psc" };

function postCheck(token: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}/partner/v1/identity/checks`, bearer(token, jsonRequest("POST", body, headers)));
}

function getCheck(token: string, id: string): Promise<Response> {
  return fetch(`${server.url}/partner/v1/identity/checks/${id}`, bearer(token));
}

const checkCount = (projectId: string) => db().identityCheck.count({ where: { projectId } });
const identityEvents = (projectId: string) => db().event.findMany({ where: { projectId, type: { startsWith: "identity." } }, orderBy: { id: "asc" } });

describe("outcomes in the sandbox", () => {
  it("verifies a check whose people are all verified, fires identity.verified, and reads it back", async () => {
    const partner = await newPartner();
    const applicationId = await openApplication(partner.tenant, "12345678", "order-7");
    const check = await expectJson<Json>(await postCheck(partner.token, { application_id: applicationId, people: [ADA, GRACE] }), 201);
    expect(check).toEqual({
      id: expect.stringMatching(/^idv_[0-9a-z]{26}$/),
      object: "verification",
      livemode: false,
      application_id: applicationId,
      reference: "order-7",
      status: "verified",
      results: [
        { role: ADA.role, result: "verified" },
        { role: GRACE.role, result: "verified" },
      ],
      people: [
        { ...ADA, result: "verified" },
        { ...GRACE, result: "verified" },
      ],
      created_at: T0,
    });

    expect(await expectJson(await getCheck(partner.token, check.id), 200)).toEqual(check);
    const events = await identityEvents(partner.project.project_id);
    expect(events.map((event) => [event.type, event.environment, event.object])).toEqual([["identity.verified", "sandbox", verificationEventOf(check)]]);
    const stored = await db().identityCheck.findUniqueOrThrow({ where: { id: check.id } });
    expect(stored).toMatchObject({ provider: "sandbox", providerReference: null, status: "verified", applicationId });
  });

  it("refers the whole check to review when one person's last name is Review, and says who", async () => {
    const partner = await newPartner();
    const applicationId = await openApplication(partner.tenant);
    const check = await expectJson<Json>(await postCheck(partner.token, { application_id: applicationId, people: [ADA, REVIEWED, GRACE] }), 201);
    expect(check.status).toBe("review_required");
    expect(check.people.map((person: Json) => [person.last_name, person.result])).toEqual([
      ["Lovelace", "verified"],
      ["Review", "review_required"],
      ["Hopper", "verified"],
    ]);
    const events = await identityEvents(partner.project.project_id);
    expect(events.map((event) => [event.type, event.object])).toEqual([["identity.review_required", verificationEventOf(check)]]);
  });

  it("fails the whole check when one person's last name is Unverified, over another's review, and fires identity.failed", async () => {
    const partner = await newPartner();
    const applicationId = await openApplication(partner.tenant);
    const check = await expectJson<Json>(await postCheck(partner.token, { application_id: applicationId, people: [REVIEWED, UNVERIFIED, ADA] }), 201);
    expect(check.status).toBe("failed");
    expect(check.people.map((person: Json) => [person.last_name, person.result])).toEqual([
      ["Review", "review_required"],
      ["Unverified", "failed"],
      ["Lovelace", "verified"],
    ]);
    const events = await identityEvents(partner.project.project_id);
    expect(events.map((event) => [event.type, event.object])).toEqual([["identity.failed", verificationEventOf(check)]]);
  });

  it("matches Review and Unverified exactly: other spellings are verified", async () => {
    const partner = await newPartner();
    const applicationId = await openApplication(partner.tenant);
    const people = [{ ...ADA, last_name: "review" }, { ...ADA, last_name: "Reviewer" }, { ...ADA, last_name: "unverified" }, { ...ADA, last_name: "Unverifiable" }];
    const check = await expectJson<Json>(await postCheck(partner.token, { application_id: applicationId, people }), 201);
    expect(check.status).toBe("verified");
  });

  it("trims names and keeps each check of an application", async () => {
    const partner = await newPartner();
    const applicationId = await openApplication(partner.tenant);
    const first = await expectJson<Json>(await postCheck(partner.token, { application_id: applicationId, people: [REVIEWED] }), 201);
    const second = await expectJson<Json>(await postCheck(partner.token, { application_id: applicationId, people: [{ ...REVIEWED, first_name: "  Alan ", last_name: " Turing" }] }), 201);
    expect(second.people[0]).toMatchObject({ first_name: "Alan", last_name: "Turing", result: "verified" });
    expect(second.id).not.toBe(first.id);
    expect((await identityEvents(partner.project.project_id)).map((event) => event.type)).toEqual(["identity.review_required", "identity.verified"]);
  });
});

describe("the white_label capability", () => {
  const cli = (...args: string[]) => runCli({}, "project", "capability", ...args);

  it("answers 403 capability_denied before `project capability --enable white_label`, 201 after, and 403 again after --disable", async () => {
    const partner = await newPartner({ whiteLabel: false });
    const applicationId = await openApplication(partner.tenant);
    const body = { application_id: applicationId, people: [ADA] };

    const denied = await expectApiError(await postCheck(partner.token, body), 403, "capability_denied");
    expect(denied.error.type).toBe("authentication_error");
    expect(denied.error.retryable).toBe(false);
    expect(denied.error.message).toContain("white_label");
    expect(denied.error.message).toContain("handoff_url");
    expect(await checkCount(partner.project.project_id)).toBe(0);

    expect(await cli(partner.project.project_id, "--enable", "white_label")).toMatchObject({ code: 0 });
    const check = await expectJson<Json>(await postCheck(partner.token, body), 201);
    expect(check.status).toBe("verified");

    expect(await cli(partner.project.project_id, "--disable", "white_label")).toMatchObject({ code: 0 });
    await expectApiError(await postCheck(partner.token, body), 403, "capability_denied");
    await expectApiError(await getCheck(partner.token, check.id), 403, "capability_denied");
    expect(await checkCount(partner.project.project_id)).toBe(1);
  });

  it("is checked before the body is read: a bad body from a project without it is still 403", async () => {
    const partner = await newPartner({ whiteLabel: false });
    await expectApiError(await postCheck(partner.token, { nonsense: true }), 403, "capability_denied");
  });

  it("is not kept under an Idempotency-Key: the same key works once the capability is enabled", async () => {
    const partner = await newPartner({ whiteLabel: false });
    const body = { application_id: await openApplication(partner.tenant), people: [ADA] };
    const headers = { "idempotency-key": "check-once" };
    await expectApiError(await postCheck(partner.token, body, headers), 403, "capability_denied");
    await changeProjectCapabilities(db(), partner.project.project_id, { enable: ["white_label"] });
    const created = await postCheck(partner.token, body, headers);
    expect(created.headers.get("idempotent-replayed")).toBeNull();
    expect((await expectJson<Json>(created, 201)).status).toBe("verified");
  });

  it("does not come with beta alone", async () => {
    const partner = await newPartner({ whiteLabel: false });
    await changeProjectCapabilities(db(), partner.project.project_id, { enable: ["beta"] });
    await expectApiError(await postCheck(partner.token, { application_id: await openApplication(partner.tenant), people: [ADA] }), 403, "capability_denied");
  });
});

describe("scopes", () => {
  it("needs identity:write to run a check", async () => {
    const partner = await newPartner({ scope: "identity:read applications:read" });
    const refused = await postCheck(partner.token, { application_id: await openApplication(partner.tenant), people: [ADA] });
    const body = await expectApiError(refused, 403, "insufficient_scope");
    expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="partner", error="insufficient_scope", scope="identity:write"');
    expect(body.error.message).toContain("identity:write");
    expect(await checkCount(partner.project.project_id)).toBe(0);
  });

  it("needs identity:read to read one", async () => {
    const partner = await newPartner();
    const check = await expectJson<Json>(await postCheck(partner.token, { application_id: await openApplication(partner.tenant), people: [ADA] }), 201);
    const writer = await mintToken(server.url, partner.project, { scope: "identity:write" });
    const refused = await getCheck(writer, check.id);
    await expectApiError(refused, 403, "insufficient_scope");
    expect(refused.headers.get("www-authenticate")).toContain('scope="identity:read"');
    const reader = await mintToken(server.url, partner.project, { scope: "identity:read" });
    expect((await expectJson<Json>(await getCheck(reader, check.id), 200)).id).toBe(check.id);
  });
});

describe("the sub-limit", () => {
  it("allows 5 checks a second per project, answers the 6th with 429, and refills", async () => {
    const clock = freezeClock(T0);
    const partner = await newPartner();
    // An application of its own for each check: an application takes at most three a day (tests/api/partner/identity-checks-live.test.ts).
    const bodies = [];
    for (let index = 0; index < 7; index += 1) bodies.push({ application_id: await openApplication(partner.tenant), people: [ADA] });
    const statuses = [];
    for (let index = 0; index < 5; index += 1) statuses.push((await postCheck(partner.token, bodies[index])).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201]);
    const refused = await postCheck(partner.token, bodies[5]);
    const error = await expectApiError(refused, 429, "rate_limited");
    expect(error.error.retryable).toBe(true);
    expect(refused.headers.get("ratelimit-policy")).toBe("5;w=1;burst=5");
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(await checkCount(partner.project.project_id)).toBe(5);

    // Another project's bucket is its own.
    const other = await newPartner();
    expect((await postCheck(other.token, { application_id: await openApplication(other.tenant), people: [ADA] })).status).toBe(201);

    clock.advance(1_000);
    expect((await postCheck(partner.token, bodies[6])).status).toBe(201);
  });

  it("is not spent by a request that fails validation", async () => {
    const partner = await newPartner();
    for (let index = 0; index < 6; index += 1) expect((await postCheck(partner.token, { application_id: "app_1", people: [] })).status).toBe(422);
    expect((await postCheck(partner.token, { application_id: await openApplication(partner.tenant), people: [ADA] })).status).toBe(201);
  });
});

describe("Idempotency-Key", () => {
  it("replays the first check for the same key and body, without a second check or event", async () => {
    const partner = await newPartner();
    const body = { application_id: await openApplication(partner.tenant), people: [ADA, REVIEWED] };
    const headers = { "idempotency-key": "identity-42" };
    const first = await expectJson<Json>(await postCheck(partner.token, body, headers), 201);
    const again = await postCheck(partner.token, body, headers);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await expectJson(again, 201)).toEqual(first);
    expect(await checkCount(partner.project.project_id)).toBe(1);
    expect((await identityEvents(partner.project.project_id)).map((event) => event.type)).toEqual(["identity.review_required"]);
  });

  it("refuses the same key with another body: 409 idempotency_key_reused", async () => {
    const partner = await newPartner();
    const applicationId = await openApplication(partner.tenant);
    const headers = { "idempotency-key": "identity-43" };
    await expectJson(await postCheck(partner.token, { application_id: applicationId, people: [ADA] }, headers), 201);
    await expectApiError(await postCheck(partner.token, { application_id: applicationId, people: [GRACE] }, headers), 409, "idempotency_key_reused");
    expect(await checkCount(partner.project.project_id)).toBe(1);
  });
});

describe("tenancy and environments", () => {
  it("answers 404 resource_not_found on application_id for another project's application, and for none", async () => {
    const partner = await newPartner();
    const stranger = await newPartner();
    const theirs = await openApplication(stranger.tenant);
    for (const applicationId of [theirs, "app_01jzzzzzzzzzzzzzzzzzzzzzzz"]) {
      const body = await expectApiError(await postCheck(partner.token, { application_id: applicationId, people: [ADA] }), 404, "resource_not_found");
      expect(body.error.message).toBe(`No such application: ${applicationId}.`);
      expect(body.error.detail?.map(({ field, reason }) => ({ field, reason }))).toEqual([{ field: "application_id", reason: "not_found" }]);
    }
    expect(await checkCount(partner.project.project_id)).toBe(0);
    expect(await db().identityCheck.count({ where: { applicationId: theirs } })).toBe(0);
  });

  it("answers 404 not_found for another project's check, and for an unknown one", async () => {
    const owner = await newPartner();
    const check = await expectJson<Json>(await postCheck(owner.token, { application_id: await openApplication(owner.tenant), people: [ADA] }), 201);
    const stranger = await newPartner();
    const body = await expectApiError(await getCheck(stranger.token, check.id), 404, "not_found");
    expect(body.error.message).toBe(`No such identity check: ${check.id}.`);
    await expectApiError(await getCheck(owner.token, "idv_01jzzzzzzzzzzzzzzzzzzzzzzz"), 404, "not_found");
    await expectApiError(await getCheck(owner.token, check.application_id), 404, "not_found");
  });

  it("keeps environments apart: a live token on a sandbox application or check is 401 environment_mismatch", async () => {
    const partner = await newPartner();
    const applicationId = await openApplication(partner.tenant);
    const check = await expectJson<Json>(await postCheck(partner.token, { application_id: applicationId, people: [ADA] }), 201);
    const live = await mintToken(server.url, partner.project, { environment: "live" });
    await expectApiError(await postCheck(live, { application_id: applicationId, people: [ADA] }), 401, "environment_mismatch");
    await expectApiError(await getCheck(live, check.id), 401, "environment_mismatch");
    expect(await checkCount(partner.project.project_id)).toBe(1);
  });

  it("answers a live check 503 service_unavailable while no live identity provider is configured, writing nothing", async () => {
    const partner = await newPartner({ environment: "live" });
    const applicationId = await openApplication(partner.tenant);
    const body = await expectApiError(await postCheck(partner.token, { application_id: applicationId, people: [ADA] }), 503, "service_unavailable");
    expect(body.error.message).toContain("no identity provider is configured");
    expect(await checkCount(partner.project.project_id)).toBe(0);
    expect(await identityEvents(partner.project.project_id)).toEqual([]);
  });
});

describe("application status", () => {
  async function applicationIn(partner: TestPartner, companyNumber: string, steps: "submitted" | "decided"): Promise<string> {
    const id = await openApplication(partner.tenant, companyNumber);
    await submitApplication({ tenant: partner.tenant, now: await tenantNow(partner.tenant), id, queueDecisioning: false });
    if (steps === "decided") expect(await decideOnItsClock(id)).not.toBe("busy");
    return id;
  }

  it("takes a check while submitted and while in review (a referral)", async () => {
    const partner = await newPartner();
    const submitted = await applicationIn(partner, "12345678", "submitted");
    const referred = await applicationIn(partner, "12340006", "decided");
    expect((await db().application.findUniqueOrThrow({ where: { id: referred } })).status).toBe("in_review");
    for (const applicationId of [submitted, referred]) {
      expect((await expectJson<Json>(await postCheck(partner.token, { application_id: applicationId, people: [ADA] }), 201)).application_id).toBe(applicationId);
    }
  });

  it("answers 409 conflict once the application is decided or closed", async () => {
    const partner = await newPartner();
    const approved = await applicationIn(partner, "12345678", "decided");
    const withdrawn = await openApplication(partner.tenant);
    await withdrawApplication({ tenant: partner.tenant, now: await tenantNow(partner.tenant), id: withdrawn });
    for (const [applicationId, status] of [[approved, "approved"], [withdrawn, "withdrawn"]]) {
      const body = await expectApiError(await postCheck(partner.token, { application_id: applicationId, people: [ADA] }), 409, "conflict");
      expect(body.error.message).toBe(
        `Application ${applicationId} is ${status}: identity is checked before a decision, while an application is created, submitted or in_review.`,
      );
    }
    expect(await checkCount(partner.project.project_id)).toBe(0);
  });
});

describe("a sandbox project's test clock", () => {
  it("ages the people checked: a date of birth is checked against the project's time, as its objects are stamped", async () => {
    const partner = await newPartner();
    const applicationId = await openApplication(partner.tenant);
    // 16 on 2027-06-20: too young on the real day (2027-06-15), old enough a week on.
    const sixteenOnTheTwentieth = { ...ADA, date_of_birth: "2011-06-20" };
    const early = await expectApiError(await postCheck(partner.token, { application_id: applicationId, people: [sixteenOnTheTwentieth] }), 422, "validation_failed");
    expect(early.error.detail?.map(({ field, reason }) => ({ field, reason }))).toEqual([{ field: "people.0.date_of_birth", reason: "too_young" }]);

    const advanced = await fetch(`${server.url}/partner/v1/test_helpers/clock/advance`, bearer(partner.token, jsonRequest("POST", { days: 7 })));
    expect((await expectJson<Json>(advanced, 200)).offset_days).toBe(7);
    const check = await expectJson<Json>(await postCheck(partner.token, { application_id: applicationId, people: [sixteenOnTheTwentieth] }), 201);
    expect(check.created_at).toBe("2027-06-22T10:00:00.000Z");
    // Still too young on the project's day, a week before turning 16.
    const tooYoung = { ...ADA, date_of_birth: "2011-06-29" };
    const refused = await expectApiError(await postCheck(partner.token, { application_id: applicationId, people: [tooYoung] }), 422, "validation_failed");
    expect(refused.error.detail?.[0]?.reason).toBe("too_young");
  });
});

describe("bad input", () => {
  let partner: TestPartner;
  let applicationId: string;
  beforeAll(async () => {
    freezeClock(T0);
    partner = await newPartner();
    applicationId = await openApplication(partner.tenant);
  });

  const valid = (people: unknown[] = [ADA], extra: Json = {}) => ({ application_id: applicationId, people, ...extra });

  async function expectValidationFailed(body: unknown, expected: Array<{ field?: string; reason: string }>): Promise<ErrorBody> {
    const error = await expectApiError(await postCheck(partner.token, body), 422, "validation_failed");
    expect(error.error.detail?.map(({ field, reason }) => ({ field, reason }))).toEqual(expected);
    for (const item of error.error.detail ?? []) expect(item.message).toEqual(expect.any(String));
    return error;
  }

  it.each([
    ["a top-level field", valid([ADA], { consent: true }), "consent"],
    ["a field of a person", valid([{ ...ADA, middle_name: "King" }]), "people.0.middle_name"],
  ])("refuses an unknown field (%s) with 400 unknown_field", async (_what, body, field) => {
    const error = await expectApiError(await postCheck(partner.token, body), 400, "unknown_field");
    expect(error.error.detail?.map(({ field, reason }) => ({ field, reason }))).toEqual([{ field, reason: "unknown_field" }]);
  });

  it("refuses no people and more than 10", async () => {
    const none = await expectValidationFailed(valid([]), [{ field: "people", reason: "too_small" }]);
    expect(none.error.detail?.[0]?.message).toBe("people lists at least one person.");
    const eleven = Array.from({ length: 11 }, (_, index) => ({ ...ADA, first_name: `Person ${index}` }));
    const many = await expectValidationFailed(valid(eleven), [{ field: "people", reason: "too_large" }]);
    expect(many.error.detail?.[0]?.message).toBe("people lists at most 10 people; run another check for the rest.");
    expect((await expectJson<Json>(await postCheck(partner.token, valid(eleven.slice(1))), 201)).people).toHaveLength(10);
  });

  it("refuses a role other than director or psc", async () => {
    const error = await expectValidationFailed(valid([{ ...ADA, role: "secretary" }]), [{ field: "people.0.role", reason: "invalid_value" }]);
    expect(error.error.detail?.[0]?.message).toBe("role is director or psc (a person with significant control).");
  });

  it.each([
    ["23/04/1980", "invalid_format", "date_of_birth is a date written YYYY-MM-DD, such as 1980-04-23."],
    ["1989-2-3", "invalid_format", "date_of_birth is a date written YYYY-MM-DD, such as 1980-04-23."],
    ["1989-02-30", "invalid_date", "date_of_birth 1989-02-30 is not a day of the calendar."],
    ["1989-13-01", "invalid_date", "date_of_birth 1989-13-01 is not a day of the calendar."],
    ["2027-06-16", "in_future", "date_of_birth is in the future."],
    ["2011-06-16", "too_young", "A person checked must be at least 16 years old."],
    ["1907-06-15", "too_old", "date_of_birth is more than 120 years ago; check the year."],
  ])("refuses the date of birth %s (%s)", async (dateOfBirth, reason, message) => {
    const error = await expectValidationFailed(valid([GRACE, { ...ADA, date_of_birth: dateOfBirth }]), [{ field: "people.1.date_of_birth", reason }]);
    expect(error.error.detail?.[0]?.message).toBe(message);
  });

  it("accepts a person who turns 16 today", async () => {
    const check = await expectJson<Json>(await postCheck(partner.token, valid([{ ...ADA, date_of_birth: "2011-06-15" }])), 201);
    expect(check.people[0].date_of_birth).toBe("2011-06-15");
  });

  it.each([
    ["application_id", (body: Json) => delete body.application_id],
    ["people", (body: Json) => delete body.people],
    ["people.0.first_name", (body: Json) => delete body.people[0].first_name],
    ["people.0.last_name", (body: Json) => delete body.people[0].last_name],
    ["people.0.date_of_birth", (body: Json) => delete body.people[0].date_of_birth],
    ["people.0.role", (body: Json) => delete body.people[0].role],
  ])("refuses a body without %s as required", async (field, remove) => {
    const body = valid([{ ...ADA }]);
    remove(body);
    await expectValidationFailed(body, [{ field, reason: "required" }]);
  });

  it.each([
    ["app_123"],
    ["dec_01jzzzzzzzzzzzzzzzzzzzzzzz"],
    ["APP_01JZZZZZZZZZZZZZZZZZZZZZZZ"],
    [""],
  ])("refuses the application id %j as malformed", async (id) => {
    const error = await expectValidationFailed({ application_id: id, people: [ADA] }, [{ field: "application_id", reason: "invalid_format" }]);
    expect(error.error.detail?.[0]?.message).toBe("application_id is an application's id, app_ followed by 26 characters.");
  });

  it.each([
    ["an empty first name", { first_name: "   " }, "people.0.first_name", "too_small", "first_name must not be empty."],
    ["a last name over 100 characters", { last_name: "x".repeat(101) }, "people.0.last_name", "too_large", "last_name is at most 100 characters."],
    ["a name with a NUL", { first_name: "A\u0000da" }, "people.0.first_name", "invalid_characters", "people.0.first_name must not contain NUL (U+0000) or unpaired surrogate characters."],
    ["a number for a name", { last_name: 7 }, "people.0.last_name", "invalid_type", undefined],
    ["a date of birth that is not a string", { date_of_birth: 19800423 }, "people.0.date_of_birth", "invalid_type", undefined],
  ])("refuses %s", async (_what, change, field, reason, message) => {
    const error = await expectValidationFailed(valid([{ ...ADA, ...change }]), [{ field, reason }]);
    if (message) expect(error.error.detail?.[0]?.message).toBe(message);
  });

  it("accepts names of exactly 100 characters", async () => {
    const check = await expectJson<Json>(await postCheck(partner.token, valid([{ ...ADA, last_name: "x".repeat(100) }])), 201);
    expect(check.people[0].last_name).toHaveLength(100);
  });

  it("refuses people that is not a list, and a body that is not JSON", async () => {
    await expectValidationFailed({ application_id: applicationId, people: ADA }, [{ field: "people", reason: "invalid_type" }]);
    const notJson = { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" };
    await expectApiError(await fetch(`${server.url}/partner/v1/identity/checks`, bearer(partner.token, notJson)), 400, "invalid_json");
  });

  it("wrote no check for any refused request", async () => {
    const checks = await db().identityCheck.findMany({ where: { projectId: partner.tenant.projectId } });
    // The three accepted above: ten people, a 16th birthday and a 100-character name.
    expect(checks.map((check) => (check.people as unknown[]).length).sort((a, b) => a - b)).toEqual([1, 1, 10]);
  });
});
