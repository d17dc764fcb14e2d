// The Idempotency-Key records (lib/idempotency/idempotency.ts) against the real PostgreSQL, below HTTP: what a
// migration did to the records already stored.
import { readFileSync } from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { IDEMPOTENCY_RETENTION_MS } from "@/lib/idempotency/idempotency";
import { newId } from "@/lib/ids";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { createTestProject } from "../helpers/partner";

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
