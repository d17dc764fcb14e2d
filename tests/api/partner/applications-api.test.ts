// The applications resource over HTTP (spec 2.2, 3.1, 4.2, 7): create with every validation rule and the sandbox
// registry's answers, retrieve, list with its filters and cursors, and withdraw. A project per test (or per small
// group): POST /applications is limited to 5 a second per project, and tests that freeze the clock must not share
// a rate-limit bucket drained at another time.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DAY_MS, freezeClock, tickingClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { config } from "@/lib/env";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError, type ErrorBody, expectJson as expectJsonBody } from "../../helpers/http";
import { bearer, createTestProject, mintToken, type TokenOptions } from "../../helpers/partner";
import { decideOnItsClock } from "@/lib/decisions/background";
import { eventually } from "../../helpers/eventually";

type Json = Record<string, any>;

interface Partner {
  project: ProjectCredentials;
  token: string;
}

interface SendOptions {
  /** Sent as JSON. */
  json?: unknown;
  /** Sent verbatim with a JSON content type (for bodies that are not JSON, or empty). */
  raw?: string;
}

const T0 = "2027-03-01T09:00:00.000Z";
const at = (offsetMs: number) => new Date(new Date(T0).getTime() + offsetMs).toISOString();

let server: AppServer;

beforeAll(async () => {
  server = await startAppServer();
});
afterAll(() => server?.close());

async function newPartner(options: TokenOptions = {}): Promise<Partner> {
  const project = await createTestProject();
  return { project, token: await mintToken(server.url, project, options) };
}

function send(token: string, method: string, path: string, options: SendOptions = {}): Promise<Response> {
  const init: RequestInit = { method };
  if (options.json !== undefined) {
    init.headers = { "content-type": "application/json" };
    init.body = JSON.stringify(options.json);
  } else if (options.raw !== undefined) {
    init.headers = { "content-type": "application/json" };
    init.body = options.raw;
  }
  return fetch(`${server.url}/partner/v1${path}`, bearer(token, init));
}

const expectJson = <T = Json>(response: Response, status: number) => expectJsonBody<T>(response, status);

/** A create body that passes every rule; tests change one thing at a time. */
function validBody(overrides: Json = {}): Json {
  return {
    business: { company_number: "12345678" },
    amount_pence: 150_000,
    term_months: 12,
    purpose: "working_capital",
    applicant: { email: "director@example.co.uk", first_name: "Ada" },
    ...overrides,
  };
}

/**
 * POSTs a create. Each test has a project of its own, and tests that create more than the 5/s sub-limit allows
 * space their creations on a frozen clock, so no test meets a 429 or waits one out.
 */
function postApplication(token: string, body: unknown): Promise<Response> {
  return send(token, "POST", "/applications", { json: body });
}

async function createApplication(partner: Partner, overrides: Json = {}): Promise<Json> {
  return expectJson(await postApplication(partner.token, validBody(overrides)), 201);
}

async function readApplication(partner: Partner, id: string): Promise<Json> {
  return expectJson(await send(partner.token, "GET", `/applications/${id}`), 200);
}

async function list(partner: Partner, query = ""): Promise<Response> {
  return send(partner.token, "GET", `/applications${query ? `?${query}` : ""}`);
}

/** Asserts a 422 `validation_failed` whose detail items are exactly `expected` (field and reason). */
async function expectValidationFailed(response: Response, expected: Array<{ field?: string; reason: string }>): Promise<ErrorBody> {
  const body = await expectApiError(response, 422, "validation_failed");
  expect(body.error.type).toBe("invalid_request_error");
  expect(body.error.retryable).toBe(false);
  expect(body.error.detail?.map(({ field, reason }) => (field === undefined ? { reason } : { field, reason }))).toEqual(expected);
  for (const item of body.error.detail ?? []) expect(item.message).toEqual(expect.any(String));
  return body;
}

async function expectUnknownField(response: Response, field: string): Promise<void> {
  const body = await expectApiError(response, 400, "unknown_field");
  expect(body.error.detail?.map(({ field, reason }) => ({ field, reason }))).toEqual([{ field, reason: "unknown_field" }]);
}

/** Reads the application over HTTP until it reaches `status`, running its decisioning as the background driver would. */
async function waitForStatus(partner: Partner, id: string, status: string): Promise<Json> {
  return eventually(() => readApplication(partner, id), (application) => application.status === status, { drive: () => decideOnItsClock(id) });
}

const applicationCount = (projectId: string) => db().application.count({ where: { projectId } });
const withdrawnEvents = (projectId: string) => db().event.findMany({ where: { projectId, type: "application.withdrawn" } });

/** An object with `count` string pairs. */
function pairs(count: number): Record<string, string> {
  return Object.fromEntries(Array.from({ length: count }, (_, index) => [`key_${index}`, `value ${index}`]));
}

describe("creating an application: required fields", () => {
  let partner: Partner;
  beforeEach(async () => {
    partner = await newPartner();
  });

  it.each([
    ["business", (body: Json) => delete body.business],
    ["business.company_number", (body: Json) => (body.business = {})],
    ["amount_pence", (body: Json) => delete body.amount_pence],
    ["term_months", (body: Json) => delete body.term_months],
  ])("rejects a body without %s as required", async (field, remove) => {
    const body = validBody();
    remove(body);
    await expectValidationFailed(await postApplication(partner.token, body), [{ field, reason: "required" }]);
    expect(await applicationCount(partner.project.project_id)).toBe(0);
  });

  it("accepts a body without purpose and returns purpose null", async () => {
    const body = validBody();
    delete body.purpose;
    const application = await expectJson(await postApplication(partner.token, body), 201);
    expect(application.purpose).toBeNull();
  });
});

describe("creating an application: the company number", () => {
  let partner: Partner;
  beforeEach(async () => {
    partner = await newPartner();
  });

  it.each([
    ["7 characters", "1234567"],
    ["9 characters", "123456789"],
    ["lowercase letters", "sc123456"],
    ["full-width unicode digits", "１２３４５６７８"],
    ["Arabic-Indic digits", "١٢٣٤٥٦٧٨"],
    ["a space inside", "1234 567"],
    ["a leading space", " 1234567"],
    ["a trailing space", "1234567 "],
    ["three letters", "ABC12345"],
  ])("rejects a company number with %s as invalid_format", async (_, companyNumber) => {
    const response = await postApplication(partner.token, validBody({ business: { company_number: companyNumber } }));
    await expectValidationFailed(response, [{ field: "business.company_number", reason: "invalid_format" }]);
  });

  it("rejects a company number that is not a string as invalid_type", async () => {
    const response = await postApplication(partner.token, validBody({ business: { company_number: 12345678 } }));
    await expectValidationFailed(response, [{ field: "business.company_number", reason: "invalid_type" }]);
  });

  it.each([
    ["00000000", "company_not_found"],
    ["ST123456", "not_incorporated"],
    ["PT123456", "not_incorporated"],
    ["12349991", "company_dissolved"],
  ])("rejects company number %s with reason %s and opens nothing", async (companyNumber, reason) => {
    const response = await postApplication(partner.token, validBody({ business: { company_number: companyNumber } }));
    await expectValidationFailed(response, [{ field: "business.company_number", reason }]);
    expect(await applicationCount(partner.project.project_id)).toBe(0);
  });

  it.each(["OC123456", "SO123456", "NC123456"])("resolves the LLP number %s to its partnership name", async (companyNumber) => {
    const application = await createApplication(partner, { business: { company_number: companyNumber } });
    expect(application.business).toEqual({ company_number: companyNumber, name: `Sandbox Partners ${companyNumber} LLP` });
  });

  it("resolves a Scottish limited company number to a trading company name", async () => {
    const application = await createApplication(partner, { business: { company_number: "SC123456" } });
    expect(application.business).toEqual({ company_number: "SC123456", name: "Sandbox Trading SC123456 Ltd" });
  });
});

describe("creating an application: amount_pence and term_months", () => {
  let partner: Partner;
  beforeEach(async () => {
    partner = await newPartner();
  });

  it.each([
    [99_999, "too_small"],
    [25_000_001, "too_large"],
    [-150_000, "too_small"],
    [0, "too_small"],
    [150_000.5, "not_integer"],
    ["150000", "invalid_type"],
    [null, "invalid_type"],
  ])("rejects amount_pence %j as %s", async (amount, reason) => {
    const response = await postApplication(partner.token, validBody({ amount_pence: amount }));
    await expectValidationFailed(response, [{ field: "amount_pence", reason }]);
  });

  it.each([100_000, 25_000_000])("accepts amount_pence %i, the inclusive bound", async (amount) => {
    const application = await createApplication(partner, { amount_pence: amount });
    expect(application.amount_pence).toBe(amount);
  });

  it.each([
    [2, "too_small"],
    [61, "too_large"],
    [12.5, "not_integer"],
    ["12", "invalid_type"],
  ])("rejects term_months %j as %s", async (term, reason) => {
    const response = await postApplication(partner.token, validBody({ term_months: term }));
    await expectValidationFailed(response, [{ field: "term_months", reason }]);
  });

  it.each([3, 60])("accepts term_months %i, the inclusive bound", async (term) => {
    const application = await createApplication(partner, { term_months: term });
    expect(application.term_months).toBe(term);
  });

  it("reports every failing field at once", async () => {
    const response = await postApplication(partner.token, validBody({ amount_pence: 1, term_months: 100 }));
    await expectValidationFailed(response, [
      { field: "amount_pence", reason: "too_small" },
      { field: "term_months", reason: "too_large" },
    ]);
  });
});

describe("creating an application: purpose", () => {
  it("rejects a purpose outside the enum as invalid_value", async () => {
    const partner = await newPartner();
    const response = await postApplication(partner.token, validBody({ purpose: "holiday" }));
    await expectValidationFailed(response, [{ field: "purpose", reason: "invalid_value" }]);
  });

  it.each(["working_capital", "asset_finance", "expansion", "refinance", "stock"])("accepts and echoes the purpose %s", async (purpose) => {
    const partner = await newPartner();
    const application = await createApplication(partner, { purpose });
    expect(application.purpose).toBe(purpose);
  });
});

describe("creating an application: applicant and redirect_uri", () => {
  let partner: Partner;
  beforeEach(async () => {
    partner = await newPartner();
  });

  it("requires applicant.email when there is no redirect_uri and no applicant at all", async () => {
    const body = validBody();
    delete body.applicant;
    await expectValidationFailed(await postApplication(partner.token, body), [{ field: "applicant.email", reason: "required" }]);
  });

  it("requires applicant.email when there is no redirect_uri and the applicant has only a first name", async () => {
    const response = await postApplication(partner.token, validBody({ applicant: { first_name: "Ada" } }));
    await expectValidationFailed(response, [{ field: "applicant.email", reason: "required" }]);
  });

  it("allows applicant.email to be absent when redirect_uri is given", async () => {
    const body = validBody({ redirect_uri: "https://partner.example.com/return" });
    delete body.applicant;
    const application = await expectJson(await postApplication(partner.token, body), 201);
    expect(application.status).toBe("created");
  });

  it("rejects an applicant.email that is not an address as invalid_email", async () => {
    const response = await postApplication(partner.token, validBody({ applicant: { email: "director-at-example" } }));
    await expectValidationFailed(response, [{ field: "applicant.email", reason: "invalid_email" }]);
  });

  it("accepts an https redirect_uri and does not echo it or the applicant", async () => {
    const application = await createApplication(partner, { redirect_uri: "https://partner.example.com/return?step=2" });
    expect(application).not.toHaveProperty("redirect_uri");
    expect(application).not.toHaveProperty("applicant");
  });

  it("accepts an http redirect_uri on localhost in the sandbox", async () => {
    const application = await createApplication(partner, { redirect_uri: "http://localhost:3000/cb" });
    expect(application.status).toBe("created");
  });

  it("rejects an http redirect_uri off localhost as must_be_https", async () => {
    const response = await postApplication(partner.token, validBody({ redirect_uri: "http://example.com" }));
    await expectValidationFailed(response, [{ field: "redirect_uri", reason: "must_be_https" }]);
    expect(await applicationCount(partner.project.project_id)).toBe(0);
  });

  it("rejects an http redirect_uri on localhost with a live token as must_be_https", async () => {
    const live = await mintToken(server.url, partner.project, { environment: "live" });
    const response = await postApplication(live, validBody({ redirect_uri: "http://localhost:3000/cb" }));
    await expectValidationFailed(response, [{ field: "redirect_uri", reason: "must_be_https" }]);
  });

  it("rejects a redirect_uri that is not a URL as invalid_url", async () => {
    const response = await postApplication(partner.token, validBody({ redirect_uri: "not-a-url" }));
    await expectValidationFailed(response, [{ field: "redirect_uri", reason: "invalid_url" }]);
  });
});

describe("creating an application: reference and metadata", () => {
  let partner: Partner;
  beforeEach(async () => {
    partner = await newPartner();
  });

  it("accepts and echoes a reference of 255 characters", async () => {
    const reference = "r".repeat(255);
    const application = await createApplication(partner, { reference });
    expect(application.reference).toBe(reference);
  });

  it("rejects a reference of 256 characters as too_large", async () => {
    const response = await postApplication(partner.token, validBody({ reference: "r".repeat(256) }));
    await expectValidationFailed(response, [{ field: "reference", reason: "too_large" }]);
  });

  it("accepts 20 metadata pairs and returns them verbatim", async () => {
    const metadata = pairs(20);
    const application = await createApplication(partner, { metadata });
    expect(application.metadata).toEqual(metadata);
  });

  it("rejects 21 metadata pairs as too_many_pairs on metadata", async () => {
    const response = await postApplication(partner.token, validBody({ metadata: pairs(21) }));
    await expectValidationFailed(response, [{ field: "metadata", reason: "too_many_pairs" }]);
  });

  it("rejects a metadata value that is a number as invalid_type", async () => {
    const response = await postApplication(partner.token, validBody({ metadata: { order: "A-1", count: 3 } }));
    await expectValidationFailed(response, [{ field: "metadata.count", reason: "invalid_type" }]);
  });

  it("rejects a metadata key over 40 characters as too_large", async () => {
    const key = "k".repeat(41);
    const response = await postApplication(partner.token, validBody({ metadata: { [key]: "value" } }));
    await expectValidationFailed(response, [{ field: `metadata.${key}`, reason: "too_large" }]);
  });

  it("accepts a metadata key of 40 characters and a value of 500", async () => {
    const metadata = { ["k".repeat(40)]: "v".repeat(500) };
    const application = await createApplication(partner, { metadata });
    expect(application.metadata).toEqual(metadata);
  });

  it("rejects a metadata value over 500 characters as too_large", async () => {
    const response = await postApplication(partner.token, validBody({ metadata: { note: "v".repeat(501) } }));
    await expectValidationFailed(response, [{ field: "metadata.note", reason: "too_large" }]);
  });

  it("stores unicode metadata verbatim and returns it on create and on read", async () => {
    const metadata = { drink: "café ☕", "straße": "日本語 テキスト", empty: "", spaced: "  padded  " };
    const created = await createApplication(partner, { metadata });
    expect(created.metadata).toEqual(metadata);
    expect((await readApplication(partner, created.id)).metadata).toEqual(metadata);
  });
});

describe("creating an application: text the database cannot store", () => {
  let partner: Partner;
  beforeEach(async () => {
    partner = await newPartner();
  });

  it.each([
    { label: "a NUL in a metadata value", overrides: { metadata: { note: "a\u0000b" } }, field: "metadata.note" },
    { label: "a NUL in a metadata key", overrides: { metadata: { "no\u0000te": "a" } }, field: "metadata.no\u0000te" },
    { label: "an unpaired surrogate in a metadata value", overrides: { metadata: { note: "\ud800" } }, field: "metadata.note" },
    { label: "a NUL in the reference", overrides: { reference: "order-1\u0000" }, field: "reference" },
    { label: "a NUL in redirect_uri", overrides: { redirect_uri: "https://partner.example/back\u0000" }, field: "redirect_uri" },
    { label: "a NUL in applicant.first_name", overrides: { applicant: { email: "director@example.co.uk", first_name: "Ada\u0000" } }, field: "applicant.first_name" },
  ])("rejects $label as invalid_characters and creates nothing", async ({ overrides, field }) => {
    const response = await postApplication(partner.token, validBody(overrides));
    await expectValidationFailed(response, [{ field, reason: "invalid_characters" }]);
    expect(await applicationCount(partner.project.project_id)).toBe(0);
  });

  it("keeps a character outside the Basic Multilingual Plane (a surrogate pair) verbatim", async () => {
    const application = await createApplication(partner, { reference: "🙂 order", metadata: { "🙂": "𝄞" } });
    expect([application.reference, application.metadata]).toEqual(["🙂 order", { "🙂": "𝄞" }]);
  });
});

describe("creating an application: body shape", () => {
  let partner: Partner;
  beforeEach(async () => {
    partner = await newPartner();
  });

  it("rejects an unknown top-level field with 400 unknown_field", async () => {
    await expectUnknownField(await postApplication(partner.token, validBody({ colour: "blue" })), "colour");
  });

  it("rejects an unknown field inside business with its dotted path", async () => {
    await expectUnknownField(await postApplication(partner.token, validBody({ business: { company_number: "12345678", foo: 1 } })), "business.foo");
  });

  it("rejects an unknown field inside applicant with its dotted path", async () => {
    const response = await postApplication(partner.token, validBody({ applicant: { email: "director@example.co.uk", phone: "07700900000" } }));
    await expectUnknownField(response, "applicant.phone");
  });

  it("reports an unknown field as 400 even beside an invalid one", async () => {
    await expectUnknownField(await postApplication(partner.token, validBody({ amount_pence: 1, colour: "blue" })), "colour");
  });

  it("rejects a body that is not JSON with 400 invalid_json", async () => {
    await expectApiError(await send(partner.token, "POST", "/applications", { raw: "{\"business\": {" }), 400, "invalid_json");
  });

  it("rejects an empty body as validation_failed", async () => {
    const body = await expectApiError(await send(partner.token, "POST", "/applications", { raw: "" }), 422, "validation_failed");
    expect(body.error.detail).toEqual([{ reason: "required", message: "The request body is empty: send a JSON object." }]);
  });

  it("rejects an array body as validation_failed", async () => {
    const body = await expectApiError(await send(partner.token, "POST", "/applications", { json: [validBody()] }), 422, "validation_failed");
    expect(body.error.detail?.map((item) => item.reason)).toEqual(["invalid_type"]);
    expect(await applicationCount(partner.project.project_id)).toBe(0);
  });
});

describe("scopes", () => {
  it("refuses to create with a token holding only applications:read", async () => {
    const partner = await newPartner({ scope: "applications:read" });
    const body = await expectApiError(await postApplication(partner.token, validBody()), 403, "insufficient_scope");
    expect(body.error.type).toBe("authentication_error");
    expect(await applicationCount(partner.project.project_id)).toBe(0);
  });

  it("refuses to list or read with a token holding only apply:write", async () => {
    const partner = await newPartner({ scope: "apply:write" });
    const application = await createApplication(partner);
    await expectApiError(await list(partner), 403, "insufficient_scope");
    await expectApiError(await send(partner.token, "GET", `/applications/${application.id}`), 403, "insufficient_scope");
  });
});

describe("retrieving an application", () => {
  it("returns the caller's application with its exact shape", async () => {
    freezeClock(T0);
    const partner = await newPartner();
    const created = await createApplication(partner, {
      amount_pence: 2_500_000,
      term_months: 36,
      purpose: "asset_finance",
      reference: "order-7731",
      metadata: { crm_id: "c-42" },
    });
    const application = await readApplication(partner, created.id);
    expect(application).toEqual({
      id: created.id,
      object: "application",
      livemode: false,
      status: "created",
      business: { company_number: "12345678", name: "Sandbox Trading 12345678 Ltd" },
      amount_pence: 2_500_000,
      term_months: 36,
      product: "business_loan",
      purpose: "asset_finance",
      reference: "order-7731",
      handoff_url: expect.stringMatching(new RegExp(`^${config().APPLY_URL.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/apply/[0-9A-Za-z]{32}$`)),
      expires_at: at(14 * 86_400_000),
      created_at: T0,
      submitted_at: null,
      withdrawn_at: null,
      withdrawal_reason: null,
      funded_at: null,
      decision: null,
      account_id: null,
      introduction_id: null,
      sub_account_id: null,
      metadata: { crm_id: "c-42" },
    });
    expect(application.id).toMatch(/^app_[0-9a-z]{26}$/);
    expect(application).toEqual(created);
  });

  it("gives each application its own handoff_url, never containing the id", async () => {
    const partner = await newPartner();
    const first = await createApplication(partner);
    const second = await createApplication(partner);
    expect(first.handoff_url).not.toContain(first.id);
    expect(first.handoff_url).not.toContain(first.id.slice("app_".length));
    expect(second.handoff_url).not.toContain(second.id.slice("app_".length));
    expect(first.handoff_url).not.toBe(second.handoff_url);
  });

  it("answers 404 not_found for another project's application", async () => {
    const owner = await newPartner();
    const stranger = await newPartner();
    const application = await createApplication(owner);
    await expectApiError(await send(stranger.token, "GET", `/applications/${application.id}`), 404, "not_found");
  });

  it.each([
    ["a well-formed but unknown app_ id", "app_01jqz8x9k2m3n4p5q6r7s8t9va"],
    ["a decision id", "dec_123"],
    ["a well-formed decision id", "dec_01jqz8x9k2m3n4p5q6r7s8t9va"],
    ["a word", "nope"],
    ["an app_ id with a NUL in it", "app_%00"],
  ])("answers 404 not_found for %s", async (_, id) => {
    const partner = await newPartner();
    await expectApiError(await send(partner.token, "GET", `/applications/${id}`), 404, "not_found");
  });

  it("refuses a live application to a sandbox token with 401 environment_mismatch", async () => {
    const partner = await newPartner();
    const live = { project: partner.project, token: await mintToken(server.url, partner.project, { environment: "live" }) };
    const application = await createApplication(live);
    expect(application.livemode).toBe(true);
    expect((await readApplication(live, application.id)).id).toBe(application.id);
    await expectApiError(await send(partner.token, "GET", `/applications/${application.id}`), 401, "environment_mismatch");
  });

  it("refuses a sandbox application to a live token with 401 environment_mismatch", async () => {
    const partner = await newPartner();
    const live = await mintToken(server.url, partner.project, { environment: "live" });
    const application = await createApplication(partner);
    await expectApiError(await send(live, "GET", `/applications/${application.id}`), 401, "environment_mismatch");
  });
});

describe("listing applications", () => {
  it("pages newest first, 25 by default, and continues with starting_after", async () => {
    // 26 creations at the 5/s sub-limit: one every 200 ms of frozen time, so the bucket refills without waiting.
    const clock = freezeClock(T0);
    const partner = await newPartner();
    const ids: string[] = [];
    for (let index = 0; index < 26; index += 1) {
      ids.push((await createApplication(partner, { reference: `batch-${index}` })).id);
      clock.advance(200);
    }
    const newestFirst = [...ids].reverse();

    const first = await expectJson(await list(partner), 200);
    expect(first.object).toBe("list");
    expect(first.url).toBe("/partner/v1/applications");
    expect(first.has_more).toBe(true);
    expect(first.data.map((item: Json) => item.id)).toEqual(newestFirst.slice(0, 25));
    expect(first.data[0]).toMatchObject({ object: "application", reference: "batch-25", created_at: at(25 * 200) });
    expect(first).not.toHaveProperty("total_count");

    const second = await expectJson(await list(partner, `starting_after=${first.data[24].id}`), 200);
    expect(second).toEqual({ object: "list", data: [expect.objectContaining({ id: ids[0], reference: "batch-0" })], has_more: false, url: "/partner/v1/applications" });
  });

  it("says has_more false when the page holds everything and true when it does not", async () => {
    const partner = await newPartner();
    const ids = [(await createApplication(partner)).id, (await createApplication(partner)).id, (await createApplication(partner)).id];
    const whole = await expectJson(await list(partner, "limit=3"), 200);
    expect(whole.has_more).toBe(false);
    expect(whole.data.map((item: Json) => item.id)).toEqual([...ids].reverse());
    const part = await expectJson(await list(partner, "limit=2"), 200);
    expect(part.has_more).toBe(true);
    const rest = await expectJson(await list(partner, `limit=2&starting_after=${part.data[1].id}`), 200);
    expect(rest).toEqual({ object: "list", data: [expect.objectContaining({ id: ids[0] })], has_more: false, url: "/partner/v1/applications" });
  });

  it("returns an empty list for a project with no applications", async () => {
    const partner = await newPartner();
    expect(await expectJson(await list(partner), 200)).toEqual({ object: "list", data: [], has_more: false, url: "/partner/v1/applications" });
  });

  it("filters by status", async () => {
    const partner = await newPartner();
    const [first, second, third] = [await createApplication(partner), await createApplication(partner), await createApplication(partner)];
    await expectJson(await send(partner.token, "POST", `/applications/${second!.id}/withdraw`), 200);
    const withdrawn = await expectJson(await list(partner, "status=withdrawn"), 200);
    expect(withdrawn.data.map((item: Json) => [item.id, item.status])).toEqual([[second!.id, "withdrawn"]]);
    const created = await expectJson(await list(partner, "status=created"), 200);
    expect(created.data.map((item: Json) => item.id)).toEqual([third!.id, first!.id]);
    expect(await expectJson(await list(partner, "status=funded"), 200)).toEqual({ object: "list", data: [], has_more: false, url: "/partner/v1/applications" });
  });

  it("filters by reference, exact match only", async () => {
    const partner = await newPartner();
    const wanted = await createApplication(partner, { reference: "order-1" });
    await createApplication(partner, { reference: "order-10" });
    await createApplication(partner, { reference: "ORDER-1" });
    await createApplication(partner);
    const found = await expectJson(await list(partner, "reference=order-1"), 200);
    expect(found.data.map((item: Json) => item.id)).toEqual([wanted.id]);
  });

  it("filters by created_after, strictly after the given instant", async () => {
    const clock = freezeClock(T0);
    const partner = await newPartner();
    const early = await createApplication(partner);
    clock.advance(1_000);
    const middle = await createApplication(partner);
    clock.advance(1_000);
    const late = await createApplication(partner);
    expect([early.created_at, middle.created_at, late.created_at]).toEqual([T0, at(1_000), at(2_000)]);

    const afterMiddle = await expectJson(await list(partner, `created_after=${encodeURIComponent(middle.created_at)}`), 200);
    expect(afterMiddle.data.map((item: Json) => item.id)).toEqual([late.id]);
    const withOffset = await expectJson(await list(partner, `created_after=${encodeURIComponent("2027-03-01T10:00:00.500+01:00")}`), 200);
    expect(withOffset.data.map((item: Json) => item.id)).toEqual([late.id, middle.id]);
    const everything = await expectJson(await list(partner, `created_after=${encodeURIComponent(at(-1))}`), 200);
    expect(everything.data.map((item: Json) => item.id)).toEqual([late.id, middle.id, early.id]);
  });

  it("keeps a filter across pages", async () => {
    const partner = await newPartner();
    const kept = [await createApplication(partner, { reference: "keep" }), await createApplication(partner, { reference: "skip" }), await createApplication(partner, { reference: "keep" })];
    const first = await expectJson(await list(partner, "reference=keep&limit=1"), 200);
    expect(first.data.map((item: Json) => item.id)).toEqual([kept[2]!.id]);
    expect(first.has_more).toBe(true);
    const second = await expectJson(await list(partner, `reference=keep&limit=1&starting_after=${first.data[0].id}`), 200);
    expect(second.data.map((item: Json) => item.id)).toEqual([kept[0]!.id]);
    expect(second.has_more).toBe(false);
  });

  describe("query validation", () => {
    let partner: Partner;
    beforeEach(async () => {
      partner = await newPartner();
    });

    it.each([
      ["status=open", "status", "invalid_value"],
      ["created_after=yesterday", "created_after", "invalid_timestamp"],
      ["created_after=2027-03-01", "created_after", "invalid_timestamp"],
      ["limit=0", "limit", "too_small"],
      ["limit=101", "limit", "too_large"],
      ["limit=abc", "limit", "invalid_type"],
    ])("rejects %s as %s %s", async (query, field, reason) => {
      await expectValidationFailed(await list(partner, query), [{ field, reason }]);
    });

    it.each(["limit=1", "limit=100"])("accepts %s", async (query) => {
      expect((await expectJson(await list(partner, query), 200)).object).toBe("list");
    });

    it("rejects an unknown query parameter with 400 unknown_field", async () => {
      await expectUnknownField(await list(partner, "sort=asc"), "sort");
    });

    it("rejects a NUL in the reference filter as invalid_characters", async () => {
      await expectValidationFailed(await list(partner, "reference=order%001"), [{ field: "reference", reason: "invalid_characters" }]);
    });
  });

  it("answers 404 for a cursor that is a key id", async () => {
    const partner = await newPartner();
    await createApplication(partner);
    const key = await db().apiKey.findFirstOrThrow({ where: { projectId: partner.project.project_id, environment: "sandbox", type: "secret" } });
    expect(key.id).toMatch(/^key_/);
    await expectApiError(await list(partner, `starting_after=${key.id}`), 404, "not_found");
  });

  it("answers 404 for a cursor that is another project's application", async () => {
    const partner = await newPartner();
    const stranger = await newPartner();
    await createApplication(partner);
    const theirs = await createApplication(stranger);
    await expectApiError(await list(partner, `starting_after=${theirs.id}`), 404, "not_found");
  });

  it("keeps sandbox and live applications apart", async () => {
    const partner = await newPartner();
    const live = { project: partner.project, token: await mintToken(server.url, partner.project, { environment: "live" }) };
    const sandboxApplication = await createApplication(partner);
    const liveApplication = await createApplication(live);

    const sandboxList = await expectJson(await list(partner), 200);
    expect(sandboxList.data.map((item: Json) => [item.id, item.livemode])).toEqual([[sandboxApplication.id, false]]);
    const liveList = await expectJson(await list(live), 200);
    expect(liveList.data.map((item: Json) => [item.id, item.livemode])).toEqual([[liveApplication.id, true]]);
    await expectApiError(await list(partner, `starting_after=${liveApplication.id}`), 404, "not_found");
  });
});

describe("the time of a request", () => {
  it("is read once: the application created and its application.created event carry the same time, however the clock moves meanwhile", async () => {
    freezeClock(T0);
    const partner = await newPartner();
    tickingClock(at(1_000), 3);
    const application = await createApplication(partner);
    freezeClock(at(60_000));
    const [event, ...others] = await db().event.findMany({ where: { projectId: partner.project.project_id, type: "application.created" } });
    expect(others).toEqual([]);
    expect(event!.createdAt.toISOString()).toBe(application.created_at);
    expect(event!.object).toMatchObject({ id: application.id, created_at: application.created_at, expires_at: application.expires_at });
    expect(new Date(application.expires_at).getTime() - new Date(application.created_at).getTime()).toBe(config().APPLICATION_EXPIRY_DAYS * DAY_MS);
  });

  it("is read once: a withdrawal's withdrawn_at is the time its application.withdrawn event carries", async () => {
    freezeClock(T0);
    const partner = await newPartner();
    const application = await createApplication(partner);
    tickingClock(at(1_000), 3);
    const withdrawn = await expectJson(await send(partner.token, "POST", `/applications/${application.id}/withdraw`), 200);
    freezeClock(at(60_000));
    const events = await withdrawnEvents(partner.project.project_id);
    expect(events).toHaveLength(1);
    expect(events[0]!.createdAt.toISOString()).toBe(withdrawn.withdrawn_at);
    expect(events[0]!.object).toMatchObject({ id: application.id, withdrawn_at: withdrawn.withdrawn_at });
  });
});

describe("withdrawing an application", () => {
  const withdraw = (partner: Partner, id: string, body?: unknown) =>
    send(partner.token, "POST", `/applications/${id}/withdraw`, body === undefined ? {} : { json: body });

  it("moves a created application to withdrawn with its reason and time", async () => {
    const clock = freezeClock(T0);
    const partner = await newPartner();
    const application = await createApplication(partner);
    clock.advance(60_000);
    const withdrawn = await expectJson(await withdraw(partner, application.id, { reason: "The customer chose another lender." }), 200);
    expect(withdrawn).toEqual({
      ...application,
      status: "withdrawn",
      withdrawal_reason: "The customer chose another lender.",
      withdrawn_at: at(60_000),
    });
    expect(await readApplication(partner, application.id)).toEqual(withdrawn);
    const events = await withdrawnEvents(partner.project.project_id);
    expect(events).toHaveLength(1);
    expect(events[0]!.object).toMatchObject({ id: application.id, status: "withdrawn", withdrawal_reason: "The customer chose another lender." });
  });

  it("withdraws without a body, leaving the reason null", async () => {
    freezeClock(T0);
    const partner = await newPartner();
    const application = await createApplication(partner);
    const withdrawn = await expectJson(await withdraw(partner, application.id), 200);
    expect(withdrawn).toMatchObject({ status: "withdrawn", withdrawal_reason: null, withdrawn_at: T0 });
  });

  it("answers a second withdraw with the application unchanged and writes no second event", async () => {
    const clock = freezeClock(T0);
    const partner = await newPartner();
    const application = await createApplication(partner);
    const first = await expectJson(await withdraw(partner, application.id, { reason: "first" }), 200);
    clock.advance(5_000);
    const again = await expectJson(await withdraw(partner, application.id, { reason: "second" }), 200);
    expect(again).toEqual(first);
    expect(again).toMatchObject({ withdrawn_at: T0, withdrawal_reason: "first" });
    expect(await withdrawnEvents(partner.project.project_id)).toHaveLength(1);
  });

  it("lets two concurrent withdraws both succeed with exactly one event", async () => {
    const partner = await newPartner();
    const application = await createApplication(partner);
    const [left, right] = await Promise.all([withdraw(partner, application.id, { reason: "left" }), withdraw(partner, application.id, { reason: "right" })]);
    const [leftBody, rightBody] = [await expectJson(left, 200), await expectJson(right, 200)];
    expect(leftBody.status).toBe("withdrawn");
    expect(rightBody).toEqual(leftBody);
    expect(["left", "right"]).toContain(leftBody.withdrawal_reason);
    expect(await withdrawnEvents(partner.project.project_id)).toHaveLength(1);
  });

  it("refuses to withdraw an expired application with 409 conflict", async () => {
    const partner = await newPartner();
    const application = await createApplication(partner);
    expect((await expectJson(await send(partner.token, "POST", `/test_helpers/applications/${application.id}/expire`), 200)).status).toBe("expired");
    await expectApiError(await withdraw(partner, application.id), 409, "conflict");
    expect((await readApplication(partner, application.id)).status).toBe("expired");
    expect(await withdrawnEvents(partner.project.project_id)).toHaveLength(0);
  });

  it("refuses to withdraw a funded application with 409 conflict", async () => {
    const partner = await newPartner();
    const application = await createApplication(partner);
    await expectJson(await send(partner.token, "POST", `/test_helpers/applications/${application.id}/submit`), 200);
    await waitForStatus(partner, application.id, "approved");
    expect((await expectJson(await send(partner.token, "POST", `/test_helpers/applications/${application.id}/fund`), 200)).status).toBe("funded");
    await expectApiError(await withdraw(partner, application.id, { reason: "too late" }), 409, "conflict");
    expect((await readApplication(partner, application.id)).status).toBe("funded");
    expect(await withdrawnEvents(partner.project.project_id)).toHaveLength(0);
  });

  it("withdraws a declined application, keeping its decision", async () => {
    const partner = await newPartner();
    const application = await createApplication(partner, { business: { company_number: "12340001" } });
    await expectJson(await send(partner.token, "POST", `/test_helpers/applications/${application.id}/submit`), 200);
    const declined = await waitForStatus(partner, application.id, "declined");
    expect(declined.decision).toMatch(/^dec_[0-9a-z]{26}$/);
    const withdrawn = await expectJson(await withdraw(partner, application.id), 200);
    expect(withdrawn).toMatchObject({ status: "withdrawn", decision: declined.decision });
    expect(await withdrawnEvents(partner.project.project_id)).toHaveLength(1);
  });

  it("answers 404 not_found for another project's application", async () => {
    const owner = await newPartner();
    const stranger = await newPartner();
    const application = await createApplication(owner);
    await expectApiError(await withdraw(stranger, application.id), 404, "not_found");
    expect((await readApplication(owner, application.id)).status).toBe("created");
  });

  it("rejects an unknown body field with 400 unknown_field", async () => {
    const partner = await newPartner();
    const application = await createApplication(partner);
    await expectUnknownField(await withdraw(partner, application.id, { reason: "ok", note: "extra" }), "note");
    expect((await readApplication(partner, application.id)).status).toBe("created");
  });

  it("rejects a NUL in the reason as invalid_characters and leaves the application as it was", async () => {
    const partner = await newPartner();
    const application = await createApplication(partner);
    await expectValidationFailed(await withdraw(partner, application.id, { reason: "changed\u0000mind" }), [{ field: "reason", reason: "invalid_characters" }]);
    expect((await readApplication(partner, application.id)).status).toBe("created");
  });

  it("rejects a reason over 500 characters as too_large and accepts one of 500", async () => {
    const partner = await newPartner();
    const application = await createApplication(partner);
    await expectValidationFailed(await withdraw(partner, application.id, { reason: "x".repeat(501) }), [{ field: "reason", reason: "too_large" }]);
    expect((await readApplication(partner, application.id)).status).toBe("created");
    const withdrawn = await expectJson(await withdraw(partner, application.id, { reason: "x".repeat(500) }), 200);
    expect(withdrawn.withdrawal_reason).toBe("x".repeat(500));
  });
});
