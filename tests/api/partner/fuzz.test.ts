// Property: no request to a partner endpoint is answered with a 5xx, whatever its path ids, query, body and
// headers hold. Requests are drawn from each endpoint's own schemas and a valid request per endpoint, mixed with
// hostile values (tests/helpers/request-fuzz.ts), with a token holding every scope; the caller's own objects
// (applications in three states, their decisions, a webhook endpoint, two keys, an event, two accounts) are in the pool of ids,
// so updates, actions and cursors reach the database. Seeded: every run sends the same requests. The clock is frozen far in
// the future, so the webhook deliveries these requests make are never due for another file's real-clock sweeps
// (and the dates of birth in the identity checks are of the 22nd century). The project has the white_label
// capability, so requests reach the identity endpoints' code.
import { afterAll, beforeAll, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import type { RegisteredEndpoint } from "@/lib/http/route-registry";
import { changeProjectCapabilities } from "@/lib/projects/capabilities";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectJson, jsonRequest } from "../../helpers/http";
import { bearer, createTestProject, mintToken, untilDecided } from "../../helpers/partner";
import { assertNoServerError, requestsTo, type FuzzContext } from "../../helpers/request-fuzz";
import { loadAllEndpoints } from "../../helpers/routes";

// The property is about faults, not limits: a 429 would only stop requests from reaching the code under test.
process.env.RATE_LIMIT_SCALE = "1000";

const T0 = "2027-05-01T00:00:00.000Z";
const SEED = 20_261_201;
const NUM_RUNS = 1_000;

let server: AppServer;
let endpoints: RegisteredEndpoint[];
let context: FuzzContext;

beforeAll(async () => {
  freezeClock(T0);
  server = await startAppServer();
  endpoints = (await loadAllEndpoints()).filter((declared) => declared.ring === "partner");
  const project = await createTestProject();
  await changeProjectCapabilities(db(), project.project_id, { enable: ["white_label"] });
  const token = await mintToken(server.url, project);
  const objects = await createRealObjects(token);
  const disposable = await createDisposableObjects(token);
  context = {
    root: "/partner/v1",
    known: [...Object.values(objects), ...disposable, ...meaningfulStrings(project, token)],
    disposable,
    authorization: `Bearer ${token}`,
    examples: validRequests(project, token, objects),
  };
});
afterAll(() => server?.close());

async function call(token: string, method: string, path: string, body?: unknown): Promise<Record<string, any>> {
  const response = await fetch(`${server.url}/partner/v1${path}`, bearer(token, body === undefined ? { method } : jsonRequest(method, body)));
  return expectJson(response, response.status === 201 ? 201 : 200);
}

interface RealObjects {
  /** Applications in three states: created, approved, and in review with a referred decision. */
  createdApplicationId: string;
  approvedApplicationId: string;
  referredApplicationId: string;
  approvedDecisionId: string;
  referredDecisionId: string;
  webhookEndpointId: string;
  keyId: string;
  /** A publishable key, whose allowed origins POST /keys/{id} changes. */
  publishableKeyId: string;
  eventId: string;
  /** A funded term loan and a Flex facility, so the accounts endpoints reach real rows. */
  termAccountId: string;
  flexAccountId: string;
}

async function createApplication(token: string, companyNumber: string, product = "business_loan"): Promise<string> {
  const body = { business: { company_number: companyNumber }, amount_pence: 500_000, term_months: 12, product, applicant: { email: "director@example.co.uk" } };
  return (await call(token, "POST", "/applications", body)).id;
}

async function fundedAccount(token: string, product: string): Promise<string> {
  const applicationId = await createApplication(token, "12345678", product);
  await decide(token, applicationId);
  return (await call(token, "POST", `/test_helpers/applications/${applicationId}/fund`)).account_id;
}

/** Submits the application and returns its decision's id once decided. */
async function decide(token: string, applicationId: string): Promise<string> {
  await call(token, "POST", `/test_helpers/applications/${applicationId}/submit`);
  return (await untilDecided(applicationId, () => call(token, "GET", `/applications/${applicationId}`))).decision;
}

/** The caller's own objects for the drawn requests to act on (docs/sandbox.md: a number's last digits choose the decision). */
async function createRealObjects(token: string): Promise<RealObjects> {
  const approvedApplicationId = await createApplication(token, "12345678");
  const referredApplicationId = await createApplication(token, "12340006");
  return {
    createdApplicationId: await createApplication(token, "12340007"),
    approvedApplicationId,
    referredApplicationId,
    approvedDecisionId: await decide(token, approvedApplicationId),
    referredDecisionId: await decide(token, referredApplicationId),
    webhookEndpointId: (await call(token, "POST", "/webhook_endpoints", { url: "https://93.184.215.14/hooks", enabled_events: ["*"] })).id,
    keyId: (await call(token, "POST", "/keys", { type: "secret" })).id,
    publishableKeyId: (await call(token, "POST", "/keys", { type: "publishable", allowed_origins: ["https://partner.example"] })).id,
    eventId: (await call(token, "GET", "/events?limit=1")).data[0].id,
    termAccountId: await fundedAccount(token, "business_loan"),
    flexAccountId: await fundedAccount(token, "flex"),
  };
}

/** A webhook endpoint and a key for the DELETE routes to remove. */
async function createDisposableObjects(token: string): Promise<string[]> {
  const webhookEndpoint = await call(token, "POST", "/webhook_endpoints", { url: "https://93.184.215.14/disposable", enabled_events: ["*"] });
  const key = await call(token, "POST", "/keys", { type: "publishable" });
  return [webhookEndpoint.id, key.id];
}

/** Values the partner API gives meaning to: sandbox company numbers (docs/sandbox.md), URLs, events, credentials. */
function meaningfulStrings(project: ProjectCredentials, token: string): string[] {
  return [
    "1", "20", "100", "12345678", "00000000", "ST123456", "12349991", "OC123456", "12340006", "12340007",
    "https://93.184.215.14/hooks", "http://localhost:3000/back", "https://169.254.169.254/", "*", "application.created",
    "director@example.co.uk", "intro_abc123", "2027-01-01T00:00:00Z", "client_credentials", "partner/v1",
    project.client_id, project.sandbox.secret_key, project.sandbox.publishable_key, token,
  ];
}

/** A valid request to each endpoint that takes a body or a query, the seeds of the drawn requests. */
function validRequests(project: ProjectCredentials, token: string, objects: RealObjects): FuzzContext["examples"] {
  const credentials = { client_id: project.client_id, client_secret: project.sandbox.secret_key };
  return {
    "GET /accounts": { query: { status: "performing", sub_account_id: "sub_abc", limit: "2", starting_after: objects.termAccountId } },
    "GET /accounts/{id}/transactions": { query: { limit: "5" } },
    "POST /accounts/{id}/drawdowns": { body: { amount_pence: 1_000 } },
    "GET /applications": { query: { status: "created", reference: "order-1", created_after: "2026-01-01T00:00:00Z", limit: "2" } },
    "GET /events": { query: { type: "application.created", limit: "3", starting_after: objects.eventId } },
    "GET /events/stream": { query: { types: "application.created,decision.completed" } },
    "GET /keys": { query: { type: "secret", status: "active", limit: "5" } },
    "GET /webhook_endpoints": { query: { limit: "1", ending_before: objects.webhookEndpointId } },
    "POST /applications": {
      body: {
        business: { company_number: "12345678" },
        amount_pence: 500_000,
        term_months: 12,
        purpose: "stock",
        product: "flex",
        applicant: { email: "director@example.co.uk", first_name: "Ada" },
        redirect_uri: "https://partner.example/back",
        reference: "order-1",
        metadata: { order: "1", "🙂": "é" },
      },
    },
    "POST /applications/{id}/withdraw": { body: { reason: "Found other finance" } },
    "POST /applications/{id}/consents": { body: { consents: [{ type: "credit_search", text_version: "2026-11-01" }, { type: "terms", text_version: "2026-11-01" }] } },
    "POST /applications/{id}/affordability": { body: { monthly_turnover_pence: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 2_000_000_000] } },
    "POST /applications/{id}/accept": { body: { signatory_name: "Ada Lovelace" } },
    "POST /applications/{id}/submit": { body: { declared_annual_turnover_pence: 50_000_000 } },
    "POST /events/{id}/replay": { body: { endpoint_id: objects.webhookEndpointId } },
    "POST /identity/checks": {
      body: {
        application_id: objects.createdApplicationId,
        people: [
          { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1989-12-10", role: "director" },
          { first_name: "Alan", last_name: "Review", date_of_birth: "1990-06-23", role: "psc" },
        ],
      },
    },
    "POST /keys": { body: { type: "publishable", environment: "sandbox" } },
    "POST /keys/{id}": { body: { allowed_origins: ["https://partner.example", "http://localhost:3000"] } },
    "POST /keys/{id}/roll": { body: { overlap_hours: 1 } },
    "POST /oauth/introspect": { body: { token, ...credentials } },
    "POST /oauth/token": { body: { grant_type: "client_credentials", scope: "events:read", ...credentials } },
    "POST /test_helpers/applications/{id}/submit": { body: { declared_annual_turnover_pence: 50_000_000 } },
    "POST /test_helpers/decisions/{id}/resolve_referral": { body: { outcome: "declined", reason: "affordability" } },
    "POST /webhook_endpoints": { body: { url: "https://93.184.215.14/hooks", enabled_events: ["application.created"], description: "Orders", api_version: "2026-11-01", metadata: { team: "a" } } },
    "POST /webhook_endpoints/{id}": { body: { url: "https://93.184.215.15/hooks", enabled_events: ["*"], description: null, metadata: {}, disabled: false } },
    "POST /webhook_endpoints/{id}/roll_secret": { body: { overlap_hours: 0 } },
    "POST /webhook_endpoints/{id}/recover": { body: { since: new Date(Date.now() - 3_600_000).toISOString() } },
  };
}

it("answers no request to any partner endpoint with a 5xx", async () => {
  expect(endpoints.length).toBeGreaterThanOrEqual(29);
  await assertNoServerError(server.url, requestsTo(endpoints, context), { seed: SEED, numRuns: NUM_RUNS });
}, 120_000);
