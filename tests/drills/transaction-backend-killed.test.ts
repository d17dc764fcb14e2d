// Drill: the PostgreSQL backend of an interactive transaction dies mid-statement. An embedded PostgreSQL of the
// test's own backs a pool of three; again and again, more times than the pool holds connections, a transaction
// runs a statement and another connection terminates its backend. Each failure is reported as the database
// being unavailable (a 503, not a 500), the dead connection leaves the pool instead of staying checked out, and
// afterwards Prisma and the fast lane still get connections.
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { db, disconnectDatabase, isDatabaseUnavailable, sharedPool, transact } from "@/lib/db";
import { connectFastLane, readRows } from "@/lib/fast-lane";
import { Prisma } from "@/lib/generated/prisma/client";
import { runForProject } from "@/lib/pool-bulkhead";
import { applyMigrations, databaseUrl, recreateDatabase, startEmbeddedPostgres, type EmbeddedCluster } from "../../scripts/database";
import { eventually } from "../helpers/eventually";
import { freePort } from "../helpers/free-port";

const POOL_SIZE = 3;

let cluster: EmbeddedCluster;
let killer: pg.Client;

beforeAll(async () => {
  cluster = await startEmbeddedPostgres({ dataDirName: "transaction-kill-drill", port: await freePort() });
  await recreateDatabase(cluster.serverUrl, "drill");
  const url = databaseUrl(cluster.serverUrl, "drill");
  await applyMigrations(url);
  process.env.DATABASE_URL = url;
  process.env.DATABASE_POOL_SIZE = String(POOL_SIZE);
  killer = new pg.Client({ connectionString: url });
  await killer.connect();
}, 120_000);
afterAll(async () => {
  await killer?.end();
  await disconnectDatabase();
  await cluster?.stop();
});

/** Terminates `pid` once it is running the statement the transaction is waiting on. */
async function terminateWhenBusy(pid: number): Promise<void> {
  await eventually(
    async () => (await killer.query("SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity WHERE pid = $1 AND state = 'active'", [pid])).rowCount,
    (terminated) => terminated === 1,
  );
}

async function transactionWhoseBackendDies(): Promise<unknown> {
  try {
    await transact(async (transaction) => {
      const [backend] = await transaction.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
      const killed = terminateWhenBusy(backend!.pid);
      try {
        await transaction.$queryRaw`SELECT pg_sleep(30)`;
      } finally {
        await killed;
      }
    });
  } catch (error) {
    return error;
  }
  throw new Error("the transaction outlived its backend");
}

it("destroys a connection whose backend died inside a transaction, and the pool keeps serving Prisma and the fast lane", async () => {
  const pool = sharedPool();
  for (let round = 0; round < POOL_SIZE * 3; round += 1) {
    const error = await transactionWhoseBackendDies();
    expect(isDatabaseUnavailable(error)).toBe(true);
  }

  // Nothing is left checked out: every connection the pool still counts is idle, and nobody waits for one.
  expect(pool.totalCount).toBeLessThanOrEqual(POOL_SIZE);
  expect({ checkedOut: pool.totalCount - pool.idleCount, waiting: pool.waitingCount }).toEqual({ checkedOut: 0, waiting: 0 });

  // A full pool's worth of work at once, through Prisma (in and out of transactions) and the fast lane.
  const work = await Promise.all([
    transact(async (transaction) => (await transaction.$queryRaw<{ one: number }[]>`SELECT 1 AS one`)[0]!.one),
    db().$queryRaw<{ one: number }[]>`SELECT 1 AS one`.then((rows) => rows[0]!.one),
    readRows<{ one: number }>(Prisma.sql`SELECT 1 AS one`).then((rows) => rows[0]!.one),
    connectFastLane().then(async (client) => {
      try {
        return (await client.query<{ one: number }>("SELECT 1 AS one")).rows[0]!.one;
      } finally {
        client.release();
      }
    }),
  ]);
  expect(work).toEqual([1, 1, 1, 1]);
  expect({ checkedOut: pool.totalCount - pool.idleCount, waiting: pool.waitingCount }).toEqual({ checkedOut: 0, waiting: 0 });
}, 120_000);

it("gives a project's share of the pool back when its transaction's backend dies, so the project keeps working", async () => {
  const pool = sharedPool();
  // The project's share is one connection (half of three, rounded down): every death would take it for good.
  for (let round = 0; round < POOL_SIZE * 2; round += 1) {
    const error = await runForProject("proj_backend_killed", transactionWhoseBackendDies);
    expect(isDatabaseUnavailable(error)).toBe(true);
  }

  const one = await runForProject("proj_backend_killed", () => transact(async (transaction) => (await transaction.$queryRaw<{ one: number }[]>`SELECT 1 AS one`)[0]!.one));
  expect(one).toBe(1);
  expect({ checkedOut: pool.totalCount - pool.idleCount, waiting: pool.waitingCount }).toEqual({ checkedOut: 0, waiting: 0 });
}, 120_000);
