// A publishable key is bound to its partner's pages (docs/apply-js.md, "Which pages may use a key"), over HTTP:
// POST /partner/v1/keys/{id} replaces a key's allowed origins (Stripe's update style), with every refusal of its
// body, its key and its caller; POST /partner/v1/keys refuses http://localhost on a live key; and the widget's start,
// called with real Origin headers, follows the list as the API sets it: a live key listing none starts nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { hashSecret } from "@/lib/keys/secrets";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError, expectJson, jsonRequest } from "../../helpers/http";
import { bearer, createTestProject, mintToken } from "../../helpers/partner";

type Json = Record<string, any>;

const SHOP = "https://shop.example.com";
const ORIGIN_REASON = "Each of allowed_origins must be an origin such as https://shop.example.com (https, lower case, no path), or, on a sandbox key, http://localhost with an optional port.";

let server: AppServer;

beforeAll(async () => {
  server = await startAppServer();
});
afterAll(() => server?.close());

function call(token: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server.url}/partner/v1${path}`, bearer(token, body === undefined ? { method } : jsonRequest(method, body)));
}

const update = (token: string, id: string, body: unknown) => call(token, "POST", `/keys/${id}`, body);

const keyIdOf = async (secret: string) => (await db().apiKey.findUniqueOrThrow({ where: { secretHash: hashSecret(secret) } })).id;
const storedOrigins = async (id: string) => (await db().apiKey.findUniqueOrThrow({ where: { id } })).allowedOrigins;

/** A fresh project, its sandbox and live partner:manage tokens, and the ids of its publishable and secret keys. */
async function freshProject() {
  const project = await createTestProject();
  return {
    project,
    sandbox: await mintToken(server.url, project),
    live: await mintToken(server.url, project, { environment: "live" }),
    keys: {
      sandboxPublishable: await keyIdOf(project.sandbox.publishable_key),
      sandboxSecret: await keyIdOf(project.sandbox.secret_key),
      livePublishable: await keyIdOf(project.live.publishable_key),
    },
  };
}

describe("POST /partner/v1/keys/{id}", () => {
  it("replaces a publishable key's allowed origins, which GET /keys/{id} and GET /keys then show, and empties them with []", async () => {
    const { sandbox, keys } = await freshProject();
    const origins = [SHOP, "https://www.example.co.uk:8443", "http://localhost:3000"];
    const updated = await expectJson<Json>(await update(sandbox, keys.sandboxPublishable, { allowed_origins: origins }), 200);
    expect(updated).toMatchObject({ id: keys.sandboxPublishable, object: "api_key", type: "publishable", environment: "sandbox", status: "active", allowed_origins: origins });
    expect(updated).not.toHaveProperty("secret");
    expect(await expectJson<Json>(await call(sandbox, "GET", `/keys/${keys.sandboxPublishable}`), 200)).toEqual(updated);
    const listed = await expectJson<Json>(await call(sandbox, "GET", "/keys?type=publishable"), 200);
    expect(listed.data.map((key: Json) => [key.id, key.allowed_origins])).toEqual([[keys.sandboxPublishable, origins]]);

    // The whole list is replaced, not merged.
    expect((await expectJson<Json>(await update(sandbox, keys.sandboxPublishable, { allowed_origins: ["https://other.example"] }), 200)).allowed_origins).toEqual([
      "https://other.example",
    ]);
    expect((await expectJson<Json>(await update(sandbox, keys.sandboxPublishable, { allowed_origins: [] }), 200)).allowed_origins).toEqual([]);
    expect(await storedOrigins(keys.sandboxPublishable)).toEqual([]);
  });

  it("takes twenty origins, and a live key's https origins with a live token", async () => {
    const { live, keys } = await freshProject();
    const twenty = Array.from({ length: 20 }, (_, index) => `https://shop${index}.example.com`);
    expect((await expectJson<Json>(await update(live, keys.livePublishable, { allowed_origins: twenty }), 200)).allowed_origins).toEqual(twenty);
    expect(await storedOrigins(keys.livePublishable)).toEqual(twenty);
  });

  it("refuses http://localhost on a live key with 422 sandbox_only naming it, and changes nothing", async () => {
    const { live, keys } = await freshProject();
    await expectJson(await update(live, keys.livePublishable, { allowed_origins: [SHOP] }), 200);
    const refused = await expectApiError(await update(live, keys.livePublishable, { allowed_origins: [SHOP, "http://localhost:3000"] }), 422, "validation_failed");
    const message = "http://localhost:3000 may be listed on a sandbox key only: a live key's origins must be https.";
    expect(refused.error.message).toBe(message);
    expect(refused.error.detail).toEqual([{ field: "allowed_origins.1", reason: "sandbox_only", message }]);
    expect(await storedOrigins(keys.livePublishable)).toEqual([SHOP]);
  });

  it("refuses a secret key with 422 validation_failed and changes nothing", async () => {
    const { sandbox, keys } = await freshProject();
    const refused = await expectApiError(await update(sandbox, keys.sandboxSecret, { allowed_origins: [SHOP] }), 422, "validation_failed");
    expect(refused.error.detail).toEqual([
      { field: "allowed_origins", reason: "not_allowed", message: "allowed_origins applies to publishable keys only: a secret key is never used from a page." },
    ]);
    expect(await storedOrigins(keys.sandboxSecret)).toEqual([]);
  });

  it("refuses a revoked key, and a rolled one past its overlap, with 409 conflict; the successor changes", async () => {
    const { sandbox, keys } = await freshProject();
    const rolled = await expectJson<Json>(await call(sandbox, "POST", `/keys/${keys.sandboxPublishable}/roll`, { overlap_hours: 0 }), 201);
    const expired = await expectApiError(await update(sandbox, keys.sandboxPublishable, { allowed_origins: [SHOP] }), 409, "conflict");
    expect(expired.error.message).toBe(`This key was rolled and its overlap has ended: set the allowed origins of its successor ${rolled.id}.`);
    expect((await expectJson<Json>(await update(sandbox, rolled.id, { allowed_origins: [SHOP] }), 200)).allowed_origins).toEqual([SHOP]);

    await expectJson(await call(sandbox, "DELETE", `/keys/${rolled.id}`), 200);
    const revoked = await expectApiError(await update(sandbox, rolled.id, { allowed_origins: [] }), 409, "conflict");
    expect(revoked.error.message).toBe("This key is revoked: it starts nothing, so its allowed origins cannot change.");
    expect(await storedOrigins(rolled.id)).toEqual([SHOP]);
    expect(await storedOrigins(keys.sandboxPublishable)).toEqual([]);
  });

  it("changes a key still in its overlap window after a roll", async () => {
    const clock = freezeClock(new Date());
    const { sandbox, keys } = await freshProject();
    await expectJson(await call(sandbox, "POST", `/keys/${keys.sandboxPublishable}/roll`, { overlap_hours: 1 }), 201);
    clock.advance(59 * 60_000);
    expect((await expectJson<Json>(await update(sandbox, keys.sandboxPublishable, { allowed_origins: [SHOP] }), 200)).allowed_origins).toEqual([SHOP]);
  });

  it("answers another project's key with 404, the other environment's with 401 environment_mismatch, and an id that is no key's with 404", async () => {
    const { sandbox, live, keys } = await freshProject();
    const other = await freshProject();
    await expectApiError(await update(sandbox, other.keys.sandboxPublishable, { allowed_origins: [SHOP] }), 404, "not_found");
    await expectApiError(await update(sandbox, keys.livePublishable, { allowed_origins: [SHOP] }), 401, "environment_mismatch");
    await expectApiError(await update(live, keys.sandboxPublishable, { allowed_origins: [SHOP] }), 401, "environment_mismatch");
    await expectApiError(await update(sandbox, newId("apiKey"), { allowed_origins: [SHOP] }), 404, "not_found");
    await expectApiError(await update(sandbox, "nope", { allowed_origins: [SHOP] }), 404, "not_found");
    await expectApiError(await update(sandbox, newId("application"), { allowed_origins: [SHOP] }), 404, "not_found");
    for (const id of [other.keys.sandboxPublishable, keys.livePublishable, keys.sandboxPublishable]) expect(await storedOrigins(id)).toEqual([]);
  });

  it("refuses a token without partner:manage with 403 insufficient_scope", async () => {
    const project = await createTestProject();
    const token = await mintToken(server.url, project, { scope: "applications:read" });
    const response = await update(token, await keyIdOf(project.sandbox.publishable_key), { allowed_origins: [SHOP] });
    expect(response.headers.get("www-authenticate")).toContain('scope="partner:manage"');
    await expectApiError(response, 403, "insufficient_scope");
    expect(await storedOrigins(await keyIdOf(project.sandbox.publishable_key))).toEqual([]);
  });

  describe("refuses every bad body and changes nothing", () => {
    let token: string;
    let keyId: string;
    beforeAll(async () => {
      const fresh = await freshProject();
      token = fresh.sandbox;
      keyId = fresh.keys.sandboxPublishable;
      await expectJson(await update(token, keyId, { allowed_origins: ["https://kept.example.com"] }), 200);
    });

    it.each([
      ["no allowed_origins", {}, 422, "validation_failed", [{ field: "allowed_origins", reason: "required", message: "allowed_origins is required." }]],
      ["null", { allowed_origins: null }, 422, "validation_failed", [{ field: "allowed_origins", reason: "invalid_type", message: "allowed_origins must be an array, not null." }]],
      ["a string instead of a list", { allowed_origins: SHOP }, 422, "validation_failed", [{ field: "allowed_origins", reason: "invalid_type", message: "allowed_origins must be an array, not a string." }]],
      ["plain http other than localhost", { allowed_origins: ["http://shop.example.com"] }, 422, "validation_failed", [{ field: "allowed_origins.0", reason: "invalid", message: ORIGIN_REASON }]],
      ["an origin with a path", { allowed_origins: [`${SHOP}/checkout`] }, 422, "validation_failed", [{ field: "allowed_origins.0", reason: "invalid", message: ORIGIN_REASON }]],
      ["a wildcard", { allowed_origins: ["https://*.example.com"] }, 422, "validation_failed", [{ field: "allowed_origins.0", reason: "invalid", message: ORIGIN_REASON }]],
      ["a number in the list", { allowed_origins: [SHOP, 443] }, 422, "validation_failed", [{ field: "allowed_origins.1", reason: "invalid_type", message: "allowed_origins.1 must be a string, not a number." }]],
      ["an origin listed twice", { allowed_origins: [SHOP, SHOP] }, 422, "validation_failed", [{ field: "allowed_origins", reason: "duplicate", message: "allowed_origins must not list an origin twice." }]],
      [
        "twenty-one origins",
        { allowed_origins: Array.from({ length: 21 }, (_, index) => `https://shop${index}.example.com`) },
        422,
        "validation_failed",
        [{ field: "allowed_origins", reason: "too_large", message: "allowed_origins must list at most 20 origins." }],
      ],
      ["an unknown field", { allowed_origins: [SHOP], type: "secret" }, 400, "unknown_field", [{ field: "type", reason: "unknown_field", message: "Unknown field `type`: the only field accepted here is allowed_origins." }]],
      ["a body that is a list", [SHOP], 422, "validation_failed", [{ reason: "invalid_type", message: "The request body must be a JSON object, not an array." }]],
    ])("%s", async (_name, body, status, code, detail) => {
      const refused = await expectApiError(await update(token, keyId, body), status, code);
      expect(refused.error.detail).toEqual(detail);
      expect(await storedOrigins(keyId)).toEqual(["https://kept.example.com"]);
    });

    it("a body that is not JSON, with 400 invalid_json", async () => {
      const response = await fetch(`${server.url}/partner/v1/keys/${keyId}`, bearer(token, { method: "POST", headers: { "content-type": "application/json" }, body: "{allowed_origins: [" }));
      await expectApiError(response, 400, "invalid_json");
      expect(await storedOrigins(keyId)).toEqual(["https://kept.example.com"]);
    });

    it("no body at all, with 422 validation_failed", async () => {
      const refused = await expectApiError(await fetch(`${server.url}/partner/v1/keys/${keyId}`, bearer(token, { method: "POST" })), 422, "validation_failed");
      expect(refused.error.detail).toEqual([{ reason: "required", message: "The request body is empty: send a JSON object." }]);
      expect(await storedOrigins(keyId)).toEqual(["https://kept.example.com"]);
    });
  });
});

describe("POST /partner/v1/keys", () => {
  it("refuses a live publishable key with an http://localhost origin with 422 sandbox_only, and creates nothing; a sandbox key takes it", async () => {
    const { project, sandbox, live } = await freshProject();
    const refused = await expectApiError(await call(live, "POST", "/keys", { type: "publishable", allowed_origins: ["http://localhost:5173", SHOP] }), 422, "validation_failed");
    const message = "http://localhost:5173 may be listed on a sandbox key only: a live key's origins must be https.";
    expect(refused.error.detail).toEqual([{ field: "allowed_origins.0", reason: "sandbox_only", message }]);
    expect(await db().apiKey.count({ where: { projectId: project.project_id, environment: "live" } })).toBe(2);
    const created = await expectJson<Json>(await call(sandbox, "POST", "/keys", { type: "publishable", allowed_origins: ["http://localhost:5173", SHOP] }), 201);
    expect(created.allowed_origins).toEqual(["http://localhost:5173", SHOP]);
    expect((await expectJson<Json>(await call(live, "POST", "/keys", { type: "publishable", allowed_origins: [SHOP] }), 201)).allowed_origins).toEqual([SHOP]);
  });
});

describe("the widget's start follows the origins the API sets", () => {
  const start = (project: ProjectCredentials, origin: string | null, more: Json = {}) =>
    fetch(`${server.url}/apply/v1/applications`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(origin ? { origin } : {}) },
      body: JSON.stringify({ publishable_key: project.live.publishable_key, business: { company_number: "12990042" }, amount_pence: 2_500_000, term_months: 12, ...more }),
    });

  it("starts nothing with a live key until its page's origin is registered, then from that page alone, and nothing again once emptied", async () => {
    const { project, live, keys } = await freshProject();
    const none = await expectApiError(await start(project, SHOP), 403, "origin_not_allowed");
    expect(none.error.message).toContain("This live publishable key has no allowed origins yet");
    expect(none.error.message).toContain("POST /partner/v1/keys/{id}");

    await expectJson(await update(live, keys.livePublishable, { allowed_origins: [SHOP] }), 200);
    const handoff = await expectJson<Json>(await start(project, SHOP, { redirect_uri: `${SHOP}/basket` }), 201);
    expect(await db().application.findUniqueOrThrow({ where: { id: handoff.id } })).toMatchObject({ environment: "live", embeddingOrigin: SHOP, redirectUri: `${SHOP}/basket` });
    const elsewhere = await expectApiError(await start(project, "https://elsewhere.example"), 403, "origin_not_allowed");
    expect(elsewhere.error.message).toContain(`This publishable key may be used only on pages of ${SHOP}.`);
    await expectApiError(await start(project, null), 403, "origin_not_allowed");
    const offOrigin = await expectApiError(await start(project, SHOP, { redirect_uri: "https://elsewhere.example/back" }), 422, "validation_failed");
    expect(offOrigin.error.detail).toEqual([expect.objectContaining({ field: "redirect_uri", reason: "not_allowed" })]);

    await expectJson(await update(live, keys.livePublishable, { allowed_origins: [] }), 200);
    await expectApiError(await start(project, SHOP), 403, "origin_not_allowed");
    expect(await db().application.count({ where: { projectId: project.project_id } })).toBe(1);
  });
});
