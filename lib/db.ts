// The one Prisma client, over one pg pool per process (driver adapter; no query-engine binary). Prisma is the
// way to the database; the fast lane (lib/fast-lane.ts) shares the pool for the few measured hot paths.
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { Prisma, PrismaClient } from "./generated/prisma/client";
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

/** The pool Prisma's adapter uses: only the fast lane (lib/fast-lane.ts) reaches it directly. */
export function sharedPool(): pg.Pool {
  return connection().pool;
}

/**
 * A kind of transaction an idempotent endpoint's handler runs in (lib/http/idempotent-handler.ts): Prisma's,
 * or the application create's batched one (lib/applications/batched-transaction.ts).
 */
export interface TransactionKind<T> {
  run<R>(work: (transaction: T) => Promise<R>): Promise<R>;
  /** Runs one statement inside the transaction (an Idempotency-Key's outcome). */
  write(transaction: T, statement: Prisma.Sql): Promise<void>;
}

export const prismaTransaction: TransactionKind<Prisma.TransactionClient> = {
  run: (work) => db().$transaction(work),
  write: async (transaction, statement) => {
    await transaction.$executeRaw(statement);
  },
};

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

/**
 * The SQLSTATE of a failed statement, as `pg` reports it (the fast lane) or as Prisma passes on its driver
 * adapter's: how a caller recognises an error its own SQL raised.
 */
export function sqlState(error: unknown): string | undefined {
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    const cause = (error.meta?.driverAdapterError as { cause?: { originalCode?: unknown } } | undefined)?.cause;
    return typeof cause?.originalCode === "string" ? cause.originalCode : undefined;
  }
  return error instanceof pg.DatabaseError ? error.code : undefined;
}
