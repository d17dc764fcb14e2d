// A partner probe route whose one statement waits, in PostgreSQL, on an advisory lock the test holds from a
// connection of its own: slow database work that ends exactly when the test lets it, with no sleep.
import pg from "pg";
import { db } from "@/lib/db";
import { config } from "@/lib/env";
import { defineRoute, endpoint, ok } from "@/lib/http/route";

/** The advisory lock the probe waits on (a key no app code uses). */
const HELD_KEY = 7_203_114;

export const HELD_PROBE_PATH = "/partner/v1/_probe/held";

export const heldProbeRoutes = {
  [HELD_PROBE_PATH]: defineRoute("partner", "/_probe/held", {
    GET: endpoint({
      auth: { kind: "bearer", scope: "applications:read" },
      handler: async () => {
        await db().$queryRaw`SELECT 1 AS held FROM pg_advisory_xact_lock_shared(${HELD_KEY}::bigint)`;
        return ok({ object: "probe" });
      },
    }),
  }),
};

export interface HeldLock {
  /** Statements waiting on the lock now, in PostgreSQL. */
  waiting(): Promise<number>;
  release(): Promise<void>;
}

/** Takes the probe's lock on a connection outside the app's pool; every probe waits until `release`. */
export async function holdProbeLock(): Promise<HeldLock> {
  const holder = new pg.Client({ connectionString: config().DATABASE_URL });
  await holder.connect();
  await holder.query("SELECT pg_advisory_lock($1::bigint)", [HELD_KEY]);
  return {
    waiting: async () => (await holder.query<{ waiting: number }>("SELECT count(*)::int AS waiting FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND NOT granted", [HELD_KEY])).rows[0]!.waiting,
    release: async () => {
      await holder.query("SELECT pg_advisory_unlock($1::bigint)", [HELD_KEY]);
      await holder.end();
    },
  };
}
