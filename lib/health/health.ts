// The public-ring health object (spec 2.10): healthy only when the database answers and every committed
// migration is applied.
import { clock } from "../clock";
import type { Database } from "../db";
import { BACKGROUND_OPERATIONS } from "../background/catalogue";
import { readQueueStatus, type QueueStatus } from "../jobs/queue";
import { withTimeout } from "../with-timeout";
import { migrationsOnDisk, readMigrationStatus, type MigrationStatus } from "./migrations";

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
  const queue = await readQueueStatus(BACKGROUND_OPERATIONS).catch(() => ({ reachable: false, pending: 0 }));
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
