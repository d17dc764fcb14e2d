// The Idempotency-Key records (lib/idempotency/idempotency.ts) against the real PostgreSQL, below HTTP: a claim
// taken over from a first request that outlived the stale limit, racing that request's own ending; and what a
// migration did to the records already stored. The HTTP behaviour is in tests/api/partner/idempotency.test.ts.
import { readFileSync } from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  IDEMPOTENCY_RETENTION_MS,
  idempotencyOutcomeStatement,
  IN_PROGRESS_STALE_MS,
  releaseIdempotencyKey,
  requestFingerprint,
  type Claim,
} from "@/lib/idempotency/idempotency";
import { newId } from "@/lib/ids";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { createTestProject } from "../helpers/partner";
import { sessionPid, untilSessionsWaitOn } from "../helpers/row-locks";

let project: ProjectCredentials;

beforeEach(async () => {
  project = await createTestProject();
});

/** A completed record of `key` holding `status` and `body`, as the code before the migration wrote them. */
async function storedRecord(key: string, status: number, body: object): Promise<string> {
  const now = new Date();
  const id = newId("idempotencyKey");
  await db().idempotencyKey.create({
    data: {
      id,
      projectId: project.project_id,
      environment: "sandbox",
      key,
      fingerprint: "f".repeat(64),
      status: "completed",
      responseStatus: status,
      responseBody: body,
      lockedAt: now,
      createdAt: now,
      expiresAt: new Date(now.getTime() + IDEMPOTENCY_RETENTION_MS),
    },
  });
  return id;
}

const T0 = "2027-05-06T07:08:09.000Z";
const FINGERPRINT = requestFingerprint("POST", "/partner/v1/keys", { type: "secret" });
const scope = () => ({ projectId: project.project_id, environment: "sandbox" as const });

/** Claims `key`, expecting to hold it (a replay or a refusal fails the test). */
async function claim(key: string): Promise<Extract<Claim, { kind: "claimed" }>> {
  const claimed = await claimIdempotencyKey(scope(), key, FINGERPRINT);
  if (claimed.kind !== "claimed") throw new Error(`expected to claim ${key}, got ${JSON.stringify(claimed)}`);
  return claimed;
}

describe("a claim taken over after the stale limit", () => {
  it("waits for the first request's outcome committing at that moment, and replays it instead of running again", async () => {
    const clock = freezeClock(T0);
    const first = await claim("racing-commit");
    let finish!: () => void;
    const finishing = new Promise<void>((resolve) => (finish = resolve));
    let holding!: (pid: number) => void;
    const held = new Promise<number>((resolve) => (holding = resolve));
    // The first request's transaction at the moment it writes its outcome. It holds the record's row from the
    // start so that the retry, which reads the record without a lock, still finds it in progress and meets the
    // row held when it tries to take it over (the write alone would make the retry's insert wait instead).
    const firstTransaction = db().$transaction(async (transaction) => {
      await transaction.$queryRaw`SELECT id FROM idempotency_keys WHERE id = ${first.recordId} FOR UPDATE`;
      holding(await sessionPid(transaction));
      await finishing;
      await transaction.$executeRaw(idempotencyOutcomeStatement(first, 201, { id: "key_first" }));
    });
    const firstPid = await held;

    clock.advance(IN_PROGRESS_STALE_MS + 1_000);
    const retry = claimIdempotencyKey(scope(), "racing-commit", FINGERPRINT);
    await untilSessionsWaitOn(firstPid, 1);
    finish();
    await firstTransaction;

    expect(await retry).toEqual({ kind: "replay", status: 201, body: { id: "key_first" } });
  });

  it("leaves the retry's claim in place when the first request gives its key back after a fault", async () => {
    const clock = freezeClock(T0);
    const first = await claim("released-late");
    clock.advance(IN_PROGRESS_STALE_MS + 1_000);
    const retry = await claim("released-late");
    expect(retry.recordId).toBe(first.recordId);

    await releaseIdempotencyKey(first);

    await expect(claimIdempotencyKey(scope(), "released-late", FINGERPRINT)).rejects.toMatchObject({ code: "idempotency_key_in_progress" });
    expect(await db().idempotencyKey.findUniqueOrThrow({ where: { id: retry.recordId } })).toMatchObject({ status: "in_progress", lockedAt: clock.advance(0) });
  });

  it("does not record the first request's final failure over the retry still running", async () => {
    const clock = freezeClock(T0);
    const first = await claim("failed-late");
    clock.advance(IN_PROGRESS_STALE_MS + 1_000);
    const retry = await claim("failed-late");

    expect(await completeIdempotencyKey(first, 409, { error: { code: "conflict" } })).toBe(false);

    await expect(claimIdempotencyKey(scope(), "failed-late", FINGERPRINT)).rejects.toMatchObject({ code: "idempotency_key_in_progress" });
    expect(await completeIdempotencyKey(retry, 201, { id: "key_retry" })).toBe(true);
    expect(await claimIdempotencyKey(scope(), "failed-late", FINGERPRINT)).toEqual({ kind: "replay", status: 201, body: { id: "key_retry" } });
  });
});

const bodyOf = async (id: string) => (await db().idempotencyKey.findUniqueOrThrow({ where: { id } })).responseBody;

describe("migration 20261126090000_idempotency_records_without_secrets", () => {
  const migration = readFileSync("prisma/migrations/20261126090000_idempotency_records_without_secrets/migration.sql", "utf8");

  it("drops the secret from stored successes and leaves every other record as it was", async () => {
    const key = { id: "key_01", object: "api_key", prefix: "sk_sandbox_", last4: "abcd", secret: "sk_sandbox_0123456789abcdefghijklmnopqrstuvwxyzabcd" };
    const endpoint = { id: "whe_01", object: "webhook_endpoint", url: "https://93.184.215.14/hooks", secret: "whsec_0123456789012345678901234567890123456789" };
    const conflict = { error: { code: "conflict", message: "This key was already rolled.", correlation_id: "cor_01", retryable: false } };
    const application = { id: "app_01", object: "application", status: "created" };
    const ids = {
      key: await storedRecord("with-key-secret", 201, key),
      endpoint: await storedRecord("with-endpoint-secret", 201, endpoint),
      conflict: await storedRecord("an-error", 409, conflict),
      application: await storedRecord("no-secret", 201, application),
    };

    await db().$executeRawUnsafe(migration);

    const { secret: _keySecret, ...keyWithoutSecret } = key;
    const { secret: _endpointSecret, ...endpointWithoutSecret } = endpoint;
    expect(await bodyOf(ids.key)).toEqual(keyWithoutSecret);
    expect(await bodyOf(ids.endpoint)).toEqual(endpointWithoutSecret);
    expect(await bodyOf(ids.conflict)).toEqual(conflict);
    expect(await bodyOf(ids.application)).toEqual(application);
  });
});
