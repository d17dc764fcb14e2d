// The one Prisma client, over one pg pool per process (driver adapter; no query-engine binary).
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient, type Prisma } from "./generated/prisma/client";
import { config } from "./env";

export type Database = PrismaClient;
/** The database or an open transaction: services take this so a caller can make their writes part of its own. */
export type DatabaseClient = PrismaClient | Prisma.TransactionClient;

/** Runs `work` in a transaction: a new one, or the caller's when `database` already is one. */
export function inTransaction<T>(database: DatabaseClient, work: (transaction: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  return "$transaction" in database ? database.$transaction(work) : work(database);
}

function createDatabase(url: string): PrismaClient {
  const adapter = new PrismaPg({ connectionString: url, max: config().DATABASE_POOL_SIZE, connectionTimeoutMillis: 5_000 });
  return new PrismaClient({ adapter });
}

// Next's dev server re-evaluates modules on change; keep one client per process across reloads.
const holder = globalThis as unknown as { __lendingDb?: PrismaClient };

export function db(): PrismaClient {
  if (!holder.__lendingDb) {
    const url = config().DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set: start the app with `npm run dev` or `npm start`, which provide one");
    holder.__lendingDb = createDatabase(url);
  }
  return holder.__lendingDb;
}

export async function disconnectDatabase(): Promise<void> {
  await holder.__lendingDb?.$disconnect();
  holder.__lendingDb = undefined;
}

// Prisma codes meaning the database could not be reached or answered in time (not a query fault):
// P1001 unreachable, P1002 timed out, P1008 operation timed out, P1017 connection closed, P2024 pool timeout.
const UNAVAILABLE_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);

/** True for errors that mean "try again shortly" rather than a bug: the caller answers 503, retryable. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return typeof error === "object" && error !== null && UNAVAILABLE_CODES.has(String((error as { code?: unknown }).code));
}
