// The partner API keys endpoints (spec 4.5, 3.6) over HTTP: list, create, roll, revoke, isolation between
// projects and environments, the partner:manage scope, and cursor pagination. Tokens come from the real token
// endpoint; time-travel tests freeze the clock before minting any token they use.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { newId } from "@/lib/ids";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError, jsonRequest, expectJson as expectJsonBody } from "../../helpers/http";
import { bearer, createTestProject, mintToken, requestToken } from "../../helpers/partner";

interface ApiKeyBody {
  id: string;
  object: string;
  type: string;
  environment: string;
  livemode: boolean;
  prefix: string;
  last4: string;
  status: string;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  predecessor: string | null;
  created_at: string;
  secret?: string;
  predecessor_expires_at?: string;
  allowed_origins?: string[];
}

interface ListBody {
  object: string;
  data: ApiKeyBody[];
  has_more: boolean;
  url: string;
}

const T0 = "2027-03-01T09:00:00.000Z";
const HOUR_MS = 3_600_000;
const at = (offsetMs: number) => new Date(new Date(T0).getTime() + offsetMs).toISOString();
const KEY_ID = /^key_[0-9a-z]{26}$/;

let server: AppServer;

beforeAll(async () => {
  server = await startAppServer();
});
afterAll(() => server?.close());

function call(token: string, method: string, path: string, body?: unknown): Promise<Response> {
  const init = body === undefined ? { method } : jsonRequest(method, body);
  return fetch(`${server.url}/partner/v1${path}`, bearer(token, init));
}

const expectJson = <T = ApiKeyBody>(response: Response, status: number) => expectJsonBody<T>(response, status);

async function list(token: string, query = ""): Promise<ListBody> {
  return expectJson<ListBody>(await call(token, "GET", `/keys${query ? `?${query}` : ""}`), 200);
}

const ids = (body: ListBody) => body.data.map((key) => key.id);

/** The id of the token environment's only key of `type` (a fresh project has one of each). */
async function onlyKeyId(token: string, type: "secret" | "publishable"): Promise<string> {
  const { data } = await list(token, `type=${type}`);
  expect(data).toHaveLength(1);
  return data[0]!.id;
}

/** A fresh project and a sandbox partner:manage token (freeze the clock first in time-travel tests). */
async function freshProject(): Promise<{ project: ProjectCredentials; token: string }> {
  const project = await createTestProject();
  return { project, token: await mintToken(server.url, project) };
}

async function expectKeyRevokedAtTokenEndpoint(project: ProjectCredentials, secret: string): Promise<void> {
  const response = await requestToken(server.url, project, { secret });
  expect(response.status).toBe(401);
  expect(await response.json()).toEqual({ error: "key_revoked", error_description: expect.any(String) });
}

async function expectTokenIssued(project: ProjectCredentials, secret: string): Promise<void> {
  const response = await requestToken(server.url, project, { secret });
  expect(response.status).toBe(200);
  expect((await response.json()).access_token).toEqual(expect.any(String));
}

describe("listing keys", () => {
  it("shows only the token's environment, newest first, with prefix and last4 but never a secret", async () => {
    const { project, token } = await freshProject();
    const response = await call(token, "GET", "/keys");
    const text = await response.clone().text();
    const body = await expectJson<ListBody>(response, 200);
    expect(body).toMatchObject({ object: "list", has_more: false, url: "/partner/v1/keys" });
    expect(body.data.map((key) => [key.type, key.prefix, key.last4])).toEqual([
      ["publishable", "pk_sandbox_", project.sandbox.publishable_key.slice(-4)],
      ["secret", "sk_sandbox_", project.sandbox.secret_key.slice(-4)],
    ]);
    expect(ids(body)).toEqual([...ids(body)].sort().reverse());
    for (const key of body.data) {
      expect(key.id).toMatch(KEY_ID);
      expect(key).toMatchObject({ object: "api_key", environment: "sandbox", livemode: false, status: "active", revoked_at: null, expires_at: null, predecessor: null });
      expect(key).not.toHaveProperty("secret");
    }
    for (const secret of [project.sandbox.secret_key, project.sandbox.publishable_key, project.live.secret_key]) expect(text).not.toContain(secret);

    const live = await list(await mintToken(server.url, project, { environment: "live" }));
    expect(live.data.map((key) => [key.prefix, key.livemode])).toEqual([["pk_live_", true], ["sk_live_", true]]);
    expect(ids(live).some((id) => ids(body).includes(id))).toBe(false);
  });

  it("filters by type and by status", async () => {
    const { token } = await freshProject();
    const secretId = await onlyKeyId(token, "secret");
    const publishableId = await onlyKeyId(token, "publishable");
    await expectJson(await call(token, "DELETE", `/keys/${publishableId}`), 200);
    expect(ids(await list(token, "status=revoked"))).toEqual([publishableId]);
    expect(ids(await list(token, "status=active"))).toEqual([secretId]);
    expect(ids(await list(token, "status=expired"))).toEqual([]);
    expect(ids(await list(token, "type=publishable&status=active"))).toEqual([]);
  });

  it("records last_used_at when a secret key mints a token, and leaves it null until then", async () => {
    const clock = freezeClock(T0);
    const project = await createTestProject();
    // Through the token endpoint with the project's secret key: the mint is what records its use.
    const token = await mintToken(server.url, project, { secret: project.sandbox.secret_key });
    const { data } = await list(token);
    expect(data.map((key) => [key.type, key.last_used_at])).toEqual([["publishable", null], ["secret", T0]]);

    const created = await expectJson(await call(token, "POST", "/keys", { type: "secret" }), 201);
    expect(created.last_used_at).toBeNull();
    clock.advance(60_000);
    await expectTokenIssued(project, created.secret!);
    expect((await expectJson(await call(token, "GET", `/keys/${created.id}`), 200)).last_used_at).toBe(at(60_000));
  });
});

describe("creating keys", () => {
  it("creates a secret key whose secret is shown once and mints tokens", async () => {
    const { project, token } = await freshProject();
    const response = await call(token, "POST", "/keys", { type: "secret" });
    const created = await expectJson(response, 201);
    expect(created.secret).toMatch(/^sk_sandbox_[0-9A-Za-z]{40}$/);
    expect(created.id).toMatch(KEY_ID);
    expect(created).toMatchObject({ object: "api_key", type: "secret", environment: "sandbox", livemode: false, prefix: "sk_sandbox_", last4: created.secret!.slice(-4), status: "active", last_used_at: null, predecessor: null });

    const { secret, ...withoutSecret } = created;
    const fetched = await expectJson(await call(token, "GET", `/keys/${created.id}`), 200);
    expect(fetched).toEqual(withoutSecret);
    expect(ids(await list(token, "type=secret"))[0]).toBe(created.id);
    await expectTokenIssued(project, secret!);
  });

  it("creates a publishable key with a pk_sandbox_ secret", async () => {
    const { token } = await freshProject();
    const created = await expectJson(await call(token, "POST", "/keys", { type: "publishable", environment: "sandbox" }), 201);
    expect(created.secret).toMatch(/^pk_sandbox_[0-9A-Za-z]{40}$/);
    expect(created).toMatchObject({ type: "publishable", prefix: "pk_sandbox_", last4: created.secret!.slice(-4) });
  });

  it("refuses a live key from a sandbox token with 401 environment_mismatch and creates nothing", async () => {
    const { project, token } = await freshProject();
    await expectApiError(await call(token, "POST", "/keys", { type: "secret", environment: "live" }), 401, "environment_mismatch");
    expect((await list(await mintToken(server.url, project, { environment: "live" }))).data).toHaveLength(2);
  });

  it.each([
    ["a missing type", 422, "validation_failed", {}, [{ field: "type", reason: "required", message: "type is required." }]],
    ["an unknown type", 422, "validation_failed", { type: "admin" }, [expect.objectContaining({ field: "type", reason: "invalid_value" })]],
    ["an unknown field", 400, "unknown_field", { type: "secret", colour: "red" }, [{ field: "colour", reason: "unknown_field", message: "Unknown field `colour`: the fields accepted here are type, environment and allowed_origins." }]],
  ])("answers %s with %i %s", async (_name, status, code, body, detail) => {
    const { token } = await freshProject();
    const error = await expectApiError(await call(token, "POST", "/keys", body), status, code);
    expect(error.error.detail).toEqual(detail);
    expect((await list(token)).data).toHaveLength(2);
  });

  it("answers a body that is not JSON with 400 invalid_json", async () => {
    const { token } = await freshProject();
    const response = await fetch(`${server.url}/partner/v1/keys`, bearer(token, { method: "POST", headers: { "content-type": "application/json" }, body: "{type: secret" }));
    await expectApiError(response, 400, "invalid_json");
  });
});

describe("rolling keys", () => {
  it("rolls with a 24-hour overlap when the body is empty; both secrets work until it ends, then only the new one", async () => {
    const clock = freezeClock(T0);
    const { project, token } = await freshProject();
    const oldId = await onlyKeyId(token, "secret");
    const rolled = await expectJson(await fetch(`${server.url}/partner/v1/keys/${oldId}/roll`, bearer(token, { method: "POST" })), 201);
    expect(rolled.id).toMatch(KEY_ID);
    expect(rolled.id).not.toBe(oldId);
    expect(rolled.secret).toMatch(/^sk_sandbox_[0-9A-Za-z]{40}$/);
    expect(rolled).toMatchObject({ object: "api_key", type: "secret", status: "active", predecessor: oldId, predecessor_expires_at: at(24 * HOUR_MS), created_at: T0, expires_at: null });
    expect(await expectJson(await call(token, "GET", `/keys/${oldId}`), 200)).toMatchObject({ status: "active", expires_at: at(24 * HOUR_MS) });

    clock.advance(12 * HOUR_MS);
    await expectTokenIssued(project, project.sandbox.secret_key);
    await expectTokenIssued(project, rolled.secret!);
    clock.set(at(24 * HOUR_MS - 1));
    await expectTokenIssued(project, project.sandbox.secret_key);
    clock.set(at(24 * HOUR_MS));
    await expectKeyRevokedAtTokenEndpoint(project, project.sandbox.secret_key);
    await expectTokenIssued(project, rolled.secret!);

    const fresh = await mintToken(server.url, project, { secret: rolled.secret! });
    expect((await expectJson(await call(fresh, "GET", `/keys/${oldId}`), 200)).status).toBe("expired");
    expect(ids(await list(fresh, "status=expired"))).toEqual([oldId]);
    expect(ids(await list(fresh, "type=secret&status=active"))).toEqual([rolled.id]);
  });

  it("ends the predecessor after overlap_hours", async () => {
    const clock = freezeClock(T0);
    const { project, token } = await freshProject();
    const rolled = await expectJson(await call(token, "POST", `/keys/${await onlyKeyId(token, "secret")}/roll`, { overlap_hours: 6 }), 201);
    expect(rolled.predecessor_expires_at).toBe(at(6 * HOUR_MS));
    clock.set(at(6 * HOUR_MS - 1));
    await expectTokenIssued(project, project.sandbox.secret_key);
    clock.advance(1);
    await expectKeyRevokedAtTokenEndpoint(project, project.sandbox.secret_key);
  });

  it("ends the predecessor at once with overlap_hours 0", async () => {
    freezeClock(T0);
    const { project, token } = await freshProject();
    const rolled = await expectJson(await call(token, "POST", `/keys/${await onlyKeyId(token, "secret")}/roll`, { overlap_hours: 0 }), 201);
    expect(rolled.predecessor_expires_at).toBe(T0);
    await expectKeyRevokedAtTokenEndpoint(project, project.sandbox.secret_key);
    await expectTokenIssued(project, rolled.secret!);
  });

  it("refuses to roll a key twice, or a revoked key, with 409 conflict", async () => {
    const { token } = await freshProject();
    const oldId = await onlyKeyId(token, "secret");
    const rolled = await expectJson(await call(token, "POST", `/keys/${oldId}/roll`, {}), 201);
    await expectApiError(await call(token, "POST", `/keys/${oldId}/roll`, {}), 409, "conflict");
    expect((await expectJson(await call(token, "POST", `/keys/${rolled.id}/roll`, {}), 201)).predecessor).toBe(rolled.id);

    const publishableId = await onlyKeyId(token, "publishable");
    await expectJson(await call(token, "DELETE", `/keys/${publishableId}`), 200);
    await expectApiError(await call(token, "POST", `/keys/${publishableId}/roll`, {}), 409, "conflict");
    expect((await list(token, "type=publishable")).data).toHaveLength(1);
  });

  it.each([
    [-1, "too_small"],
    [169, "too_large"],
    [1.5, "not_integer"],
    ["24", "invalid_type"],
  ])("rejects overlap_hours %j with 422 (%s) and rolls nothing", async (overlap, reason) => {
    freezeClock(T0);
    const { token } = await freshProject();
    const keyId = await onlyKeyId(token, "secret");
    const error = await expectApiError(await call(token, "POST", `/keys/${keyId}/roll`, { overlap_hours: overlap }), 422, "validation_failed");
    expect(error.error.detail).toEqual([expect.objectContaining({ field: "overlap_hours", reason })]);
    const rolled = await expectJson(await call(token, "POST", `/keys/${keyId}/roll`, {}), 201);
    expect(rolled.predecessor_expires_at).toBe(at(24 * HOUR_MS));
  });
});

describe("revoking keys", () => {
  it("revokes a key idempotently; new tokens are refused, tokens minted before still work", async () => {
    const clock = freezeClock(T0);
    // Minted with the very key revoked below.
    const { project, token } = await freshProject();
    const keyId = await onlyKeyId(token, "secret");
    const revoked = await expectJson(await call(token, "DELETE", `/keys/${keyId}`), 200);
    expect(revoked).toMatchObject({ id: keyId, object: "api_key", status: "revoked", revoked_at: T0, last4: project.sandbox.secret_key.slice(-4) });

    clock.advance(60_000);
    expect(await expectJson(await call(token, "DELETE", `/keys/${keyId}`), 200)).toEqual(revoked);
    await expectKeyRevokedAtTokenEndpoint(project, project.sandbox.secret_key);

    const listed = await call(token, "GET", "/keys?status=revoked");
    expect((await expectJson<ListBody>(listed, 200)).data).toEqual([revoked]);
  });
});

describe("isolation between projects and environments", () => {
  it("answers another project's key id with 404 not_found on read, revoke and roll", async () => {
    const { token } = await freshProject();
    const other = await freshProject();
    const otherId = await onlyKeyId(other.token, "secret");
    await expectApiError(await call(token, "GET", `/keys/${otherId}`), 404, "not_found");
    await expectApiError(await call(token, "DELETE", `/keys/${otherId}`), 404, "not_found");
    await expectApiError(await call(token, "POST", `/keys/${otherId}/roll`, {}), 404, "not_found");
    expect((await list(other.token)).data.map((key) => [key.status, key.expires_at])).toEqual([["active", null], ["active", null]]);
  });

  it("answers a live key id from a sandbox token with 401 environment_mismatch on read, revoke and roll", async () => {
    const { project, token } = await freshProject();
    const liveToken = await mintToken(server.url, project, { environment: "live" });
    const liveId = await onlyKeyId(liveToken, "secret");
    await expectApiError(await call(token, "GET", `/keys/${liveId}`), 401, "environment_mismatch");
    await expectApiError(await call(token, "DELETE", `/keys/${liveId}`), 401, "environment_mismatch");
    await expectApiError(await call(token, "POST", `/keys/${liveId}/roll`, {}), 401, "environment_mismatch");
    expect(await expectJson(await call(liveToken, "GET", `/keys/${liveId}`), 200)).toMatchObject({ status: "active", expires_at: null, livemode: true });
    expect((await list(liveToken)).data).toHaveLength(2);
  });

  it("answers a path id that is not a key id with 404 not_found", async () => {
    const { token } = await freshProject();
    await expectApiError(await call(token, "GET", "/keys/nope"), 404, "not_found");
    await expectApiError(await call(token, "DELETE", "/keys/nope"), 404, "not_found");
    await expectApiError(await call(token, "POST", `/keys/${newId("application")}/roll`, {}), 404, "not_found");
  });
});

describe("scope", () => {
  it("refuses a token without partner:manage with 403 insufficient_scope naming the scope", async () => {
    const project = await createTestProject();
    const token = await mintToken(server.url, project, { scope: "applications:read" });
    for (const response of [await call(token, "GET", "/keys"), await call(token, "POST", "/keys", { type: "secret" })]) {
      const header = response.headers.get("www-authenticate") ?? "";
      await expectApiError(response, 403, "insufficient_scope");
      expect(header).toContain('error="insufficient_scope"');
      expect(header).toContain('scope="partner:manage"');
    }
  });
});

describe("pagination", () => {
  let token: string;
  let all: string[];

  beforeAll(async () => {
    ({ token } = await freshProject());
    const created: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      created.push((await expectJson(await call(token, "POST", "/keys", { type: index === 1 ? "publishable" : "secret" }), 201)).id);
    }
    all = ids(await list(token));
    expect(all.slice(0, 3)).toEqual(created.reverse());
  });

  it("walks every sandbox key once with limit=2 and starting_after, newest first", async () => {
    expect(all).toHaveLength(5);
    const pages: Array<{ ids: string[]; has_more: boolean }> = [];
    let cursor = "";
    for (let page = 0; page < 5; page += 1) {
      const body = await list(token, `limit=2${cursor ? `&starting_after=${cursor}` : ""}`);
      pages.push({ ids: ids(body), has_more: body.has_more });
      if (!body.has_more) break;
      cursor = body.data.at(-1)!.id;
    }
    expect(pages.map((page) => [page.ids.length, page.has_more])).toEqual([[2, true], [2, true], [1, false]]);
    const seen = pages.flatMap((page) => page.ids);
    expect(seen).toEqual(all);
    expect(new Set(seen).size).toBe(5);
  });

  it("answers a cursor of another resource type with 404 not_found", async () => {
    await expectApiError(await call(token, "GET", `/keys?starting_after=${newId("application")}`), 404, "not_found");
  });
});

describe("allowed origins of publishable keys", () => {
  it("stores the origins given to a publishable key, shows them on create, list and retrieve, and keeps them across a roll", async () => {
    const { token } = await freshProject();
    const origins = ["https://shop.example.com", "https://www.example.co.uk:8443", "http://localhost:3000"];
    const created = await expectJson(await call(token, "POST", "/keys", { type: "publishable", allowed_origins: origins }), 201);
    expect(created).toMatchObject({ type: "publishable", allowed_origins: origins });
    expect((await list(token, "type=publishable")).data.find((key) => key.id === created.id)).toMatchObject({ allowed_origins: origins });
    expect(await expectJson(await call(token, "GET", `/keys/${created.id}`), 200)).toMatchObject({ allowed_origins: origins });
    const rolled = await expectJson(await call(token, "POST", `/keys/${created.id}/roll`, { overlap_hours: 0 }), 201);
    expect(rolled).toMatchObject({ predecessor: created.id, allowed_origins: origins });
  });

  it("gives a publishable key created without origins an empty list (any origin), and a secret key no such field", async () => {
    const { token } = await freshProject();
    const publishable = await expectJson(await call(token, "POST", "/keys", { type: "publishable" }), 201);
    expect(publishable.allowed_origins).toEqual([]);
    const secret = await expectJson(await call(token, "POST", "/keys", { type: "secret" }), 201);
    expect(secret).not.toHaveProperty("allowed_origins");
    expect((await list(token, "type=secret")).data.every((key) => !("allowed_origins" in key))).toBe(true);
  });

  const ORIGIN_REASON = "Each of allowed_origins must be an origin such as https://shop.example.com (https, lower case, no path), or, on a sandbox key, http://localhost with an optional port.";
  it.each([
    ["a secret key with origins", { type: "secret", allowed_origins: ["https://shop.example.com"] }, [{ field: "allowed_origins", reason: "not_allowed", message: "allowed_origins applies to publishable keys only: a secret key is never used from a page." }]],
    ["a secret key with an empty list", { type: "secret", allowed_origins: [] }, [expect.objectContaining({ field: "allowed_origins", reason: "not_allowed" })]],
    ["plain http other than localhost", { type: "publishable", allowed_origins: ["http://shop.example.com"] }, [{ field: "allowed_origins.0", reason: "invalid", message: ORIGIN_REASON }]],
    ["an origin with a path", { type: "publishable", allowed_origins: ["https://shop.example.com/checkout"] }, [expect.objectContaining({ field: "allowed_origins.0" })]],
    ["an origin with a trailing slash", { type: "publishable", allowed_origins: ["https://shop.example.com/"] }, [expect.objectContaining({ field: "allowed_origins.0" })]],
    ["an origin in upper case", { type: "publishable", allowed_origins: ["https://Shop.example.com"] }, [expect.objectContaining({ field: "allowed_origins.0" })]],
    ["a wildcard", { type: "publishable", allowed_origins: ["https://*.example.com"] }, [expect.objectContaining({ field: "allowed_origins.0" })]],
    ["an origin with credentials", { type: "publishable", allowed_origins: ["https://user@shop.example.com"] }, [expect.objectContaining({ field: "allowed_origins.0" })]],
    ["a second bad origin", { type: "publishable", allowed_origins: ["https://shop.example.com", "ftp://files.example.com"] }, [expect.objectContaining({ field: "allowed_origins.1" })]],
    ["an origin listed twice", { type: "publishable", allowed_origins: ["https://shop.example.com", "https://shop.example.com"] }, [{ field: "allowed_origins", reason: "duplicate", message: "allowed_origins must not list an origin twice." }]],
    ["twenty-one origins", { type: "publishable", allowed_origins: Array.from({ length: 21 }, (_, index) => `https://shop${index}.example.com`) }, [{ field: "allowed_origins", reason: "too_large", message: "allowed_origins must list at most 20 origins." }]],
    ["a string instead of a list", { type: "publishable", allowed_origins: "https://shop.example.com" }, [{ field: "allowed_origins", reason: "invalid_type", message: "allowed_origins must be an array, not a string." }]],
    ["a number in the list", { type: "publishable", allowed_origins: [443] }, [expect.objectContaining({ field: "allowed_origins.0" })]],
  ])("refuses %s with 422 validation_failed and creates nothing", async (_name, body, detail) => {
    const { token } = await freshProject();
    const error = await expectApiError(await call(token, "POST", "/keys", body), 422, "validation_failed");
    expect(error.error.detail).toEqual(detail);
    expect((await list(token)).data).toHaveLength(2);
  });
});
