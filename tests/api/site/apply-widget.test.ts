// The apply.js widget over HTTP (docs/apply-js.md): the script as served (type, cache headers, 304), the start
// endpoint (POST /apply/v1/applications) with a publishable key: a start makes an application through the same
// create as the partner API (application.created), in the key's environment, recording the calling page's origin;
// every bad input, key and origin refused with the envelope; CORS for any calling page, preflight too. And a
// publishable key opens nothing else: not the token endpoint, not a partner route as a bearer token. The rate
// journey of a widget's application may be framed by the page that started it and by no other, and its done step
// does not leave the frame. The limits are in apply-widget-limits.test.ts; the browser walk from another origin is tests/e2e/apply-js.spec.ts.
import { unstable_doesMiddlewareMatch } from "next/experimental/testing/server";
import { NextRequest } from "next/server";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import JourneyStepPage from "@/app/(apply)/apply/[token]/[step]/page";
import { config as proxyConfig, proxy } from "@/proxy";
import { createApplication } from "@/lib/applications/create";
import { applicationHandoffSchema } from "@/lib/apply-widget/schemas";
import { APPLY_JS_VERSION } from "@/lib/apply-widget/script";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { config } from "@/lib/env";
import { hashSecret } from "@/lib/keys/secrets";
import { createKey, revokeKey, rollKey, setAllowedOrigins } from "@/lib/keys/service";
import { setProjectStatus } from "@/lib/projects/manage-project";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError, expectJson } from "../../helpers/http";
import { bearer, createTestProject, mintToken, requestToken } from "../../helpers/partner";
import { tenantNow } from "@/lib/tenant-clock";

let server: AppServer;
let project: ProjectCredentials;

beforeAll(async () => {
  server = await startAppServer();
  project = await createTestProject();
  // A live key starts applications only from pages it lists (docs/apply-js.md, "Which pages may use a key").
  await setAllowedOrigins({ tenant: { projectId: project.project_id, environment: "live" }, id: await keyIdOf(project.live.publishable_key), allowedOrigins: [SHOP] });
});

const keyIdOf = async (secret: string) => (await db().apiKey.findUniqueOrThrow({ where: { secretHash: hashSecret(secret) } })).id;
afterAll(() => server?.close());

// Each test an hour of its own: the per-address bucket (ten starts, then one every ten seconds) is full at the
// start of each.
let hour = 0;
beforeEach(() => {
  hour += 1;
  freezeClock(new Date(Date.UTC(2031, 0, 1, hour)));
});

const SHOP = "https://shop.example";
const valid = (key = project.sandbox.publishable_key) => ({
  publishable_key: key,
  business: { company_number: "12990042" },
  amount_pence: 2_500_000,
  term_months: 12,
  applicant: { email: "ada@example.co.uk", first_name: "Ada" },
  reference: "basket-42",
});

function start(body: unknown, origin: string | null = SHOP): Promise<Response> {
  return fetch(`${server.url}/apply/v1/applications`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(origin ? { origin } : {}) },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

describe("GET /v1/apply.js", () => {
  it("serves the versioned script as JavaScript, cacheable, with its ETag", async () => {
    const response = await fetch(`${server.url}/v1/apply.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("public, max-age=300");
    expect(response.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(response.headers.get("x-apply-js-version")).toBe(APPLY_JS_VERSION);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    const script = await response.text();
    expect(script).toContain(`LendingApply (apply.js) ${APPLY_JS_VERSION}`);
    expect(script).toContain("window.LendingApply = { version: VERSION, open: open }");
    // The journey's origin is written in: messages from any other are ignored, and the start goes there.
    const apply = config().APPLY_URL;
    expect(script).toContain(`var APPLY_ORIGIN = ${JSON.stringify(new URL(apply).origin)};`);
    expect(script).toContain(`var START_URL = ${JSON.stringify(`${apply}/apply/v1/applications`)};`);
    expect(() => new Function(script)).not.toThrow();
  });

  it("answers 304 to the browser's current copy, and the script to a stale one", async () => {
    const etag = (await fetch(`${server.url}/v1/apply.js`)).headers.get("etag")!;
    const current = await fetch(`${server.url}/v1/apply.js`, { headers: { "if-none-match": `W/${etag}` } });
    expect(current.status).toBe(304);
    expect(current.headers.get("etag")).toBe(etag);
    expect(await current.text()).toBe("");
    const stale = await fetch(`${server.url}/v1/apply.js`, { headers: { "if-none-match": '"stale"' } });
    expect(stale.status).toBe(200);
  });

  it("takes a cache-busting v and nothing else", async () => {
    expect((await fetch(`${server.url}/v1/apply.js?v=2`)).status).toBe(200);
    await expectApiError(await fetch(`${server.url}/v1/apply.js?colour=red`), 400, "unknown_field");
  });
});

describe("POST /apply/v1/applications", () => {
  it("starts a sandbox application for a sandbox key through the partner API's create, recording the calling page", async () => {
    const response = await start(valid());
    const handoff = await expectJson(response, 201);
    expect(applicationHandoffSchema.safeParse(handoff).success).toBe(true);
    expect(handoff).toMatchObject({ object: "application_handoff", livemode: false });
    expect(Object.keys(handoff).sort()).toEqual(["expires_at", "handoff_url", "id", "livemode", "object"]);
    expect(response.headers.get("access-control-allow-origin")).toBe(SHOP);
    expect(response.headers.get("vary")).toContain("Origin");
    expect(response.headers.get("access-control-expose-headers")).toContain("X-Request-Id");
    expect(response.headers.get("cache-control")).toBe("no-store");

    const application = await db().application.findUniqueOrThrow({ where: { id: handoff.id } });
    expect(application).toMatchObject({
      projectId: project.project_id,
      environment: "sandbox",
      status: "created",
      companyNumber: "12990042",
      amountPence: 2_500_000,
      termMonths: 12,
      reference: "basket-42",
      applicantEmail: "ada@example.co.uk",
      applicantFirstName: "Ada",
      embeddingOrigin: SHOP,
    });
    expect(handoff.handoff_url).toBe(`${config().APPLY_URL}/apply/${application.handoffToken}`);
    const events = await db().event.findMany({ where: { projectId: project.project_id, type: "application.created" } });
    const created = events.find((event) => (event.object as { id: string }).id === handoff.id);
    expect(created).toMatchObject({ environment: "sandbox", type: "application.created" });
    expect(created!.object).toMatchObject({ id: handoff.id, object: "application", reference: "basket-42", status: "created" });
  });

  it("starts a live application for a live key from an https page it lists", async () => {
    const handoff = await expectJson(await start(valid(project.live.publishable_key)), 201);
    expect(handoff.livemode).toBe(true);
    expect(await db().application.findUniqueOrThrow({ where: { id: handoff.id } })).toMatchObject({ environment: "live", embeddingOrigin: SHOP });
  });

  it("needs no applicant email: the calling page is the way back", async () => {
    const { applicant: _, ...withoutApplicant } = valid();
    expect((await start(withoutApplicant)).status).toBe(201);
  });

  it("records a page's origin as browsers write it, default port dropped", async () => {
    const handoff = await expectJson(await start(valid(), "http://localhost:8080"), 201);
    expect((await db().application.findUniqueOrThrow({ where: { id: handoff.id } })).embeddingOrigin).toBe("http://localhost:8080");
    const defaultPort = await expectJson(await start(valid(), "https://shop.example:443"), 201);
    expect((await db().application.findUniqueOrThrow({ where: { id: defaultPort.id } })).embeddingOrigin).toBe(SHOP);
  });

  it("starts an ordinary hosted application for a caller that is no page (no Origin), which nothing else may frame", async () => {
    const response = await start(valid(), null);
    const handoff = await expectJson(response, 201);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    expect((await db().application.findUniqueOrThrow({ where: { id: handoff.id } })).embeddingOrigin).toBeNull();
  });

  it.each([
    ["a sandboxed frame or a file (Origin: null)", "null", "sandbox", "apply.js must run on an http or https page"],
    ["a page that is not http(s)", "chrome-extension://abcdef", "sandbox", "apply.js must run on an http or https page"],
    ["an origin with a path", "https://shop.example/basket", "sandbox", "apply.js must run on an http or https page"],
    ["an origin no browser writes", "https://shop.example; script-src *", "sandbox", "apply.js must run on an http or https page"],
    ["a live application from a plain http page", "http://shop.example", "live", "only from an https page"],
  ] as const)("refuses %s with 403 origin_not_allowed", async (_, origin, environment, message) => {
    const before = await db().application.count({ where: { projectId: project.project_id } });
    const body = await expectApiError(await start(valid(project[environment].publishable_key), origin), 403, "origin_not_allowed");
    expect(body.error.message).toContain(message);
    expect(await db().application.count({ where: { projectId: project.project_id } })).toBe(before);
  });

  it("starts applications with a key that lists allowed origins only from those origins, and says what to do otherwise", async () => {
    const own = await createTestProject();
    const { secret } = await createKey({ tenant: { projectId: own.project_id, environment: "sandbox" }, input: { type: "publishable", allowed_origins: [SHOP, "http://localhost:5173"] } });
    expect(await expectJson(await start(valid(secret), SHOP), 201)).toMatchObject({ object: "application_handoff" });
    expect(await expectJson(await start(valid(secret), "http://localhost:5173"), 201)).toMatchObject({ object: "application_handoff" });
    for (const origin of ["https://elsewhere.example", "https://sub.shop.example", "http://shop.example", null]) {
      const body = await expectApiError(await start(valid(secret), origin), 403, "origin_not_allowed");
      expect(body.error.message).toBe(
        "This publishable key may be used only on pages of https://shop.example, http://localhost:5173. Add this page's origin to the key's allowed origins " +
          "with POST /partner/v1/keys/{id} (allowed_origins) or on the dashboard's API keys page, or use another key.",
      );
    }
    expect(await db().application.count({ where: { projectId: own.project_id } })).toBe(2);
  });

  it("starts nothing with a live key that lists no origins, from any page or none, saying to register them first", async () => {
    const own = await createTestProject();
    for (const origin of [SHOP, "http://localhost:5173", null]) {
      const body = await expectApiError(await start(valid(own.live.publishable_key), origin), 403, "origin_not_allowed");
      expect(body.error.message).toBe(
        "This live publishable key has no allowed origins yet, so it starts applications from no page. Register your pages' origins first, " +
          "with POST /partner/v1/keys/{id} (allowed_origins) or on the dashboard's API keys page.",
      );
    }
    expect(await db().application.count({ where: { projectId: own.project_id } })).toBe(0);
    // The sandbox key of the same project, listing none too, starts from any page and from none.
    for (const origin of [SHOP, "https://elsewhere.example", null]) expect((await start(valid(own.sandbox.publishable_key), origin)).status).toBe(201);
  });

  it("takes a redirect_uri on one of the key's allowed origins only", async () => {
    const own = await createTestProject();
    const live = { projectId: own.project_id, environment: "live" as const };
    await setAllowedOrigins({ tenant: live, id: await keyIdOf(own.live.publishable_key), allowedOrigins: [SHOP, "https://pay.shop.example:8443"] });
    for (const redirectUri of ["https://shop.example/back?basket=42", "https://SHOP.example:443/back", "https://pay.shop.example:8443/done"]) {
      const handoff = await expectJson(await start({ ...valid(own.live.publishable_key), redirect_uri: redirectUri }), 201);
      expect((await db().application.findUniqueOrThrow({ where: { id: handoff.id } })).redirectUri).toBe(redirectUri);
    }
    for (const redirectUri of ["https://elsewhere.example/back", "https://pay.shop.example/done", "https://shop.example.evil.example/back", "http://shop.example/back"]) {
      const body = await expectApiError(await start({ ...valid(own.live.publishable_key), redirect_uri: redirectUri }), 422, "validation_failed");
      const message =
        "redirect_uri must be on one of the key's allowed origins (https://shop.example, https://pay.shop.example:8443). " +
        "Add its origin to the key with POST /partner/v1/keys/{id} (allowed_origins) or on the dashboard's API keys page.";
      expect(body.error.detail).toEqual([{ field: "redirect_uri", reason: "not_allowed", message }]);
    }
    expect(await db().application.count({ where: { projectId: own.project_id, environment: "live" } })).toBe(3);
  });

  it("takes any redirect_uri the partner API takes with a sandbox key listing no origins, and one on its origins with a key listing some", async () => {
    const own = await createTestProject();
    for (const redirectUri of ["https://elsewhere.example/back", "http://localhost:5173/back"]) {
      expect((await start({ ...valid(own.sandbox.publishable_key), redirect_uri: redirectUri })).status).toBe(201);
    }
    // A sandbox key that lists origins holds its redirect_uri to them, as a live key does.
    const { secret } = await createKey({ tenant: { projectId: own.project_id, environment: "sandbox" }, input: { type: "publishable", allowed_origins: ["http://localhost:5173"] } });
    expect((await start({ ...valid(secret), redirect_uri: "http://localhost:5173/back" }, "http://localhost:5173")).status).toBe(201);
    const refused = await expectApiError(await start({ ...valid(secret), redirect_uri: "http://localhost:5174/back" }, "http://localhost:5173"), 422, "validation_failed");
    expect(refused.error.detail).toEqual([expect.objectContaining({ field: "redirect_uri", reason: "not_allowed" })]);
  });

  describe("refuses every bad input with the envelope, starting nothing", () => {
    const withoutKey = () => {
      const { publishable_key: _key, ...rest } = valid();
      return rest;
    };
    it.each([
      ["no publishable_key", withoutKey, 422, "validation_failed", "publishable_key"],
      ["an empty publishable_key", () => ({ ...valid(), publishable_key: "" }), 422, "validation_failed", "publishable_key"],
      ["a publishable_key that is not a string", () => ({ ...valid(), publishable_key: 42 }), 422, "validation_failed", "publishable_key"],
      ["no company", () => ({ ...valid(), business: undefined }), 422, "validation_failed", "business"],
      ["a malformed company number", () => ({ ...valid(), business: { company_number: "sc123456" } }), 422, "validation_failed", "business.company_number"],
      ["a company that cannot borrow", () => ({ ...valid(), business: { company_number: "00000000" } }), 422, "validation_failed", "business.company_number"],
      ["an amount under £1,000", () => ({ ...valid(), amount_pence: 99_999 }), 422, "validation_failed", "amount_pence"],
      ["an amount in pounds and pence", () => ({ ...valid(), amount_pence: 5000.5 }), 422, "validation_failed", "amount_pence"],
      ["a term of 61 months", () => ({ ...valid(), term_months: 61 }), 422, "validation_failed", "term_months"],
      ["an unknown purpose", () => ({ ...valid(), purpose: "yacht" }), 422, "validation_failed", "purpose"],
      ["a bad applicant email", () => ({ ...valid(), applicant: { email: "ada" } }), 422, "validation_failed", "applicant.email"],
      ["a redirect_uri that is not a URL", () => ({ ...valid(), redirect_uri: "somewhere" }), 422, "validation_failed", "redirect_uri"],
      ["an empty reference", () => ({ ...valid(), reference: "" }), 422, "validation_failed", "reference"],
      ["a NUL in the reference", () => ({ ...valid(), reference: "a\u0000b" }), 422, "validation_failed", "reference"],
      ["metadata, which only the partner API takes", () => ({ ...valid(), metadata: { order: "42" } }), 400, "unknown_field", "metadata"],
      ["an introduction, which only the partner API takes", () => ({ ...valid(), introduction_id: "intro_1" }), 400, "unknown_field", "introduction_id"],
      ["an unknown field", () => ({ ...valid(), colour: "red" }), 400, "unknown_field", "colour"],
    ])("%s", async (_, body, status, code, field) => {
      const before = await db().application.count({ where: { projectId: project.project_id } });
      const answer = await expectApiError(await start(body()), status, code);
      expect(answer.error.detail?.map((item) => item.field)).toContain(field);
      expect(await db().application.count({ where: { projectId: project.project_id } })).toBe(before);
    });

    it("a body that is not JSON", async () => {
      await expectApiError(await start("{not json"), 400, "invalid_json");
    });

    it("a body that is not an object", async () => {
      await expectApiError(await start("[]"), 422, "validation_failed");
    });

    it("a body sent as text/plain, which a browser sends from another origin without asking first", async () => {
      const response = await fetch(`${server.url}/apply/v1/applications`, { method: "POST", headers: { origin: SHOP, "content-type": "text/plain" }, body: JSON.stringify(valid()) });
      await expectApiError(response, 415, "unsupported_media_type");
    });

    it("a redirect_uri over plain http to anywhere but localhost", async () => {
      const body = await expectApiError(await start({ ...valid(), redirect_uri: "http://shop.example/back" }), 422, "validation_failed");
      expect(body.error.detail).toEqual([expect.objectContaining({ field: "redirect_uri", reason: "must_be_https" })]);
    });

    it("a GET, with 405 and Allow", async () => {
      const response = await fetch(`${server.url}/apply/v1/applications`);
      await expectApiError(response, 405, "method_not_allowed");
      expect(response.headers.get("allow")).toBe("POST, OPTIONS");
    });
  });

  describe("takes publishable keys only", () => {
    it("refuses a secret key, saying it must never be in a web page", async () => {
      const body = await expectApiError(await start(valid(project.sandbox.secret_key)), 401, "invalid_api_key");
      expect(body.error.message).toContain("secret key");
      expect(body.error.message).toContain("never be put in a web page");
      await expectApiError(await start(valid(project.live.secret_key)), 401, "invalid_api_key");
    });

    it.each([
      ["an unknown publishable key", () => `pk_sandbox_${"x".repeat(40)}`],
      ["a publishable key with its environment changed", () => project.sandbox.publishable_key.replace("pk_sandbox_", "pk_live_")],
      ["something that is no key at all", () => "hello"],
      ["a webhook signing secret", () => `whsec_${"y".repeat(40)}`],
    ])("refuses %s with 401 invalid_api_key", async (_, key) => {
      await expectApiError(await start(valid(key())), 401, "invalid_api_key");
    });

    it("refuses a revoked publishable key, and a rolled one once its overlap has ended, with 401 key_revoked", async () => {
      const owner = await createTestProject();
      const tenant = { projectId: owner.project_id, environment: "sandbox" as const };
      const key = await db().apiKey.findUniqueOrThrow({ where: { secretHash: hashSecret(owner.sandbox.publishable_key) } });
      const rolled = await rollKey({ tenant, id: key.id, overlapHours: 0 });
      freezeClock(new Date(Date.UTC(2031, 0, 1, hour, 1)));
      const rolledBody = await expectApiError(await start(valid(owner.sandbox.publishable_key)), 401, "key_revoked");
      expect(rolledBody.error.message).toContain("rolled");
      expect((await start(valid(rolled.secret))).status).toBe(201);
      await revokeKey({ tenant, id: rolled.id });
      await expectApiError(await start(valid(rolled.secret)), 401, "key_revoked");
    });

    it("refuses a suspended project's key with 403 account_suspended", async () => {
      const suspended = await createTestProject();
      await setProjectStatus(db(), suspended.project_id, "suspended");
      await expectApiError(await start(valid(suspended.sandbox.publishable_key)), 403, "account_suspended");
    });

    it("keeps CORS headers on a refusal, so the calling page can read it", async () => {
      const response = await start(valid(`pk_sandbox_${"z".repeat(40)}`));
      expect(response.headers.get("access-control-allow-origin")).toBe(SHOP);
      await expectApiError(response, 401, "invalid_api_key");
    });
  });

  describe("CORS preflight", () => {
    const preflight = (origin: string, method = "POST") =>
      fetch(`${server.url}/apply/v1/applications`, { method: "OPTIONS", headers: { origin, "access-control-request-method": method, "access-control-request-headers": "content-type" } });

    it("allows any calling page to POST JSON, without credentials", async () => {
      for (const origin of [SHOP, "http://localhost:5173"]) {
        const response = await preflight(origin);
        expect(response.status).toBe(204);
        expect(response.headers.get("access-control-allow-origin")).toBe(origin);
        expect(response.headers.get("access-control-allow-methods")).toBe("POST");
        expect(response.headers.get("access-control-allow-headers")).toBe("Content-Type");
        expect(response.headers.get("access-control-max-age")).toBe("600");
        expect(response.headers.get("access-control-allow-credentials")).toBeNull();
        expect(response.headers.get("vary")).toContain("Origin");
      }
    });

    it("allows no other method", async () => {
      const response = await preflight(SHOP, "DELETE");
      expect(response.status).toBe(204);
      expect(response.headers.get("access-control-allow-origin")).toBeNull();
    });

    it("leaves every other site route closed to other origins", async () => {
      const response = await fetch(`${server.url}/oauth/token`, { method: "OPTIONS", headers: { origin: SHOP, "access-control-request-method": "POST" } });
      expect(response.headers.get("access-control-allow-origin")).toBeNull();
      const answer = await fetch(`${server.url}/apply/${"a".repeat(32)}/status`, { headers: { origin: SHOP } });
      expect(answer.headers.get("access-control-allow-origin")).toBeNull();
    });
  });
});

describe("a publishable key opens nothing else", () => {
  it("is refused at the token endpoint with 401 invalid_client, sandbox and live", async () => {
    for (const environment of ["sandbox", "live"] as const) {
      const response = await requestToken(server.url, project, { secret: project[environment].publishable_key });
      expect(response.status).toBe(401);
      const body = await response.json();
      expect(body.error).toBe("invalid_client");
      expect(body.error_description).toContain("publishable key");
    }
  });

  it.each([
    ["GET", "/partner/v1/applications"],
    ["POST", "/partner/v1/applications"],
    ["GET", "/partner/v1/accounts"],
    ["GET", "/partner/v1/keys"],
    ["POST", "/partner/v1/payments/links"],
    ["GET", "/partner/v1/events"],
  ])("is refused as a bearer token on %s %s with 401", async (method, path) => {
    const before = await db().application.count({ where: { projectId: project.project_id } });
    const response = await fetch(`${server.url}${path}`, bearer(project.sandbox.publishable_key, { method, headers: { "content-type": "application/json" }, ...(method === "POST" ? { body: JSON.stringify(valid()) } : {}) }));
    const body = await expectApiError(response, 401, "unauthenticated");
    expect(body.error.message).toContain("A publishable key cannot call the partner API");
    expect(await db().application.count({ where: { projectId: project.project_id } })).toBe(before);
  });

  it("while the project's own access token still works there", async () => {
    const token = await mintToken(server.url, project);
    expect((await fetch(`${server.url}/partner/v1/applications?limit=1`, bearer(token))).status).toBe(200);
  });
});

describe("the journey of a widget's application", () => {
  async function widgetToken(origin = SHOP): Promise<string> {
    const handoff = await expectJson(await start({ ...valid(), redirect_uri: "https://shop.example/back" }, origin), 201);
    return new URL(handoff.handoff_url).pathname.split("/")[2]!;
  }

  const policyOf = async (path: string) => (await proxy(new NextRequest(`http://localhost:3000${path}`))).headers.get("content-security-policy")!;
  const frameAncestors = async (path: string) => /frame-ancestors ([^;]+)/.exec(await policyOf(path))![1];

  it("may be framed by the page that started it, and by no other", async () => {
    const token = await widgetToken();
    for (const step of ["", "/company", "/about-you", "/done"]) expect(await frameAncestors(`/apply/${token}${step}`)).toBe(`'self' ${SHOP}`);
    const other = await widgetToken("http://localhost:5173");
    expect(await frameAncestors(`/apply/${other}/company`)).toBe("'self' http://localhost:5173");
  });

  it("leaves every other journey framed by our own pages only", async () => {
    const partner = await createApplication({ tenant: { projectId: project.project_id, environment: "sandbox" }, now: await tenantNow({ projectId: project.project_id, environment: "sandbox" }), input: { business: { company_number: "12990042" }, amount_pence: 2_500_000, term_months: 12, applicant: { email: "ada@example.co.uk" } } });
    const { handoffToken } = await db().application.findUniqueOrThrow({ where: { id: partner.id } });
    expect(await frameAncestors(`/apply/${handoffToken}/company`)).toBe("'self'");
    expect(await frameAncestors(`/apply/${"b".repeat(32)}/company`)).toBe("'self'");
    expect(await frameAncestors("/apply/not-a-token")).toBe("'self'");
    const response = await proxy(new NextRequest(`http://localhost:3000/apply/${handoffToken}`));
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
  });

  it("keeps the proxy off the start endpoint, and on every journey page", () => {
    const matches = (url: string) => unstable_doesMiddlewareMatch({ config: proxyConfig, url });
    expect(matches("/apply/v1/applications")).toBe(false);
    for (const url of [`/apply/${"c".repeat(32)}`, `/apply/${"c".repeat(32)}/company`, `/apply/${"c".repeat(32)}/status`, "/apply/v1"]) expect(matches(url)).toBe(true);
    expect(matches("/v1/apply.js")).toBe(false);
  });

  it("ends without leaving the widget's frame: no refresh to the redirect_uri, which a partner's own journey gets", async () => {
    const render = async (token: string) => renderToStaticMarkup(await JourneyStepPage({ params: Promise.resolve({ token, step: "done" }) }));
    const token = await widgetToken();
    const { id } = await db().application.findUniqueOrThrow({ where: { handoffToken: token } });
    await db().application.update({ where: { id }, data: { status: "funded" } });
    const widgetDone = await render(token);
    expect(widgetDone).toContain("Your loan is on its way");
    expect(widgetDone).not.toContain('http-equiv="refresh"');
    expect(widgetDone).toContain('target="_top"');

    const partner = await createApplication({ tenant: { projectId: project.project_id, environment: "sandbox" }, now: await tenantNow({ projectId: project.project_id, environment: "sandbox" }), input: { business: { company_number: "12990042" }, amount_pence: 2_500_000, term_months: 12, redirect_uri: "https://shop.example/back" } });
    const row = await db().application.update({ where: { id: partner.id }, data: { status: "funded" } });
    expect(await render(row.handoffToken)).toContain('http-equiv="refresh"');
  });
});
