// Errors an integrator can act on without reading our source (the bar is Stripe's): each validation problem is a
// sentence naming the field and the rule, a range names the range of the endpoint that answered (partner
// applications and the public Business Loan quote are two scales, spec 2.2 and 4.8), a body that is empty or
// not an object says so, and a key sent where an access token belongs says where to exchange it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "@/lib/env";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError, jsonRequest } from "../../helpers/http";
import { basicAuthorization, bearer, createTestProject, mintToken } from "../../helpers/partner";

let server: AppServer;
let project: ProjectCredentials;
let token: string;

beforeAll(async () => {
  server = await startAppServer();
  project = await createTestProject();
  token = await mintToken(server.url, project);
});
afterAll(() => server?.close());

const valid = { business: { company_number: "12345678" }, amount_pence: 5_000_000, term_months: 24, applicant: { email: "director@example.co.uk" } };

const createApplication = (body: unknown) => fetch(`${server.url}/partner/v1/applications`, bearer(token, jsonRequest("POST", body)));
const AMOUNT_RANGE = "amount_pence must be between 100000 and 25000000 (£1,000 to £250,000) for a partner application.";
const TERM_RANGE = "term_months must be between 3 and 60 for a partner application.";

describe("POST /partner/v1/applications: validation messages", () => {
  it.each([
    ["an amount under £1,000", { amount_pence: 99_999 }, { field: "amount_pence", reason: "too_small", message: AMOUNT_RANGE }],
    ["an amount over £250,000", { amount_pence: 25_000_001 }, { field: "amount_pence", reason: "too_large", message: AMOUNT_RANGE }],
    ["an amount in pounds and pence", { amount_pence: 5000.5 }, { field: "amount_pence", reason: "not_integer", message: "amount_pence must be an integer, not 5000.5." }],
    ["an amount as a string", { amount_pence: "5000000" }, { field: "amount_pence", reason: "invalid_type", message: "amount_pence must be an integer, not a string." }],
    ["a term of 2 months", { term_months: 2 }, { field: "term_months", reason: "too_small", message: TERM_RANGE }],
    ["a term of 61 months", { term_months: 61 }, { field: "term_months", reason: "too_large", message: TERM_RANGE }],
    ["an unknown purpose", { purpose: "yacht" }, { field: "purpose", reason: "invalid_value", message: "purpose must be one of working_capital, asset_finance, expansion, refinance or stock." }],
    ["a bad applicant email", { applicant: { email: "director" } }, { field: "applicant.email", reason: "invalid_email", message: "applicant.email must be an email address, such as name@example.co.uk." }],
    ["a redirect_uri that is not a URL", { redirect_uri: "somewhere" }, { field: "redirect_uri", reason: "invalid_url", message: "redirect_uri must be a full URL, such as https://example.com/path." }],
    ["an empty reference", { reference: "" }, { field: "reference", reason: "too_small", message: "reference must not be empty." }],
    ["a malformed company number", { business: { company_number: "sc123456" } }, { field: "business.company_number", reason: "invalid_format", message: "business.company_number must be 8 characters: 8 digits, or 2 capital letters and 6 digits (12345678, SC123456)." }],
    ["an introduction id of the wrong kind", { introduction_id: "app_123" }, { field: "introduction_id", reason: "invalid_format", message: "introduction_id must be an introduction's id: intro_ followed by lower-case letters and digits." }],
    ["a business that is a string", { business: "12345678" }, { field: "business", reason: "invalid_type", message: "business must be an object, not a string." }],
  ])("answers %s with a sentence naming the field and the rule", async (_, change, item) => {
    const body = await expectApiError(await createApplication({ ...valid, ...change }), 422, "validation_failed");
    expect(body.error.detail).toEqual([item]);
    expect(body.error.message).toBe(item.message);
  });

  it("reports a missing field as required, and every problem in the top-level message", async () => {
    const { term_months: _, ...withoutTerm } = valid;
    const body = await expectApiError(await createApplication({ ...withoutTerm, amount_pence: 1 }), 422, "validation_failed");
    expect(body.error.detail).toEqual([
      { field: "amount_pence", reason: "too_small", message: AMOUNT_RANGE },
      { field: "term_months", reason: "required", message: "term_months is required." },
    ]);
    expect(body.error.message).toBe(`${AMOUNT_RANGE} term_months is required.`);
  });

  it("names an unknown field and the fields the endpoint accepts", async () => {
    const body = await expectApiError(await createApplication({ ...valid, amount: 5000 }), 400, "unknown_field");
    expect(body.error.detail).toEqual([
      {
        field: "amount",
        reason: "unknown_field",
        message:
          "Unknown field `amount`: the fields accepted here are business, amount_pence, term_months, purpose, product, applicant, redirect_uri, reference, introduction_id, sub_account_id and metadata.",
      },
    ]);
  });
});

describe("a body that is empty or not a JSON object", () => {
  const send = (raw: string) =>
    fetch(`${server.url}/partner/v1/applications`, bearer(token, { method: "POST", headers: { "content-type": "application/json" }, body: raw }));

  it("says an empty body is empty", async () => {
    const body = await expectApiError(await send(""), 422, "validation_failed");
    expect(body.error.detail).toEqual([{ reason: "required", message: "The request body is empty: send a JSON object." }]);
    expect(body.error.message).toBe("The request body is empty: send a JSON object.");
  });

  it.each([
    ["an array", "[]", "an array"],
    ["a string", '"hello"', "a string"],
    ["a number", "42", "a number"],
    ["null", "null", "null"],
  ])("says a body that is %s must be a JSON object", async (_, raw, kind) => {
    const body = await expectApiError(await send(raw), 422, "validation_failed");
    expect(body.error.detail).toEqual([{ reason: "invalid_type", message: `The request body must be a JSON object, not ${kind}.` }]);
  });
});

describe("GET /public/v1/quote/onetime: the other scale", () => {
  it("names the public Business Loan's £50 to £500 range, not the partner application's", async () => {
    const body = await expectApiError(await fetch(`${server.url}/public/v1/quote/onetime?amount=1000&term=12`), 422, "validation_failed");
    expect(body.error.detail).toEqual([
      { field: "amount", reason: "too_large", message: "amount must be between 50 and 500 pounds (£50 to £500) for a Business Loan quote." },
      { field: "term", reason: "too_small", message: "term must be between 14 and 84 days for a Business Loan quote." },
    ]);
  });

  it("names the query parameter and the rule for a value that is not a number", async () => {
    const body = await expectApiError(await fetch(`${server.url}/public/v1/quote/onetime?amount=lots&term=28`), 422, "validation_failed");
    expect(body.error.detail).toEqual([{ field: "amount", reason: "invalid_type", message: "amount must be a number." }]);
  });
});

describe("a key sent where an access token belongs", () => {
  const SECRET_KEY_MESSAGE =
    "A secret key cannot call the API directly: exchange it for an access token at POST /partner/v1/oauth/token (grant_type=client_credentials, your client_id and this key as client_secret), then send Authorization: Bearer <access_token>.";

  it("answers a secret key as the bearer token with 401 pointing to the token endpoint", async () => {
    const response = await fetch(`${server.url}/partner/v1/applications`, bearer(project.sandbox.secret_key));
    const body = await expectApiError(response, 401, "unauthenticated");
    expect(body.error.message).toBe(SECRET_KEY_MESSAGE);
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer realm="partner", resource_metadata="${config().HUB_URL}/.well-known/oauth-protected-resource", error="invalid_token", error_description="${SECRET_KEY_MESSAGE}"`,
    );
    expect(JSON.stringify(body)).not.toContain(project.sandbox.secret_key);
  });

  it("answers a live secret key, and one sent without the Bearer scheme, the same way", async () => {
    const live = await expectApiError(await fetch(`${server.url}/partner/v1/applications`, bearer(project.live.secret_key)), 401, "unauthenticated");
    expect(live.error.message).toBe(SECRET_KEY_MESSAGE);
    const bare = await fetch(`${server.url}/partner/v1/applications`, { headers: { authorization: project.sandbox.secret_key } });
    expect((await expectApiError(bare, 401, "unauthenticated")).error.message).toBe(SECRET_KEY_MESSAGE);
  });

  it("answers a publishable key with 401 saying what it is for and where an access token comes from", async () => {
    const body = await expectApiError(await fetch(`${server.url}/partner/v1/applications`, bearer(project.sandbox.publishable_key)), 401, "unauthenticated");
    expect(body.error.message).toBe(
      "A publishable key cannot call the partner API: it only starts the hosted apply widget in a browser. Get an access token at POST /partner/v1/oauth/token with your client_id and a secret key (sk_...), then send Authorization: Bearer <access_token>.",
    );
  });

  it("answers a missing token with 401 naming the header and the token endpoint", async () => {
    const body = await expectApiError(await fetch(`${server.url}/partner/v1/applications`), 401, "unauthenticated");
    expect(body.error.message).toBe("Send an access token: Authorization: Bearer <access_token>, from POST /partner/v1/oauth/token.");
  });

  it("still accepts the access token the secret key is exchanged for", async () => {
    const response = await fetch(`${server.url}/partner/v1/applications`, bearer(token));
    expect(response.status).toBe(200);
  });
});

describe("POST /partner/v1/oauth/token: the form's problems in RFC 6749 terms", () => {
  const requestToken = (form: string) =>
    fetch(`${server.url}/partner/v1/oauth/token`, {
      method: "POST",
      headers: { authorization: basicAuthorization(project.client_id, project.sandbox.secret_key), "content-type": "application/x-www-form-urlencoded" },
      body: form,
    });

  it("names a missing grant_type once, in a sentence", async () => {
    const response = await requestToken("scope=applications:read");
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "invalid_request", error_description: "grant_type is required." });
  });

  it("lists the grant types for one it does not know", async () => {
    const response = await requestToken("grant_type=password");
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "unsupported_grant_type", error_description: expect.stringContaining("client_credentials") });
  });
});
