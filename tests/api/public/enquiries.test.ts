// POST /public/v1/enquiries over HTTP (spec 4.8, 6.2, 7.3): a valid form is stored, answered 201 with the
// enquiry object and reported by an `enquiry.created` platform event carrying the same object; each problem
// has its intake code, checked in a fixed order (unknown field first, then form, email, dept, fields); the body
// and `fields` caps are 422 on the public ring; CORS admits only the site's origins. Every test freezes the
// clock at its own minute, so each has a fresh public rate-limit window.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { config } from "@/lib/env";
import { CURRENT_API_VERSION } from "@/lib/events/events";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError, jsonRequest } from "../../helpers/http";

const RUN_START_MS = Date.UTC(2027, 0, 1);
const ENQUIRY_ID = /^enq_[0-9a-z]{26}$/;
const EVIL_ORIGIN = "https://evil.example";

let server: AppServer;
let testIndex = 0;
let now: Date;

beforeAll(async () => {
  server = await startAppServer();
});
afterAll(() => server?.close());

beforeEach(() => {
  testIndex += 1;
  now = new Date(RUN_START_MS + testIndex * 60_000);
  freezeClock(now);
});

const siteOrigin = () => new URL(config().BASE_URL).origin;

interface EnquiryBody {
  id: string;
  object: string;
  form: string;
  dept: string;
  created_at: string;
}

function postEnquiry(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}/public/v1/enquiries`, jsonRequest("POST", body, headers));
}

function postRaw(body: string): Promise<Response> {
  return fetch(`${server.url}/public/v1/enquiries`, { method: "POST", headers: { "content-type": "application/json" }, body });
}

async function expectCreated(response: Response): Promise<EnquiryBody> {
  const text = await response.text();
  expect({ status: response.status, body: text }).toMatchObject({ status: 201 });
  return JSON.parse(text) as EnquiryBody;
}

/** Asserts the whole envelope: status, code, and exactly these `detail` items (each with some message). */
async function expectIntakeError(response: Response, status: number, code: string, detail?: Array<{ field?: string; reason: string }>) {
  const body = await expectApiError(response, status, code);
  expect(body.error).toEqual({
    code,
    type: "invalid_request_error",
    message: expect.any(String),
    ...(detail ? { detail: detail.map((item) => ({ ...item, message: expect.any(String) })) } : {}),
    correlation_id: body.error.correlation_id,
    retryable: false,
  });
  return body;
}

const valid = { form: "enquiry", email: "ada@example.co.uk" };
const manyFields = (count: number, value = "v") => Object.fromEntries(Array.from({ length: count }, (_, index) => [`field_${index}`, value]));

describe("recording an enquiry", () => {
  it("stores it, answers 201 with the enquiry object, and fires enquiry.created with that object", async () => {
    const input = {
      form: "lead",
      email: "ada@example.co.uk",
      name: "Ada Lovelace",
      message: "We would like to talk about a facility for our stock.",
      fields: { company_number: "12345678", turnover: "£250k" },
    };
    const body = await expectCreated(await postEnquiry(input));
    expect(body).toEqual({ id: expect.stringMatching(ENQUIRY_ID), object: "enquiry", form: "lead", dept: "sales", created_at: now.toISOString() });

    expect(await db().enquiry.findUnique({ where: { id: body.id } })).toEqual({
      id: body.id,
      form: "lead",
      dept: "sales",
      email: "ada@example.co.uk",
      name: "Ada Lovelace",
      message: "We would like to talk about a facility for our stock.",
      fields: { company_number: "12345678", turnover: "£250k" },
      createdAt: now,
    });

    const events = await db().event.findMany({ where: { type: "enquiry.created", createdAt: now } });
    expect(events).toEqual([
      {
        id: expect.stringMatching(/^evt_[0-9a-z]{26}$/),
        projectId: null,
        environment: "live",
        type: "enquiry.created",
        apiVersion: CURRENT_API_VERSION,
        object: body,
        createdAt: now,
        recordedAt: now,
      },
    ]);
    expect(JSON.stringify(events)).not.toContain("ada@example.co.uk");
  });

  it("stores a form with only form and email with no name, message or fields", async () => {
    const body = await expectCreated(await postEnquiry(valid));
    expect(await db().enquiry.findUnique({ where: { id: body.id } })).toMatchObject({ name: null, message: null, fields: {} });
  });

  it.each([
    ["enquiry", "sales"],
    ["lead", "sales"],
    ["complaint", "complaints"],
  ])("routes a %s without a dept to %s", async (form, dept) => {
    const body = await expectCreated(await postEnquiry({ ...valid, form }));
    expect(body).toMatchObject({ form, dept });
  });

  it.each(["sales", "support", "complaints", "partnerships"])("routes to the chosen dept %s", async (dept) => {
    const body = await expectCreated(await postEnquiry({ ...valid, form: "complaint", dept }));
    expect(body).toMatchObject({ form: "complaint", dept });
    expect(await db().enquiry.findUnique({ where: { id: body.id } })).toMatchObject({ dept });
  });

  it("keeps unicode names and messages verbatim, trimmed, counting characters rather than UTF-16 units", async () => {
    const name = "😀".repeat(100);
    const message = "Zoë Ørsted — 李雷 asks: can a café borrow £20k? 🙏";
    const body = await expectCreated(await postEnquiry({ ...valid, name: `  ${name} `, message: `\n${message}\n` }));
    expect(await db().enquiry.findUnique({ where: { id: body.id } })).toMatchObject({ name, message });
  });

  it("accepts fields at their limits: 20 keys of 40 characters with values of up to 1000", async () => {
    const fields = Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`${index}`.padStart(40, "k"), index < 7 ? "v".repeat(1000) : "v"]));
    const body = await expectCreated(await postEnquiry({ ...valid, fields }));
    expect(await db().enquiry.findUnique({ where: { id: body.id } })).toMatchObject({ fields });
  });
});

describe("intake errors", () => {
  it.each([
    { label: "a missing form", input: { email: valid.email }, reason: "required" },
    { label: "the form other", input: { ...valid, form: "other" }, reason: "invalid_value" },
    { label: "a numeric form", input: { ...valid, form: 1 }, reason: "invalid_value" },
  ])("answers $label with 422 form_required", async ({ input, reason }) => {
    const body = await expectIntakeError(await postEnquiry(input), 422, "form_required", [{ field: "form", reason }]);
    expect(body.error.message).toBe("`form` is required: one of enquiry, lead, complaint.");
  });

  it("treats an empty body as a form without its form", async () => {
    const response = await fetch(`${server.url}/public/v1/enquiries`, { method: "POST" });
    await expectIntakeError(response, 422, "form_required", [{ field: "form", reason: "required" }]);
  });

  it.each([
    { label: "a missing email", input: { form: "lead" }, reason: "required" },
    { label: "an address without a domain", input: { ...valid, email: "ada@" }, reason: "invalid_email" },
    { label: "an address with a space", input: { ...valid, email: "ada lovelace@example.com" }, reason: "invalid_email" },
    { label: "an address over 254 characters", input: { ...valid, email: `${"a".repeat(64)}@${"b".repeat(190)}.com` }, reason: "too_large" },
    { label: "a numeric email", input: { ...valid, email: 42 }, reason: "invalid_type" },
  ])("answers $label with 422 invalid_email", async ({ input, reason }) => {
    await expectIntakeError(await postEnquiry(input), 422, "invalid_email", [{ field: "email", reason }]);
  });

  it("answers the dept legal with 422 invalid_dept", async () => {
    const body = await expectIntakeError(await postEnquiry({ ...valid, dept: "legal" }), 422, "invalid_dept", [{ field: "dept", reason: "invalid_value" }]);
    expect(body.error.message).toBe("`dept` must be one of sales, support, complaints, partnerships.");
  });

  it("answers fields with 21 keys with 422 payload_too_large, not 413", async () => {
    await expectIntakeError(await postEnquiry({ ...valid, fields: manyFields(21) }), 422, "payload_too_large", [{ field: "fields", reason: "too_many_keys" }]);
  });

  it("answers a 1001-character field value with 422 payload_too_large", async () => {
    await expectIntakeError(await postEnquiry({ ...valid, fields: { note: "n".repeat(1001) } }), 422, "payload_too_large", [
      { field: "fields.note", reason: "too_large" },
    ]);
  });

  it("answers a 41-character field key with 422 payload_too_large", async () => {
    const key = "k".repeat(41);
    await expectIntakeError(await postEnquiry({ ...valid, fields: { [key]: "v" } }), 422, "payload_too_large", [{ field: `fields.${key}`, reason: "too_large" }]);
  });

  it("answers fields over 8 KiB in all with 422 payload_too_large", async () => {
    await expectIntakeError(await postEnquiry({ ...valid, fields: manyFields(10, "v".repeat(900)) }), 422, "payload_too_large", [
      { field: "fields", reason: "too_large" },
    ]);
  });

  it("answers a field value that is not a string with 422 validation_failed", async () => {
    await expectIntakeError(await postEnquiry({ ...valid, fields: { employees: 12 } }), 422, "validation_failed", [{ field: "fields.employees", reason: "invalid_type" }]);
  });

  it.each([
    { label: "a 101-character name", input: { ...valid, name: "n".repeat(101) }, detail: [{ field: "name", reason: "too_large" }] },
    { label: "a blank name", input: { ...valid, name: "   " }, detail: [{ field: "name", reason: "too_small" }] },
    { label: "a 5001-character message", input: { ...valid, message: "m".repeat(5001) }, detail: [{ field: "message", reason: "too_large" }] },
    { label: "an empty message", input: { ...valid, message: "" }, detail: [{ field: "message", reason: "too_small" }] },
    { label: "a numeric name", input: { ...valid, name: 7 }, detail: [{ field: "name", reason: "invalid_type" }] },
  ])("answers $label with 422 validation_failed", async ({ input, detail }) => {
    await expectIntakeError(await postEnquiry(input), 422, "validation_failed", detail);
  });

  it.each([
    { label: "a NUL in the message", input: { ...valid, message: "hello\u0000there" }, field: "message" },
    { label: "an unpaired surrogate in the name", input: { ...valid, name: "Ada \ud83d" }, field: "name" },
    { label: "a NUL in a fields key", input: { ...valid, fields: { "company\u0000": "Acme" } }, field: "fields.company\u0000" },
    { label: "a NUL in a fields value", input: { ...valid, fields: { company: "Acme\u0000" } }, field: "fields.company" },
  ])("answers $label with 422 validation_failed invalid_characters and stores nothing", async ({ input, field }) => {
    await expectIntakeError(await postEnquiry(input), 422, "validation_failed", [{ field, reason: "invalid_characters" }]);
    expect(await db().enquiry.count({ where: { createdAt: now } })).toBe(0);
  });

  it("answers a JSON value that is not an object with 422 validation_failed", async () => {
    await expectIntakeError(await postRaw("[]"), 422, "validation_failed", [{ reason: "invalid_type" }]);
  });

  it("answers a body over 16 KiB with 422 request_body_too_large", async () => {
    const body = await expectIntakeError(await postEnquiry({ ...valid, message: "m".repeat(16_384) }), 422, "request_body_too_large");
    expect(body.error.message).toBe("The request body exceeds the 16384-byte limit.");
  });

  it("reads a body of exactly 16 KiB", async () => {
    const json = JSON.stringify(valid);
    await expectCreated(await postRaw(json.padEnd(16_384, " ")));
  });

  it("answers an unknown top-level field with 400 unknown_field", async () => {
    const body = await expectIntakeError(await postEnquiry({ ...valid, phone: "07700 900000" }), 400, "unknown_field", [{ field: "phone", reason: "unknown_field" }]);
    expect(body.error.message).toBe("Unknown field(s): phone.");
  });

  it("answers an unknown field with 400 unknown_field even beside a missing form, a bad email and a bad dept", async () => {
    await expectIntakeError(await postEnquiry({ email: "nope", dept: "legal", source: "footer" }), 400, "unknown_field", [{ field: "source", reason: "unknown_field" }]);
  });

  it("checks form before email, email before dept, and dept before fields", async () => {
    const everythingWrong = { form: "other", email: "nope", dept: "legal", fields: manyFields(21), name: "" };
    await expectIntakeError(await postEnquiry(everythingWrong), 422, "form_required", [{ field: "form", reason: "invalid_value" }]);
    await expectIntakeError(await postEnquiry({ ...everythingWrong, form: "lead" }), 422, "invalid_email", [{ field: "email", reason: "invalid_email" }]);
    await expectIntakeError(await postEnquiry({ ...everythingWrong, form: "lead", email: valid.email }), 422, "invalid_dept", [
      { field: "dept", reason: "invalid_value" },
    ]);
    await expectIntakeError(await postEnquiry({ ...everythingWrong, form: "lead", email: valid.email, dept: "sales" }), 422, "payload_too_large", [
      { field: "fields", reason: "too_many_keys" },
    ]);
  });

  it("answers invalid JSON with 400 invalid_json", async () => {
    await expectIntakeError(await postRaw('{"form": "lead",'), 400, "invalid_json");
  });

  it("stores nothing and fires nothing for a refused enquiry", async () => {
    await expectIntakeError(await postEnquiry({ ...valid, dept: "legal" }), 422, "invalid_dept", [{ field: "dept", reason: "invalid_value" }]);
    expect(await db().enquiry.count({ where: { createdAt: now } })).toBe(0);
    expect(await db().event.count({ where: { type: "enquiry.created", createdAt: now } })).toBe(0);
  });

  it("answers GET with 405 method_not_allowed and Allow", async () => {
    const response = await fetch(`${server.url}/public/v1/enquiries`);
    await expectIntakeError(response, 405, "method_not_allowed");
    expect(response.headers.get("allow")).toBe("POST, OPTIONS");
  });
});

describe("CORS", () => {
  it("echoes the site origin on a POST from it", async () => {
    const response = await postEnquiry(valid, { origin: siteOrigin() });
    await expectCreated(response);
    expect(response.headers.get("access-control-allow-origin")).toBe(siteOrigin());
    expect(response.headers.get("vary")).toBe("Origin");
  });

  it("gives another origin no Access-Control-Allow-Origin, on successes and errors alike", async () => {
    const accepted = await postEnquiry(valid, { origin: EVIL_ORIGIN });
    await expectCreated(accepted);
    expect(accepted.headers.get("access-control-allow-origin")).toBeNull();
    const refused = await postEnquiry({ form: "other" }, { origin: EVIL_ORIGIN });
    await expectIntakeError(refused, 422, "form_required", [{ field: "form", reason: "invalid_value" }]);
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("allows a preflight for POST from the site origin only", async () => {
    const preflight = (origin: string) =>
      fetch(`${server.url}/public/v1/enquiries`, { method: "OPTIONS", headers: { origin, "access-control-request-method": "POST" } });
    const site = await preflight(siteOrigin());
    expect(site.status).toBe(204);
    expect(site.headers.get("access-control-allow-origin")).toBe(siteOrigin());
    expect(site.headers.get("access-control-allow-methods")).toBe("POST, OPTIONS");
    const other = await preflight(EVIL_ORIGIN);
    expect(other.status).toBe(204);
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    expect(other.headers.get("access-control-allow-methods")).toBeNull();
  });
});
