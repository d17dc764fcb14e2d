// Idempotency-Key on create-type partner POSTs (spec 4.12), over HTTP against POST /partner/v1/applications,
// POST /partner/v1/keys, POST /partner/v1/keys/{id}/roll and POST /partner/v1/webhook_endpoints. Time-travel
// tests freeze the clock before minting any token they use.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { claimIdempotencyKey, IDEMPOTENCY_RETENTION_MS, IN_PROGRESS_STALE_MS, pruneExpiredIdempotencyKeys, releaseIdempotencyKey, requestFingerprint } from "@/lib/idempotency/idempotency";
import { newId } from "@/lib/ids";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { forgetProjectState } from "@/lib/projects/project-state";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { holdRowLock } from "../../helpers/row-locks";
import { expectApiError, type ErrorBody, expectJson as expectJsonBody } from "../../helpers/http";
import { bearer, createTestProject, mintToken } from "../../helpers/partner";

interface ApiKeyBody {
  id: string;
  object: string;
  type: string;
  environment: string;
  secret: string;
  predecessor: string | null;
}

const T0 = "2027-01-10T10:00:00.000Z";
const REPLAYED = "idempotent-replayed";
const WITHHELD = "idempotent-withheld-fields";

let server: AppServer;
let project: ProjectCredentials;

beforeAll(async () => {
  server = await startAppServer();
});
// A project per test: each has its own rate-limit buckets, and tests that freeze the clock must not share a
// bucket drained at another time.
beforeEach(async () => {
  project = await createTestProject();
});
afterAll(() => server?.close());

/** A partner POST with an optional Idempotency-Key; `body` is sent as is when it is already a string. */
function post(token: string, path: string, body: unknown, key?: string): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (key !== undefined) headers["idempotency-key"] = key;
  const init = { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) };
  return fetch(`${server.url}/partner/v1${path}`, bearer(token, init));
}

/** A key object as an Idempotency-Key replays it: the secret is shown once and never stored. */
const withoutSecret = ({ secret: _secret, ...rest }: ApiKeyBody) => rest;

const expectJson = <T = ApiKeyBody>(response: Response, status: number) => expectJsonBody<T>(response, status);

const keyCount = (projectId: string, environment: "sandbox" | "live" = "sandbox") =>
  db().apiKey.count({ where: { projectId, environment } });

async function sandboxSecretKeyId(projectId: string): Promise<string> {
  const key = await db().apiKey.findFirstOrThrow({ where: { projectId, environment: "sandbox", type: "secret" } });
  return key.id;
}

describe("concurrent duplicates", () => {
  it("creates exactly one key for 20 concurrent identical requests: the secret once, replays without it, or in_progress", async () => {
    const platform = await createTestProject({ tier: "platform" });
    await db().project.update({
      where: { id: platform.project_id },
      data: { rateLimitPerSecond: 1000, rateLimitBurst: 1000, rateLimitConcurrent: 100 },
    });
    forgetProjectState(platform.project_id);
    const token = await mintToken(server.url, platform, { environment: "live" });
    const before = await keyCount(platform.project_id, "live");

    const responses = await Promise.all(Array.from({ length: 20 }, () => post(token, "/keys", { type: "secret" }, "concurrent-create")));
    const outcomes = await Promise.all(
      responses.map(async (response) => ({
        status: response.status,
        retryAfter: response.headers.get("retry-after"),
        withheld: response.headers.get("idempotent-withheld-fields"),
        body: await response.json(),
      })),
    );

    expect(await keyCount(platform.project_id, "live")).toBe(before + 1);
    const created = outcomes.filter((outcome) => outcome.status === 201);
    const inProgress = outcomes.filter((outcome) => outcome.status === 409).map((outcome) => outcome.body as ErrorBody);
    for (const outcome of outcomes) expect(outcome.retryAfter).toBe(outcome.status === 409 ? "1" : null);
    expect(created.length + inProgress.length).toBe(20);
    // The first request shows the secret once; a request that arrived after it finished is a replay without it.
    const [original, ...replays] = [...created].sort((a, b) => Number(a.withheld !== null) - Number(b.withheld !== null));
    expect(original!.withheld).toBeNull();
    expect((original!.body as ApiKeyBody).secret).toMatch(/^sk_live_/);
    expect(original!.body).toMatchObject({ object: "api_key", type: "secret", environment: "live" });
    const { secret: _shownOnce, ...withoutSecret } = original!.body as ApiKeyBody;
    for (const replay of replays) {
      expect(replay.withheld).toBe("secret");
      expect(replay.body).toEqual(withoutSecret);
    }
    for (const body of inProgress) expect(body.error).toMatchObject({ code: "idempotency_key_in_progress", retryable: true });
  });
});

describe("POST /partner/v1/applications", () => {
  const body = { business: { company_number: "12345678" }, amount_pence: 2_500_000, term_months: 12, applicant: { email: "a@example.co.uk" } };

  /** A live platform project with room for 20 requests in flight at once (the sandbox allows 10). */
  async function roomyProject() {
    const platform = await createTestProject({ tier: "platform" });
    await db().project.update({ where: { id: platform.project_id }, data: { rateLimitPerSecond: 1000, rateLimitBurst: 1000, rateLimitConcurrent: 100 } });
    forgetProjectState(platform.project_id);
    return { platform, token: await mintToken(server.url, platform, { environment: "live" }) };
  }

  it("creates exactly one application for 20 concurrent identical requests, each answered 201 or 409 in_progress", async () => {
    const { platform, token } = await roomyProject();
    const responses = await Promise.all(Array.from({ length: 20 }, () => post(token, "/applications", body, "concurrent-application")));
    const outcomes = await Promise.all(responses.map(async (response) => ({ status: response.status, body: await response.json() })));

    expect(await db().application.count({ where: { projectId: platform.project_id } })).toBe(1);
    expect(await db().event.count({ where: { projectId: platform.project_id, type: "application.created" } })).toBe(1);
    expect(outcomes.map((outcome) => outcome.status).filter((status) => status !== 201 && status !== 409)).toEqual([]);
    const created = outcomes.filter((outcome) => outcome.status === 201).map((outcome) => outcome.body);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const application of created) expect(application).toEqual(created[0]);
    for (const outcome of outcomes.filter((item) => item.status === 409)) {
      expect(outcome.body.error).toMatchObject({ code: "idempotency_key_in_progress", retryable: true });
    }
  });

  it("replays the identical body, and refuses the key with a different body", async () => {
    const token = await mintToken(server.url, project);
    const first = await post(token, "/applications", body, "application-replay");
    expect(first.status).toBe(201);
    const firstText = await first.text();
    const replay = await post(token, "/applications", body, "application-replay");
    expect(replay.status).toBe(201);
    expect(replay.headers.get(REPLAYED)).toBe("true");
    expect(await replay.text()).toBe(firstText);
    await expectApiError(await post(token, "/applications", { ...body, amount_pence: 2_500_100 }, "application-replay"), 409, "idempotency_key_reused");
    expect(await db().application.count({ where: { projectId: project.project_id } })).toBe(1);
  });

  it("does not spend the 5-a-second sub-limit on replays, and releases a key whose request it refused", async () => {
    const clock = freezeClock(T0);
    const token = await mintToken(server.url, project);
    for (let index = 0; index < 5; index += 1) expect((await post(token, "/applications", body, `sub-limit-${index}`)).status).toBe(201);
    // Replays answer from the store without running the operation, so the spent sub-limit does not refuse them.
    expect((await post(token, "/applications", body, "sub-limit-0")).status).toBe(201);

    const refused = await expectApiError(await post(token, "/applications", body, "sub-limit-5"), 429, "rate_limited");
    expect(refused.error.retry_after_ms).toBe(1000);
    clock.advance(1_000);
    // A 429 is not stored: the retry runs the request instead of replaying the refusal.
    const retried = await post(token, "/applications", body, "sub-limit-5");
    expect(retried.status).toBe(201);
    expect(retried.headers.get(REPLAYED)).toBeNull();
    expect(await db().application.count({ where: { projectId: project.project_id } })).toBe(6);
  });
});

describe("replaying a finished request", () => {
  it("returns the stored 201 body, less the secret, with Idempotent-Replayed and no second key", async () => {
    const token = await mintToken(server.url, project);
    const first = await post(token, "/keys", { type: "secret" }, "replay-me");
    expect(first.headers.get(REPLAYED)).toBeNull();
    const created = await expectJson(first, 201);
    expect(created.secret).toMatch(/^sk_sandbox_/);
    const count = await keyCount(project.project_id);

    const replay = await post(token, "/keys", { type: "secret" }, "replay-me");
    expect(replay.headers.get(REPLAYED)).toBe("true");
    // Byte for byte as first sent, key order included, the secret aside.
    expect(await replay.clone().text()).toBe(JSON.stringify(withoutSecret(created)));
    expect(await expectJson(replay, 201)).toEqual(withoutSecret(created));
    expect(await keyCount(project.project_id)).toBe(count);
  });

  it("treats field order and whitespace in the JSON body as the same request", async () => {
    const token = await mintToken(server.url, project);
    const created = await expectJson(await post(token, "/keys", '{"type":"secret","environment":"sandbox"}', "reordered"), 201);
    const count = await keyCount(project.project_id);

    const replay = await post(token, "/keys", '{ "environment" : "sandbox",\n  "type": "secret" }', "reordered");
    expect(replay.headers.get(REPLAYED)).toBe("true");
    expect(await expectJson(replay, 201)).toEqual(withoutSecret(created));
    expect(await keyCount(project.project_id)).toBe(count);
  });

  it("stores and replays a 4xx outcome: a second roll's 409 conflict comes back identical", async () => {
    const token = await mintToken(server.url, project);
    const keyId = await sandboxSecretKeyId(project.project_id);
    const successor = await expectJson(await post(token, `/keys/${keyId}/roll`, {}, "roll-1"), 201);
    expect(successor.predecessor).toBe(keyId);
    const count = await keyCount(project.project_id);

    const refused = await post(token, `/keys/${keyId}/roll`, {}, "roll-2");
    expect(refused.headers.get(REPLAYED)).toBeNull();
    const conflict = await expectApiError(refused, 409, "conflict");
    expect(conflict.error.message).toBe(`This key was already rolled; roll its successor ${successor.id}.`);

    const replay = await post(token, `/keys/${keyId}/roll`, {}, "roll-2");
    expect(replay.headers.get(REPLAYED)).toBe("true");
    expect(replay.headers.get(WITHHELD)).toBeNull();
    expect(await expectJson<ErrorBody>(replay, 409)).toEqual(conflict);
    expect(await keyCount(project.project_id)).toBe(count);
  });

  it("keeps the error envelope's X-Service-Correlation-Id header on a replayed 4xx", async () => {
    const token = await mintToken(server.url, project);
    const keyId = await sandboxSecretKeyId(project.project_id);
    await expectJson(await post(token, `/keys/${keyId}/roll`, {}, "roll-a"), 201);
    const conflict = await expectApiError(await post(token, `/keys/${keyId}/roll`, {}, "roll-b"), 409, "conflict");
    const replay = await post(token, `/keys/${keyId}/roll`, {}, "roll-b");
    expect(replay.headers.get(REPLAYED)).toBe("true");
    // docs/api-conventions.md: every error response carries the header, equal to error.correlation_id.
    expect(replay.headers.get("x-service-correlation-id")).toBe(conflict.error.correlation_id);
  });
});

describe("responses that carry a secret (spec 5.1: shown once, only a hash stored)", () => {
  const PUBLIC_URL = "https://93.184.215.14/hooks";

  /** The outcome the database holds for `key`, as the stored text. */
  async function storedOutcome(projectId: string, key: string): Promise<{ status: number | null; text: string }> {
    const [row] = await db().$queryRaw<{ status: number | null; text: string }[]>`
      SELECT response_status AS status, response_body::text AS text FROM idempotency_keys WHERE project_id = ${projectId} AND key = ${key}`;
    return row!;
  }

  /**
   * Sends `body` to `path` twice under one key: the first answer carries the secret; the stored outcome and the
   * replay are the same object without it, and the replay names the withheld field.
   */
  async function expectSecretWithheld(path: string, body: unknown, key: string, secretPattern: RegExp): Promise<void> {
    const token = await mintToken(server.url, project);
    const first = await post(token, path, body, key);
    expect(first.headers.get(WITHHELD)).toBeNull();
    const created = await expectJson<Record<string, unknown>>(first, 201);
    expect(created.secret).toMatch(secretPattern);
    const { secret, ...withoutSecret } = created;

    const stored = await storedOutcome(project.project_id, key);
    expect(stored.status).toBe(201);
    expect(stored.text).not.toContain(secret as string);
    expect(JSON.parse(stored.text)).toEqual(withoutSecret);

    const replay = await post(token, path, body, key);
    expect(replay.headers.get(REPLAYED)).toBe("true");
    expect(replay.headers.get(WITHHELD)).toBe("secret");
    const replayed = await expectJson<Record<string, unknown>>(replay, 201);
    expect(replayed).toEqual(withoutSecret);
    expect(replayed).not.toHaveProperty("secret");
  }

  it("POST /keys stores and replays the key without its secret", async () => {
    const count = await keyCount(project.project_id);
    await expectSecretWithheld("/keys", { type: "secret" }, "secret-create", /^sk_sandbox_/);
    expect(await keyCount(project.project_id)).toBe(count + 1);
  });

  it("POST /keys stores and replays a publishable key without its value", async () => {
    await expectSecretWithheld("/keys", { type: "publishable" }, "publishable-create", /^pk_sandbox_/);
  });

  it("POST /keys/{id}/roll stores and replays the successor without its secret", async () => {
    const keyId = await sandboxSecretKeyId(project.project_id);
    const count = await keyCount(project.project_id);
    await expectSecretWithheld(`/keys/${keyId}/roll`, { overlap_hours: 1 }, "secret-roll", /^sk_sandbox_/);
    expect(await keyCount(project.project_id)).toBe(count + 1);
  });

  it("POST /webhook_endpoints stores and replays the endpoint without its signing secret", async () => {
    await expectSecretWithheld("/webhook_endpoints", { url: PUBLIC_URL, enabled_events: ["*"] }, "secret-endpoint", /^whsec_/);
    expect(await db().webhookEndpoint.count({ where: { projectId: project.project_id } })).toBe(1);
  });
});

describe("reusing a key for another request", () => {
  it("refuses the same key with a different body as idempotency_key_reused", async () => {
    const token = await mintToken(server.url, project);
    await expectJson(await post(token, "/keys", { type: "secret" }, "reused-body"), 201);
    const count = await keyCount(project.project_id);
    await expectApiError(await post(token, "/keys", { type: "publishable" }, "reused-body"), 409, "idempotency_key_reused");
    expect(await keyCount(project.project_id)).toBe(count);
  });

  it("refuses the same key on another path (roll after create) as idempotency_key_reused", async () => {
    const token = await mintToken(server.url, project);
    await expectJson(await post(token, "/keys", { type: "secret" }, "reused-path"), 201);
    const keyId = await sandboxSecretKeyId(project.project_id);
    const count = await keyCount(project.project_id);
    const body = await expectApiError(await post(token, `/keys/${keyId}/roll`, {}, "reused-path"), 409, "idempotency_key_reused");
    expect(body.error.retryable).toBe(false);
    expect(await keyCount(project.project_id)).toBe(count);
  });
});

describe("scope of a key", () => {
  it("lets another project and the live environment of the same project use the same key string for their own objects", async () => {
    const other = await createTestProject();
    const sandbox = await mintToken(server.url, project);
    const live = await mintToken(server.url, project, { environment: "live" });
    const otherSandbox = await mintToken(server.url, other);

    const ours = await expectJson(await post(sandbox, "/keys", { type: "secret" }, "shared-key"), 201);
    const liveResponse = await post(live, "/keys", { type: "secret" }, "shared-key");
    expect(liveResponse.headers.get(REPLAYED)).toBeNull();
    const ourLive = await expectJson(liveResponse, 201);
    const otherResponse = await post(otherSandbox, "/keys", { type: "secret" }, "shared-key");
    expect(otherResponse.headers.get(REPLAYED)).toBeNull();
    const theirs = await expectJson(otherResponse, 201);

    expect(new Set([ours.id, ourLive.id, theirs.id]).size).toBe(3);
    expect([ours.environment, ourLive.environment, theirs.environment]).toEqual(["sandbox", "live", "sandbox"]);
    expect(await keyCount(project.project_id, "live")).toBe(3);
    expect(await keyCount(other.project_id)).toBe(3);
  });
});

describe("malformed keys", () => {
  it.each([
    ["an empty key", ""],
    ["a key of 256 characters", "k".repeat(256)],
    ["a key with a non-ASCII character", "clé"],
  ])("refuses %s with 400 idempotency_key_malformed and creates nothing", async (_name, key) => {
    const token = await mintToken(server.url, project);
    const count = await keyCount(project.project_id);
    await expectApiError(await post(token, "/keys", { type: "secret" }, key), 400, "idempotency_key_malformed");
    expect(await keyCount(project.project_id)).toBe(count);
  });

  it("accepts 255 printable ASCII characters, spaces included, and replays on them", async () => {
    const token = await mintToken(server.url, project);
    const key = `a${" ~".repeat(127)}`;
    expect(key).toHaveLength(255);
    const created = await expectJson(await post(token, "/keys", { type: "secret" }, key), 201);
    const replay = await post(token, "/keys", { type: "secret" }, key);
    expect(replay.headers.get(REPLAYED)).toBe("true");
    expect(await expectJson(replay, 201)).toEqual(withoutSecret(created));
  });
});

describe("a first request still in progress", () => {
  it("answers 409 idempotency_key_in_progress with Retry-After 1, then lets a claim older than 60 s be taken over", async () => {
    const now = new Date();
    const clock = freezeClock(now);
    const token = await mintToken(server.url, project);
    await db().idempotencyKey.create({
      data: {
        id: newId("idempotencyKey"),
        projectId: project.project_id,
        environment: "sandbox",
        key: "stuck",
        fingerprint: requestFingerprint("POST", "/partner/v1/keys", { type: "secret" }),
        status: "in_progress",
        lockedAt: now,
        createdAt: now,
        expiresAt: new Date(now.getTime() + IDEMPOTENCY_RETENTION_MS),
      },
    });
    const count = await keyCount(project.project_id);

    const busy = await post(token, "/keys", { type: "secret" }, "stuck");
    expect(busy.headers.get("retry-after")).toBe("1");
    const body = await expectApiError(busy, 409, "idempotency_key_in_progress");
    expect(body.error).toMatchObject({ retryable: true, retry_after_ms: 1000 });
    expect(await keyCount(project.project_id)).toBe(count);

    clock.set(new Date(now.getTime() + IN_PROGRESS_STALE_MS + 1_000));
    const taken = await post(token, "/keys", { type: "secret" }, "stuck");
    expect(taken.headers.get(REPLAYED)).toBeNull();
    const created = await expectJson(taken, 201);
    expect(await keyCount(project.project_id)).toBe(count + 1);
    const record = await db().idempotencyKey.findFirstOrThrow({ where: { projectId: project.project_id, key: "stuck" } });
    expect(record).toMatchObject({ status: "completed", responseStatus: 201, responseBody: withoutSecret(created) });
  });
});

describe("a first request whose key a retry took over", () => {
  const applicationBody = { business: { company_number: "12345678" }, amount_pence: 2_500_000, term_months: 12, applicant: { email: "a@example.co.uk" } };

  // Both run their transaction against the real database, the first stopped inside it by a lock the test holds
  // on the project's row (each create's insert must share it), for longer than the 60 s the retry waits.
  it.each([
    ["POST /keys, in a Prisma transaction", "/keys", { type: "secret" }, () => keyCount(project.project_id)],
    ["POST /applications, in the batched transaction", "/applications", applicationBody, () => db().application.count({ where: { projectId: project.project_id } })],
  ])("takes effect once: %s", async (_name, path, body, count) => {
    const clock = freezeClock(T0);
    const token = await mintToken(server.url, project);
    const before = await count();
    const lock = await holdRowLock("projects", project.project_id);

    const first = post(token, path, body, "overtaken");
    await lock.untilWaiting(1);
    clock.advance(IN_PROGRESS_STALE_MS + 1_000);
    const retry = post(token, path, body, "overtaken");
    await lock.untilWaiting(2);
    await lock.release();

    const [firstResponse, retryResponse] = await Promise.all([first, retry]);
    const created = await expectJson<{ id: string }>(retryResponse, 201);
    // The first could not commit once its claim was gone: it did nothing, and says to ask again.
    const refused = await expectApiError(firstResponse, 409, "idempotency_key_in_progress");
    expect(refused.error.retryable).toBe(true);
    expect(await count()).toBe(before + 1);
    const record = await db().idempotencyKey.findFirstOrThrow({ where: { projectId: project.project_id, key: "overtaken" } });
    expect(record).toMatchObject({ status: "completed", responseStatus: 201, lockedAt: clock.advance(0) });

    const asked = await post(token, path, body, "overtaken");
    expect(asked.headers.get(REPLAYED)).toBe("true");
    expect((await expectJson<{ id: string }>(asked, 201)).id).toBe(created.id);
  });
});

describe("retention", () => {
  it("treats a key as new once its 24 hours have passed", async () => {
    const clock = freezeClock(T0);
    const first = await expectJson(await post(await mintToken(server.url, project), "/keys", { type: "secret" }, "day-old"), 201);
    clock.advance(IDEMPOTENCY_RETENTION_MS + 1_000);
    const token = await mintToken(server.url, project);
    const again = await post(token, "/keys", { type: "secret" }, "day-old");
    expect(again.headers.get(REPLAYED)).toBeNull();
    const second = await expectJson(again, 201);
    expect(second.id).not.toBe(first.id);
    expect(second.secret).not.toBe(first.secret);
    expect(await db().idempotencyKey.count({ where: { projectId: project.project_id } })).toBe(1);
  });

  it("prunes expired keys and reports how many it deleted", async () => {
    const clock = freezeClock(T0);
    await expectJson(await post(await mintToken(server.url, project), "/keys", { type: "secret" }, "to-prune"), 201);
    const where = { projectId: project.project_id };
    expect(await db().idempotencyKey.count({ where })).toBe(1);

    clock.advance(IDEMPOTENCY_RETENTION_MS - 1_000);
    await pruneExpiredIdempotencyKeys();
    expect(await db().idempotencyKey.count({ where })).toBe(1);

    clock.advance(2_000);
    expect(await pruneExpiredIdempotencyKeys()).toBeGreaterThanOrEqual(1);
    expect(await db().idempotencyKey.count({ where })).toBe(0);
  });
});

describe("without an Idempotency-Key", () => {
  it("creates a new key for each of two identical requests", async () => {
    const token = await mintToken(server.url, project);
    const count = await keyCount(project.project_id);
    const first = await expectJson(await post(token, "/keys", { type: "secret" }), 201);
    const secondResponse = await post(token, "/keys", { type: "secret" });
    expect(secondResponse.headers.get(REPLAYED)).toBeNull();
    const second = await expectJson(secondResponse, 201);
    expect(second.id).not.toBe(first.id);
    expect(await keyCount(project.project_id)).toBe(count + 2);
    expect(await db().idempotencyKey.count({ where: { projectId: project.project_id } })).toBe(0);
  });
});

describe("requestFingerprint", () => {
  it("is stable for reordered fields at any depth and differs for another method, path or body", () => {
    const base = requestFingerprint("POST", "/partner/v1/keys", { type: "secret", nested: { a: 1, b: [1, { y: 2, x: 1 }] } });
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(requestFingerprint("POST", "/partner/v1/keys", { nested: { b: [1, { x: 1, y: 2 }], a: 1 }, type: "secret" })).toBe(base);
    const variants = [
      requestFingerprint("PUT", "/partner/v1/keys", { type: "secret", nested: { a: 1, b: [1, { y: 2, x: 1 }] } }),
      requestFingerprint("POST", "/partner/v1/keys/key_1/roll", { type: "secret", nested: { a: 1, b: [1, { y: 2, x: 1 }] } }),
      requestFingerprint("POST", "/partner/v1/keys", { type: "publishable", nested: { a: 1, b: [1, { y: 2, x: 1 }] } }),
      requestFingerprint("POST", "/partner/v1/keys", { type: "secret", nested: { a: 1, b: [{ y: 2, x: 1 }, 1] } }),
      requestFingerprint("POST", "/partner/v1/keys", undefined),
    ];
    expect(new Set([base, ...variants]).size).toBe(6);
  });

  it("tells apart bodies whose parsed timestamps differ, and not the same instant", () => {
    const since = (iso: string) => requestFingerprint("POST", "/partner/v1/webhook_endpoints/whe_1/recover", { since: new Date(iso) });
    expect(since("2027-06-01T08:00:00Z")).not.toBe(since("2027-06-02T08:00:00Z"));
    expect(since("2027-06-01T08:00:00Z")).toBe(since("2027-06-01T10:00:00+02:00"));
  });
});

describe("after a fault", () => {
  it("releases a key whose request failed with a 5xx, so the retry runs instead of waiting", async () => {
    const scope = { projectId: project.project_id, environment: "sandbox" as const };
    const fingerprint = requestFingerprint("POST", "/partner/v1/keys", { type: "secret" });
    const first = await claimIdempotencyKey(scope, "fault-1", fingerprint);
    if (first.kind !== "claimed") throw new Error(`expected a claim, got ${first.kind}`);
    await expect(claimIdempotencyKey(scope, "fault-1", fingerprint)).rejects.toMatchObject({ code: "idempotency_key_in_progress" });
    await releaseIdempotencyKey(first);
    expect((await claimIdempotencyKey(scope, "fault-1", fingerprint)).kind).toBe("claimed");
  });
});
