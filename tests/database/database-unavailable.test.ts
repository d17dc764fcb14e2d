// Which database errors are an outage (lib/db.ts isDatabaseUnavailable): the request builder answers those
// 503 service_unavailable, retryable, and everything else 500. Each error here is a real one, from the pg pool
// and from Prisma, against the test database or a port where nothing listens.
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { db, disconnectDatabase, isDatabaseUnavailable, sharedPool } from "@/lib/db";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { eventually } from "../helpers/eventually";

const NOTHING_LISTENING = "postgresql://postgres@127.0.0.1:1/nothing";

afterAll(() => disconnectDatabase());

async function errorOf(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error("expected the work to fail");
}

/** Ends backend `pid`'s session once it is running pg_sleep, as an administrator's pg_terminate_backend or a restart would. */
async function endSessionWhileSleeping(pid: number): Promise<void> {
  const sleeping = () => sharedPool().query("SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND query LIKE '%pg_sleep%'", [pid]);
  await eventually(sleeping, (result) => result.rowCount === 1);
  await sharedPool().query("SELECT pg_terminate_backend($1)", [pid]);
}

describe("not an outage: a fault of the request or of the code, answered 500", () => {
  it("a message PostgreSQL cannot read (a NUL cuts a simple query short): 08P01 protocol_violation", async () => {
    const error = await errorOf(() => sharedPool().query("SELECT 'a\u0000b'"));
    expect(error).toMatchObject({ code: "08P01" });
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it("a NUL bound as a text parameter: 22021", async () => {
    const error = await errorOf(() => sharedPool().query("SELECT $1::text", ["a\u0000b"]));
    expect(error).toMatchObject({ code: "22021" });
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it("a NUL in a Prisma model query", async () => {
    const error = await errorOf(() => db().project.findFirst({ where: { name: "a\u0000b" } }));
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it("a NUL escape in jsonb through Prisma's raw query: P2010 over 22P05", async () => {
    const error = await errorOf(() => db().$queryRaw`SELECT ${'{"a": "\\u0000"}'}::jsonb`);
    expect(error).toMatchObject({ code: "P2010" });
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it("a statement PostgreSQL cannot parse through Prisma's raw query: P2010 over 42601", async () => {
    const error = await errorOf(() => db().$queryRawUnsafe("SELEC 1"));
    expect(error).toMatchObject({ code: "P2010" });
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it("Node's error for a client that hung up mid-request (ECONNRESET, but from no system call on our sockets)", () => {
    const clientAbort = Object.assign(new Error("aborted"), { code: "ECONNRESET" });
    expect(isDatabaseUnavailable(clientAbort)).toBe(false);
  });
});

describe("an outage: the database cannot be reached or ended the connection, answered 503", () => {
  it("nothing listening, through the pool: ECONNREFUSED", async () => {
    const pool = new pg.Pool({ connectionString: NOTHING_LISTENING });
    const error = await errorOf(() => pool.query("SELECT 1"));
    await pool.end();
    expect(error).toMatchObject({ code: "ECONNREFUSED" });
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it("nothing listening, through Prisma: P1001", async () => {
    const prisma = new PrismaClient({ adapter: new PrismaPg(new pg.Pool({ connectionString: NOTHING_LISTENING })) });
    const error = await errorOf(() => prisma.project.count());
    await prisma.$disconnect();
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it("no connection free in time: the pool's connect timeout", async () => {
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1, connectionTimeoutMillis: 10_000 });
    const held = await pool.connect();
    // Only the wait for a free connection is cut short: the first connect may take its time on a busy machine.
    pool.options.connectionTimeoutMillis = 50;
    const error = await errorOf(() => pool.query("SELECT 1"));
    held.release();
    await pool.end();
    expect(error).toMatchObject({ message: "timeout exceeded when trying to connect" });
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it("the server ends the session mid-query: 57P01", async () => {
    const connection = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await connection.connect();
    connection.on("error", () => undefined);
    const { rows } = await connection.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    const sleeping = errorOf(() => connection.query("SELECT pg_sleep(5)"));
    await endSessionWhileSleeping(rows[0]!.pid);
    const error = await sleeping;
    await connection.end();
    expect(error).toMatchObject({ code: "57P01" });
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it("the server ends the session mid-query, through Prisma's raw query: P2010 over 57P01", async () => {
    // A client of one connection, so the query to end is the one whose backend this names.
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    const rows = await prisma.$queryRaw<Array<{ pid: number }>>`SELECT pg_backend_pid() AS pid`;
    const sleeping = errorOf(() => prisma.$queryRaw`SELECT pg_sleep(5)`);
    await endSessionWhileSleeping(rows[0]!.pid);
    const error = await sleeping;
    await prisma.$disconnect();
    await pool.end();
    expect(error).toMatchObject({ code: "P2010" });
    expect(isDatabaseUnavailable(error)).toBe(true);
  });
});
