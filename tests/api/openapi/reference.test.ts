// The API reference (lib/openapi): every route is in its ring's document, the documents are valid OpenAPI 3.1
// (a maintained validator) with every $ref resolving, they are served with the server's origin, and what each
// partner and public route returns for a sample request matches the schema the reference documents for it.
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { savePage } from "@/lib/cms/service";
import { db } from "@/lib/db";
import { changeProjectCapabilities } from "@/lib/projects/capabilities";
import type { Ring } from "@/lib/errors";
import type { RegisteredEndpoint } from "@/lib/http/route-registry";
import { errorCodesOf, openApiDocument } from "@/lib/openapi/document";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { writeOpenApiDocuments } from "../../../scripts/openapi";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectJson, jsonRequest } from "../../helpers/http";
import { bearer, createTestProject, mintToken, untilDecided } from "../../helpers/partner";
import { loadAllEndpoints } from "../../helpers/routes";

// The samples create applications faster than one project's 5 a second; the limits have their own tests.
process.env.RATE_LIMIT_SCALE = "100";

type Document = ReturnType<typeof openApiDocument>;
type Operation = { summary?: string; responses: Record<string, { content?: Record<string, { schema: unknown }> }>; security?: unknown[] };

const RINGS: Ring[] = ["partner", "public", "site"];
const PREFIX: Record<Ring, string> = { partner: "/partner/v1", public: "/public/v1", site: "" };

let endpoints: RegisteredEndpoint[];
const documents = {} as Record<Ring, Document>;

beforeAll(async () => {
  endpoints = await loadAllEndpoints();
  for (const ring of RINGS) documents[ring] = openApiDocument(ring, endpoints, "http://127.0.0.1:3000");
});

function operationOf(endpoint: RegisteredEndpoint): Operation | undefined {
  return documents[endpoint.ring].paths[endpoint.path]?.[endpoint.method.toLowerCase()] as Operation | undefined;
}

describe("the documents", () => {
  it("has every route of every ring, each with a summary and its replies", () => {
    expect(endpoints.length).toBeGreaterThan(40);
    const undocumented = endpoints.filter((endpoint) => !operationOf(endpoint)).map(({ ring, method, path }) => `${ring} ${method} ${path}`);
    expect(undocumented).toEqual([]);
    const incomplete = endpoints
      .filter(({ config }) => !config.summary || Object.keys(config.responses ?? {}).length === 0)
      .map(({ ring, method, path }) => `${ring} ${method} ${path}`);
    expect(incomplete).toEqual([]);
  });

  it("documents nothing that is not a route", () => {
    for (const ring of RINGS) {
      const documented = Object.entries(documents[ring].paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
      const routes = endpoints.filter((endpoint) => endpoint.ring === ring).map(({ method, path }) => `${method} ${path}`);
      expect(documented.sort()).toEqual(routes.sort());
    }
  });

  it.each(RINGS)("%s is valid OpenAPI 3.1.0, version 1.0.0, with every $ref resolving", async (ring) => {
    const document = documents[ring];
    expect(document.openapi).toBe("3.1.0");
    expect((document.info as { version: string }).version).toBe("1.0.0");
    const result = await new Validator().validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    const references = [...JSON.stringify(document).matchAll(/"\$ref":"#\/([^"]+)"/g)].map((match) => match[1]!);
    expect(references.length).toBeGreaterThan(0);
    const unresolved = references.filter((reference) => reference.split("/").reduce<any>((node, key) => node?.[key.replace(/~1/g, "/").replace(/~0/g, "~")], document) === undefined);
    expect(unresolved).toEqual([]);
  });

  it("shows examples of real values: none holds the safe-integer bound zod gives every integer, or any number out of a lender's range", () => {
    const exampleNumbers: number[] = [];
    const collect = (node: unknown, inExample: boolean): void => {
      if (typeof node === "number" && inExample) exampleNumbers.push(node);
      if (node === null || typeof node !== "object") return;
      for (const [key, value] of Object.entries(node)) collect(value, inExample || key === "example" || key === "examples");
    };
    for (const ring of RINGS) {
      expect(JSON.stringify(documents[ring])).not.toContain(String(Number.MAX_SAFE_INTEGER));
      collect(documents[ring], false);
    }
    expect(exampleNumbers.length).toBeGreaterThan(50);
    expect(exampleNumbers.filter((value) => Math.abs(value) > 10_000_000_000)).toEqual([]);
  });

  it("shows an application of a size we lend as the example of POST /applications' 201", () => {
    const created = documents.partner.paths["/applications"]!.post as { responses: Record<string, { content: Record<string, { example: { amount_pence: number; term_months: number } }> }> };
    const { amount_pence, term_months } = created.responses["201"]!.content["application/json"]!.example;
    expect(amount_pence).toBeGreaterThanOrEqual(100_000);
    expect(amount_pence).toBeLessThanOrEqual(25_000_000);
    expect(term_months).toBeGreaterThanOrEqual(3);
    expect(term_months).toBeLessThanOrEqual(60);
  });

  it("gives each operation a unique id", () => {
    for (const ring of RINGS) {
      const ids = Object.values(documents[ring].paths).flatMap((methods) => Object.values(methods).map((operation) => (operation as { operationId: string }).operationId));
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it("documents the guards of an endpoint: scope, limits, idempotency and the errors they imply", () => {
    const create = documents.partner.paths["/applications"]!.post as Operation & { description: string; parameters: unknown[]; "x-scope": string; "x-rate-limit": { ratePerSecond: number } };
    expect(create.security).toEqual([{ partnerToken: ["apply:write"] }]);
    expect(create["x-scope"]).toBe("apply:write");
    expect(create["x-rate-limit"].ratePerSecond).toBe(5);
    expect(create.parameters).toContainEqual({ $ref: "#/components/parameters/IdempotencyKey" });
    expect(create.description).toContain("5 requests per second per project");
    expect(Object.keys(create.responses).sort()).toEqual(["201", "400", "401", "403", "409", "413", "415", "422", "429", "500", "503"]);
    const endpoint = endpoints.find(({ ring, method, path }) => ring === "partner" && method === "POST" && path === "/applications")!;
    expect(errorCodesOf("partner", endpoint)).toEqual(expect.arrayContaining(["idempotency_key_reused", "insufficient_scope", "unknown_field", "validation_failed", "rate_limited"]));
    const token = documents.partner.paths["/oauth/token"]!.post as Operation;
    expect(token.security).toEqual([{ clientSecretBasic: [] }, {}]);
    expect(JSON.stringify(token.responses["400"])).toContain("#/components/schemas/OAuthError");
    const products = documents.public.paths["/products"]!.get as Operation & { description: string };
    expect(products.description).toContain("60 requests per 60 seconds per client address");
  });
});

describe("GET /openapi/{document}", () => {
  let server: AppServer;

  beforeAll(async () => {
    await writeOpenApiDocuments();
    server = await startAppServer();
  });
  afterAll(() => server?.close());

  it.each([
    ["partner.json", "Partner API", "/partner/v1"],
    ["public.json", "Public API", "/public/v1"],
    ["site.json", "Site interface", ""],
  ])("serves %s with this server's origin", async (file, title, basePath) => {
    const response = await fetch(`${server.url}/openapi/${file}`);
    const document = await expectJson(response, 200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(document.openapi).toBe("3.1.0");
    expect(document.info.title).toBe(title);
    expect(document.servers).toEqual([{ url: `http://localhost:3000${basePath}` }]);
  });

  it("answers 404 for a document that does not exist", async () => {
    const body = await expectJson(await fetch(`${server.url}/openapi/internal.json`), 404);
    expect(body.error.code).toBe("not_found");
  });
});

/** A request to make against a route, and the status its documented reply has. */
interface Sample {
  path: string;
  init?: RequestInit;
  status: number;
}

describe("each route's reply matches its documented schema", () => {
  let server: AppServer;
  let project: ProjectCredentials;
  let token: string;
  const fixture = {} as { approved: Record<string, any>; created: Record<string, any>; referredDecision: string; endpoint: string; event: string; key: string; account: string; facility: string; subAccount: string; payout: string };
  // Figures like 0.0001 are multiples of 0.0001 only to a precision binary floating point lacks.
  const ajv = new Ajv2020({ strict: false, allErrors: true, multipleOfPrecision: 8 });
  addFormats.default(ajv);

  const partner = (method: string, body?: unknown, headers: Record<string, string> = {}) =>
    bearer(token, body === undefined ? { method, headers } : jsonRequest(method, body, headers));
  const APPLICANT = { applicant: { email: "director@example.co.uk", first_name: "Ada" } };
  const createApplication = async (companyNumber: string, product = "business_loan", more: Record<string, unknown> = {}) =>
    expectJson(
      await fetch(`${server.url}/partner/v1/applications`, partner("POST", { business: { company_number: companyNumber }, amount_pence: 2_000_000, term_months: 12, product, ...APPLICANT, ...more })),
      201,
    );
  /** A created application whose applicant has given every consent (the white-label flow). */
  const consented = async (companyNumber: string) => {
    const application = await createApplication(companyNumber);
    const consents = ["credit_search", "data_sharing", "terms"].map((type) => ({ type, text_version: "2026-11-01" }));
    await expectJson(await fetch(`${server.url}/partner/v1/applications/${application.id}/consents`, partner("POST", { consents })), 201);
    return application;
  };
  const submitted = async (companyNumber: string, product?: string, more?: Record<string, unknown>) => {
    const application = await createApplication(companyNumber, product, more);
    await expectJson(await fetch(`${server.url}/partner/v1/test_helpers/applications/${application.id}/submit`, partner("POST")), 200);
    return untilDecided(application.id, async () => expectJson(await fetch(`${server.url}/partner/v1/applications/${application.id}`, partner("GET")), 200));
  };

  beforeAll(async () => {
    server = await startAppServer();
    project = await createTestProject();
    await changeProjectCapabilities(db(), project.project_id, { enable: ["white_label", "beta"] });
    token = await mintToken(server.url, project);
    fixture.approved = await submitted("12345678");
    fixture.created = await createApplication("23456789");
    fixture.referredDecision = (await submitted("34560006")).decision;
    const endpoint = await expectJson(await fetch(`${server.url}/partner/v1/webhook_endpoints`, partner("POST", { url: "https://93.184.215.14/hooks", enabled_events: ["*"] })), 201);
    fixture.endpoint = endpoint.id;
    fixture.event = (await expectJson(await fetch(`${server.url}/partner/v1/events?limit=1`, partner("GET")), 200)).data[0].id;
    fixture.key = (await expectJson(await fetch(`${server.url}/partner/v1/keys`, partner("POST", { type: "publishable" })), 201)).id;
    const fund = async (application: Record<string, any>) =>
      (await expectJson(await fetch(`${server.url}/partner/v1/test_helpers/applications/${application.id}/fund`, partner("POST")), 200)).account_id as string;
    fixture.account = await fund(await submitted("89012345"));
    fixture.facility = await fund(await submitted("90123456", "flex"));
    fixture.subAccount = (await expectJson(await fetch(`${server.url}/partner/v1/sub-accounts`, partner("POST", { name: "Northside Brokers" })), 201)).id;
    await fund(await submitted("91234567", "business_loan", { sub_account_id: fixture.subAccount }));
    fixture.payout = (await expectJson(await fetch(`${server.url}/partner/v1/test_helpers/payouts/run`, partner("POST")), 200)).data[0].id;
  });
  afterAll(() => server?.close());

  const form = (fields: Record<string, string>, authorization?: string): RequestInit => ({
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(authorization ? { authorization } : {}) },
    body: new URLSearchParams(fields),
  });
  const paymentLink = async () => expectJson(await fetch(`${server.url}/partner/v1/payments/links`, partner("POST", { account_id: fixture.account, amount_pence: 500 })), 201);
  const basic = () => `Basic ${Buffer.from(`${project.client_id}:${project.sandbox.secret_key}`).toString("base64")}`;

  /** One sample per partner and public endpoint, in the order the reference lists them. */
  const SAMPLES: Record<string, () => Promise<Sample> | Sample> = {
    "partner GET /applications": () => ({ path: "/applications?limit=2", init: partner("GET"), status: 200 }),
    "partner POST /applications": () => ({
      path: "/applications",
      init: partner("POST", { business: { company_number: "45678901" }, amount_pence: 1_500_000, term_months: 6, reference: "sample", metadata: { order: "42" }, ...APPLICANT }, { "Idempotency-Key": crypto.randomUUID() }),
      status: 201,
    }),
    "partner GET /applications/{id}": () => ({ path: `/applications/${fixture.approved.id}`, init: partner("GET"), status: 200 }),
    "partner POST /applications/{id}/consents": async () => ({
      path: `/applications/${(await createApplication("35792468")).id}/consents`,
      init: partner("POST", { consents: [{ type: "credit_search", text_version: "2026-11-01" }] }, { "Idempotency-Key": crypto.randomUUID() }),
      status: 201,
    }),
    "partner POST /applications/{id}/affordability": async () => ({
      path: `/applications/${(await createApplication("46813579")).id}/affordability`,
      init: partner("POST", { source: "sandbox_bank" }),
      status: 201,
    }),
    "partner POST /applications/{id}/submit": async () => ({ path: `/applications/${(await consented("57924680")).id}/submit`, init: partner("POST"), status: 200 }),
    "partner POST /applications/{id}/accept": async () => {
      const application = await consented("68035791");
      await expectJson(await fetch(`${server.url}/partner/v1/applications/${application.id}/submit`, partner("POST")), 200);
      await untilDecided(application.id, async () => expectJson(await fetch(`${server.url}/partner/v1/applications/${application.id}`, partner("GET")), 200));
      return { path: `/applications/${application.id}/accept`, init: partner("POST", { signatory_name: "Ada Lovelace" }), status: 200 };
    },
    "partner GET /accounts": () => ({ path: "/accounts?limit=2", init: partner("GET"), status: 200 }),
    "partner GET /mcp": () => ({ path: "/mcp", init: partner("GET"), status: 200 }),
    "partner POST /mcp": () => ({
      path: "/mcp",
      init: partner("POST", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "loan_status", arguments: { account_id: fixture.account } } }),
      status: 200,
    }),
    "partner GET /accounts/{id}": () => ({ path: `/accounts/${fixture.account}`, init: partner("GET"), status: 200 }),
    "partner GET /accounts/{id}/balance": () => ({ path: `/accounts/${fixture.account}/balance`, init: partner("GET"), status: 200 }),
    "partner GET /accounts/{id}/transactions": () => ({ path: `/accounts/${fixture.account}/transactions`, init: partner("GET"), status: 200 }),
    "partner POST /accounts/{id}/drawdowns": () => ({ path: `/accounts/${fixture.facility}/drawdowns`, init: partner("POST", { amount_pence: 250_000 }), status: 201 }),
    "partner GET /sub-accounts": () => ({ path: "/sub-accounts?limit=2", init: partner("GET"), status: 200 }),
    "partner POST /sub-accounts": () => ({ path: "/sub-accounts", init: partner("POST", { name: "Southside Brokers", revenue_share_bps: 75 }, { "Idempotency-Key": crypto.randomUUID() }), status: 201 }),
    "partner GET /sub-accounts/{id}": () => ({ path: `/sub-accounts/${fixture.subAccount}`, init: partner("GET"), status: 200 }),
    "partner GET /introductions": () => ({ path: "/introductions?limit=2", init: partner("GET"), status: 200 }),
    "partner GET /payouts": () => ({ path: "/payouts?limit=2", init: partner("GET"), status: 200 }),
    "partner GET /payouts/{id}": () => ({ path: `/payouts/${fixture.payout}`, init: partner("GET"), status: 200 }),
    "partner POST /test_helpers/payouts/run": () => ({ path: "/test_helpers/payouts/run", init: partner("POST"), status: 200 }),
    "partner GET /payments": () => ({ path: "/payments?limit=2", init: partner("GET"), status: 200 }),
    "partner GET /payments/{id}": async () => ({ path: `/payments/${(await paymentLink()).id}`, init: partner("GET"), status: 200 }),
    "partner POST /payments/links": () => ({
      path: "/payments/links",
      init: partner("POST", { account_id: fixture.account, amount_pence: 1_000, reference: "sample", redirect_uri: "https://partner.example/paid", metadata: { order: "42" } }, { "Idempotency-Key": crypto.randomUUID() }),
      status: 201,
    }),
    "partner POST /test_helpers/payments/{id}/settle": async () => ({ path: `/test_helpers/payments/${(await paymentLink()).id}/settle`, init: partner("POST"), status: 200 }),
    "partner POST /test_helpers/payments/{id}/fail": async () => ({ path: `/test_helpers/payments/${(await paymentLink()).id}/fail`, init: partner("POST", { failure_code: "bank_rejected" }), status: 200 }),
    "partner POST /identity/checks": async () => ({
      path: "/identity/checks",
      init: partner("POST", { application_id: (await createApplication("13572468")).id, people: [{ first_name: "Ada", last_name: "Lovelace", date_of_birth: "1980-12-10", role: "director" }] }),
      status: 201,
    }),
    "partner GET /identity/checks/{id}": async () => {
      const check = await expectJson(
        await fetch(`${server.url}/partner/v1/identity/checks`, partner("POST", { application_id: (await createApplication("24681357")).id, people: [{ first_name: "Grace", last_name: "Review", date_of_birth: "1975-01-02", role: "psc" }] })),
        201,
      );
      return { path: `/identity/checks/${check.id}`, init: partner("GET"), status: 200 };
    },
    "partner POST /applications/{id}/withdraw": async () => ({ path: `/applications/${(await createApplication("56789012")).id}/withdraw`, init: partner("POST", { reason: "No longer needed" }), status: 200 }),
    "partner GET /decisions/{id}": () => ({ path: `/decisions/${fixture.approved.decision}`, init: partner("GET"), status: 200 }),
    "partner POST /decisions/{id}/refresh": () => ({ path: `/decisions/${fixture.approved.decision}/refresh`, init: partner("POST"), status: 200 }),
    "partner GET /events": () => ({ path: "/events?limit=3", init: partner("GET"), status: 200 }),
    "partner GET /events/{id}": () => ({ path: `/events/${fixture.event}`, init: partner("GET"), status: 200 }),
    "partner POST /events/{id}/replay": () => ({ path: `/events/${fixture.event}/replay`, init: partner("POST", { endpoint_id: fixture.endpoint }), status: 202 }),
    "partner GET /events/stream": () => ({ path: "/events/stream", init: partner("GET"), status: 200 }),
    "partner GET /keys": () => ({ path: "/keys", init: partner("GET"), status: 200 }),
    "partner POST /keys": () => ({ path: "/keys", init: partner("POST", { type: "secret" }), status: 201 }),
    "partner GET /keys/{id}": () => ({ path: `/keys/${fixture.key}`, init: partner("GET"), status: 200 }),
    "partner POST /keys/{id}": () => ({ path: `/keys/${fixture.key}`, init: partner("POST", { allowed_origins: ["https://shop.example.com", "http://localhost:3000"] }), status: 200 }),
    "partner DELETE /keys/{id}": async () => {
      const key = await expectJson(await fetch(`${server.url}/partner/v1/keys`, partner("POST", { type: "publishable" })), 201);
      return { path: `/keys/${key.id}`, init: partner("DELETE"), status: 200 };
    },
    "partner POST /keys/{id}/roll": () => ({ path: `/keys/${fixture.key}/roll`, init: partner("POST", { overlap_hours: 1 }), status: 201 }),
    "partner POST /oauth/token": () => ({ path: "/oauth/token", init: form({ grant_type: "client_credentials" }, basic()), status: 200 }),
    "partner POST /oauth/introspect": () => ({ path: "/oauth/introspect", init: form({ token }, basic()), status: 200 }),
    "partner GET /oauth/jwks": () => ({ path: "/oauth/jwks", status: 200 }),
    "partner POST /test_helpers/applications/{id}/expire": async () => ({ path: `/test_helpers/applications/${(await createApplication("67890123")).id}/expire`, init: partner("POST"), status: 200 }),
    "partner POST /test_helpers/applications/{id}/fund": async () => ({ path: `/test_helpers/applications/${(await submitted("78901234")).id}/fund`, init: partner("POST"), status: 200 }),
    "partner POST /test_helpers/applications/{id}/submit": () => ({ path: `/test_helpers/applications/${fixture.created.id}/submit`, init: partner("POST"), status: 200 }),
    "partner GET /test_helpers/clock": () => ({ path: "/test_helpers/clock", init: partner("GET"), status: 200 }),
    "partner POST /test_helpers/clock/advance": () => ({ path: "/test_helpers/clock/advance", init: partner("POST", { days: 1 }), status: 200 }),
    "partner POST /test_helpers/decisions/{id}/resolve_referral": () => ({ path: `/test_helpers/decisions/${fixture.referredDecision}/resolve_referral`, init: partner("POST", { outcome: "approved" }), status: 200 }),
    "partner GET /webhook_endpoints": () => ({ path: "/webhook_endpoints", init: partner("GET"), status: 200 }),
    "partner POST /webhook_endpoints": () => ({ path: "/webhook_endpoints", init: partner("POST", { url: "https://93.184.215.14/other", enabled_events: ["application.created"], description: "Sample", metadata: { team: "ops" } }), status: 201 }),
    "partner GET /webhook_endpoints/{id}": () => ({ path: `/webhook_endpoints/${fixture.endpoint}`, init: partner("GET"), status: 200 }),
    "partner POST /webhook_endpoints/{id}": () => ({ path: `/webhook_endpoints/${fixture.endpoint}`, init: partner("POST", { description: "Renamed" }), status: 200 }),
    "partner DELETE /webhook_endpoints/{id}": async () => {
      const created = await expectJson(await fetch(`${server.url}/partner/v1/webhook_endpoints`, partner("POST", { url: "https://93.184.215.14/gone", enabled_events: ["*"] })), 201);
      return { path: `/webhook_endpoints/${created.id}`, init: partner("DELETE"), status: 200 };
    },
    "partner POST /webhook_endpoints/{id}/enable": () => ({ path: `/webhook_endpoints/${fixture.endpoint}/enable`, init: partner("POST"), status: 200 }),
    "partner POST /webhook_endpoints/{id}/roll_secret": () => ({ path: `/webhook_endpoints/${fixture.endpoint}/roll_secret`, init: partner("POST", { overlap_hours: 2 }), status: 200 }),
    "partner POST /webhook_endpoints/{id}/recover": () => ({ path: `/webhook_endpoints/${fixture.endpoint}/recover`, init: partner("POST", { since: new Date(Date.now() - 3_600_000).toISOString() }), status: 202 }),
    "public GET /cms/pages/{key}": async () => {
      await savePage({ key: "openapi-sample", title: "Fees", format: "markdown", source: "# Fees\n\nNo hidden fees.\n", publish: true });
      return { path: "/cms/pages/openapi-sample", status: 200 };
    },
    "public GET /config/pricing": () => ({ path: "/config/pricing", status: 200 }),
    "public POST /consent": () => ({ path: "/consent", init: jsonRequest("POST", { analytics: true, marketing: false, anonymous_id: crypto.randomUUID(), policy_version: "2026-11" }), status: 202 }),
    "public POST /enquiries": () => ({ path: "/enquiries", init: jsonRequest("POST", { form: "enquiry", email: "owner@example.co.uk", name: "Ada", message: "Do you lend to LLPs?" }), status: 201 }),
    "public GET /healthz": () => ({ path: "/healthz", status: 200 }),
    "public GET /loyalty/tiers": () => ({ path: "/loyalty/tiers", status: 200 }),
    "public GET /mcp": () => ({ path: "/mcp", status: 200 }),
    "public POST /mcp": () => ({
      path: "/mcp",
      init: jsonRequest("POST", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_quote", arguments: { amount: 300, term: 28 } } }),
      status: 200,
    }),
    "public GET /products": () => ({ path: "/products", status: 200 }),
    "public GET /quote/flex": () => ({ path: "/quote/flex?limit=2000&draw=500&months=4", status: 200 }),
    "public GET /quote/onetime": () => ({ path: "/quote/onetime?amount=300&term=28&frequency=weekly", status: 200 }),
    "public GET /slice/billers": () => ({ path: "/slice/billers", status: 200 }),
    "public POST /support/chat": () => ({ path: "/support/chat", init: jsonRequest("POST", { message: "How much can I borrow?" }), status: 200 }),
    "public GET /support/widget.css": () => ({ path: "/support/widget.css", status: 200 }),
    "public GET /support/widget.js": () => ({ path: "/support/widget.js", status: 200 }),
  };

  it("has a sample for every partner and public endpoint", () => {
    const keys = endpoints.filter(({ ring }) => ring !== "site").map(({ ring, method, path }) => `${ring} ${method} ${path}`);
    expect(keys.filter((key) => !(key in SAMPLES))).toEqual([]);
    expect(Object.keys(SAMPLES).filter((key) => !keys.includes(key))).toEqual([]);
  });

  /** The documented schema of one reply, compiled against its document. */
  function validatorFor(ring: Ring, endpoint: RegisteredEndpoint, status: number) {
    const id = `reference-${ring}`;
    if (!ajv.getSchema(id)) ajv.addSchema(documents[ring], id);
    const operation = operationOf(endpoint)!;
    const [mediaType] = Object.keys(operation.responses[String(status)]?.content ?? {});
    expect(mediaType, `${endpoint.method} ${endpoint.path} documents no ${status} reply`).toBeDefined();
    const pointer = ["paths", endpoint.path, endpoint.method.toLowerCase(), "responses", String(status), "content", mediaType!, "schema"]
      .map((part) => part.replace(/~/g, "~0").replace(/\//g, "~1"))
      .join("/");
    return { mediaType: mediaType!, validate: ajv.compile({ $ref: `${id}#/${pointer}` }) };
  }

  /** The reply's body: JSON parsed, text as it is; a stream's first block only. */
  async function bodyOf(response: Response, mediaType: string): Promise<unknown> {
    if (mediaType === "text/event-stream") {
      const reader = response.body!.getReader();
      const { value } = await reader.read();
      await reader.cancel();
      return new TextDecoder().decode(value);
    }
    const text = await response.text();
    return mediaType === "application/json" ? JSON.parse(text) : text;
  }

  it.each(Object.keys(SAMPLES))("%s", async (key) => {
    const [ring, method, path] = key.split(" ") as [Ring, string, string];
    const endpoint = endpoints.find((candidate) => candidate.ring === ring && candidate.method === method && candidate.path === path)!;
    const sample = await SAMPLES[key]!();
    const response = await fetch(`${server.url}${PREFIX[ring]}${sample.path}`, { method, ...sample.init });
    const { mediaType, validate } = validatorFor(ring, endpoint, sample.status);
    if (response.status !== sample.status) expect(await response.text()).toBe(`a ${sample.status} reply`);
    expect(response.headers.get("content-type")).toContain(mediaType);
    const body = await bodyOf(response, mediaType);
    expect(validate(body) ? [] : JSON.stringify(validate.errors)).toEqual([]);
  });

  it("documents the error a scoped partner route answers without a token", async () => {
    for (const endpoint of endpoints.filter(({ ring, config }) => ring === "partner" && config.auth.kind === "bearer")) {
      const concrete = endpoint.path.replace("{id}", "app_00000000000000000000000000");
      const response = await fetch(`${server.url}/partner/v1${concrete}`, { method: endpoint.method });
      const { validate } = validatorFor("partner", endpoint, 401);
      expect(response.status).toBe(401);
      const body = await response.json();
      expect(validate(body) ? [] : validate.errors).toEqual([]);
      expect(body.error.code).toBe("unauthenticated");
    }
  });

  it("holds an error's code to the codes documented for its status", async () => {
    const endpoint = endpoints.find(({ ring, method, path }) => ring === "partner" && method === "POST" && path === "/applications")!;
    const { validate } = validatorFor("partner", endpoint, 400);
    const body = await expectJson(await fetch(`${server.url}/partner/v1/applications`, partner("POST", { business: { company_number: "12345678" }, amount_pence: 100_000, term_months: 3, colour: "red" })), 400);
    expect(validate(body)).toBe(true);
    expect(validate({ error: { ...body.error, code: "decision_locked" } })).toBe(false);
  });
});
