// The one Prisma client, over one pg pool per process (driver adapter; no query-engine binary), and a fast
// lane on the same pool for the few hottest queries.
//
// Why the fast lane: Prisma's Rust-free client compiles every ORM call in WebAssembly on the request's thread,
// about 0.5 ms of CPU per query here; a hand-written query through `$queryRaw` costs about 0.13 ms, and the
// same query on the pool directly about 0.04 ms (docs/performance.md). Everything else uses the ORM.
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient, type Prisma } from "./generated/prisma/client";
import { stopChangeFeed } from "./change-feed";
import { config } from "./env";

export type Database = PrismaClient;
/** The database or an open transaction: services take this so a caller can make their writes part of its own. */
export type DatabaseClient = PrismaClient | Prisma.TransactionClient;

/** Runs `work` in a transaction: a new one, or the caller's when `database` already is one. */
export function inTransaction<T>(database: DatabaseClient, work: (transaction: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  return "$transaction" in database ? database.$transaction(work) : work(database);
}

interface Connection {
  pool: pg.Pool;
  prisma: PrismaClient;
}

// Next's dev server re-evaluates modules on change; keep one pool and client per process across reloads.
const holder = globalThis as unknown as { __lendingDb?: Connection };

function connection(): Connection {
  if (!holder.__lendingDb) {
    const url = config().DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set: start the app with `npm run dev` or `npm start`, which provide one");
    const pool = new pg.Pool({ connectionString: url, max: config().DATABASE_POOL_SIZE, connectionTimeoutMillis: 5_000 });
    // An idle connection the server drops is reported here; without a listener it would end the process.
    pool.on("error", () => undefined);
    holder.__lendingDb = { pool, prisma: new PrismaClient({ adapter: new PrismaPg(pool) }) };
  }
  return holder.__lendingDb;
}

export function db(): PrismaClient {
  return connection().prisma;
}

/**
 * The fast lane: runs a hand-written query on the shared pool, outside any transaction. For the hottest reads
 * only; values come back as `pg` parses them (timestamptz as Date, json as objects; cast enums to text and
 * never select int8, which would come back as a string).
 */
export async function readRows<T>(query: Prisma.Sql): Promise<T[]> {
  return (await connection().pool.query<T & pg.QueryResultRow>(prepared(query))).rows;
}

/** The fast lane for a statement: the number of rows it touched. */
export async function execute(query: Prisma.Sql): Promise<number> {
  return (await connection().pool.query(prepared(query))).rowCount ?? 0;
}

// Fast-lane queries run as named prepared statements: PostgreSQL plans each text once per connection instead
// of on every call (planning the list query cost more than running it). The texts are a handful per query
// (one per combination of filters); past a bound, further texts run unnamed.
const statementNames = new Map<string, string>();
const MAX_PREPARED_STATEMENTS = 256;

function prepared(query: Prisma.Sql): pg.QueryConfig {
  const text = query.text;
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < MAX_PREPARED_STATEMENTS) {
    name = `fast_lane_${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  // Dates go as ISO 8601 text (every timestamp column is timestamptz): pg's own Date formatting, in local time
  // with an offset, cost more than the rest of binding a create's values.
  return { name, text, values: query.values.map((value) => (value instanceof Date ? value.toISOString() : value)) };
}

/** A connection of the fast lane's pool, for a transaction of hand-written statements (lib/statements.ts). */
export function connectFastLane(): Promise<pg.PoolClient> {
  return connection().pool.connect();
}

export async function disconnectDatabase(): Promise<void> {
  await stopChangeFeed();
  const current = holder.__lendingDb;
  holder.__lendingDb = undefined;
  if (!current) return;
  await current.prisma.$disconnect();
  await current.pool.end();
}

// Prisma codes meaning the database could not be reached or answered in time (not a query fault):
// P1001 unreachable, P1002 timed out, P1008 operation timed out, P1017 connection closed, P2024 pool timeout.
const UNAVAILABLE_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);

// The same, as `pg` reports them on the fast lane: socket errors, SQLSTATE class 08 (connection exception),
// 53300 (too many connections) and 57P01-57P03 (the server is shutting down or starting).
const UNAVAILABLE_SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EAI_AGAIN", "EPIPE"]);
const UNAVAILABLE_SQLSTATE = /^(08...|53300|57P0[123])$/;
const UNAVAILABLE_POOL_MESSAGES = /^(timeout exceeded when trying to connect|Connection terminated)/;

/** True for errors that mean "try again shortly" rather than a bug: the caller answers 503, retryable. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const code = String((error as { code?: unknown }).code);
  if (UNAVAILABLE_CODES.has(code) || UNAVAILABLE_SOCKET_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code)) return true;
  if (error instanceof AggregateError) return error.errors.some(isDatabaseUnavailable);
  return error instanceof Error && UNAVAILABLE_POOL_MESSAGES.test(error.message);
}
