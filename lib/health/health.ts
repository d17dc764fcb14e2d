// The public-ring health object (spec 2.10): healthy only when the database answers and every committed
// migration is applied.
import { clock } from "../clock";
import type { Database } from "../db";
import { readQueueStatus, type QueueStatus } from "../jobs/queue";
import { withTimeout } from "../with-timeout";
import { migrationsOnDisk, readMigrationStatus, type MigrationStatus } from "./migrations";
import { z } from "zod";
import { text, timestamp } from "../wire/response-schema";

export const APP_NAME = "lending-platform";
const DATABASE_TIMEOUT_MS = 2_000;

export interface Health {
  status: "ok" | "degraded";
  app: string;
  db: { up: boolean; latencyMs: number | null };
  migrations: MigrationStatus;
  queue: QueueStatus;
  time: string;
}

export async function checkHealth(database: Database): Promise<Health> {
  const started = performance.now();
  let up = false;
  let latencyMs: number | null = null;
  let migrations: MigrationStatus = { applied: 0, onDisk: migrationsOnDisk().length, inSync: false };
  try {
    await withTimeout(database.$queryRaw`SELECT 1`, DATABASE_TIMEOUT_MS);
    up = true;
    latencyMs = Math.round((performance.now() - started) * 10) / 10;
    migrations = await withTimeout(readMigrationStatus(database), DATABASE_TIMEOUT_MS);
  } catch {
    // Reported through `db.up` and `migrations.inSync`; the caller turns them into a 503.
  }
  const queue = await readQueueStatus().catch(() => ({ reachable: false, pending: 0 }));
  const healthy = up && migrations.inSync && queue.reachable;
  return {
    status: healthy ? "ok" : "degraded",
    app: APP_NAME,
    db: { up, latencyMs },
    migrations,
    queue,
    time: clock.now().toISOString(),
  };
}

export const healthSchema = z
  .strictObject({
    status: z.enum(["ok", "degraded"]),
    app: text(),
    db: z.strictObject({ up: z.boolean(), latencyMs: z.number().nullable() }),
    migrations: z.strictObject({ applied: z.int(), onDisk: z.int(), inSync: z.boolean() }),
    queue: z.strictObject({ reachable: z.boolean(), pending: z.int() }),
    time: timestamp(),
  })
  .meta({ id: "Health", description: "Platform health (spec 2.10): `ok` when the database answers, every migration is applied and the queue is reachable." });

export const livenessSchema = z.strictObject({ status: z.literal("ok") }).meta({ id: "Liveness" });

export const internalHealthSchema = z
  .strictObject({
    ratelimit: z.strictObject({ backend: z.enum(["memory", "redis", "upstash"]), reachable: z.boolean(), fallback_count: z.int() }),
    event_streams: z.strictObject({ open: z.int(), reads: z.int() }),
  })
  .meta({ id: "InternalHealth" });
