// The one Prisma client, over one pg pool per process (driver adapter; no query-engine binary). Prisma is the
// way to the database; the fast lane (lib/fast-lane.ts) shares the pool for the few measured hot paths.
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { Prisma, PrismaClient } from "./generated/prisma/client";
import { stopChangeFeed } from "./change-feed";
import { config, type Config } from "./env";
import { guardPool } from "./pool-bulkhead";

export type Database = PrismaClient;
/** The database or an open transaction: services take this so a caller can make their writes part of its own. */
export type DatabaseClient = PrismaClient | Prisma.TransactionClient;

/** Runs `work` in a transaction: a new one, or the caller's when `database` already is one. */
export function inTransaction<T>(database: DatabaseClient, work: (transaction: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  return "$transaction" in database ? transact(work, database) : work(database);
}

const commitHooks = new WeakMap<Prisma.TransactionClient, (() => void)[]>();

/** Runs `work` in a new transaction, then, once it has committed, the hooks `whenCommitted` gave it. */
export async function transact<T>(work: (transaction: Prisma.TransactionClient) => Promise<T>, database: PrismaClient = db()): Promise<T> {
  const hooks: (() => void)[] = [];
  const result = await database.$transaction(async (transaction) => {
    commitHooks.set(transaction, hooks);
    return work(transaction);
  });
  for (const hook of hooks) hook();
  return result;
}

/**
 * Runs `hook` once `transaction` has committed, never if it rolls back: for work that must see the
 * transaction's writes (decisioning a submitted application), whoever opened the transaction. The transaction
 * must come from `transact` or `inTransaction`.
 */
export function whenCommitted(transaction: Prisma.TransactionClient, hook: () => void): void {
  const hooks = commitHooks.get(transaction);
  if (!hooks) throw new Error("whenCommitted needs a transaction opened by transact() or inTransaction()");
  hooks.push(hook);
}

type ConnectCallback = (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: Error | boolean) => void) => void;

/**
 * The pool, letting go of a checked-out connection whose server end has gone. Prisma's driver adapter gives a
 * transaction's connection back only once its ROLLBACK has succeeded; when the backend died mid-transaction the
 * ROLLBACK cannot, and the connection would stay checked out for good: one place in the pool lost per death,
 * until nothing can connect (tests/drills/transaction-backend-killed.test.ts). So a connection handed out here
 * is released, with its error so the pool destroys it, as soon as it ends; a later release by its holder does
 * nothing.
 */
class ConnectionPool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    if (!callback) return super.connect().then(releasedWhenItEnds);
    // pg-pool's own `query` takes this form, and so does the bulkhead (lib/pool-bulkhead.ts) in front of Prisma.
    super.connect((error, client, done) => (client ? callback(error, releasedWhenItEnds(client), client.release) : callback(error, client, done)));
  }
}

function releasedWhenItEnds(client: pg.PoolClient): pg.PoolClient {
  const release = client.release;
  let released = false;
  // Through the connection's release as it stands then, so whatever wraps it (the bulkhead's count) hears too.
  const onEnd = () => client.release(new Error("the database connection ended while checked out"));
  // The error that precedes the end: heard here so that a connection nobody is querying cannot end the process.
  const onError = () => undefined;
  function giveBack(error?: Error | boolean): void {
    if (released) return;
    released = true;
    client.removeListener("end", onEnd);
    client.removeListener("error", onError);
    release(error);
  }
  client.once("end", onEnd);
  client.on("error", onError);
  client.release = giveBack;
  return client;
}

interface Connection {
  pool: pg.Pool;
  prisma: PrismaClient;
}

/** The longest a caller waits for a connection: from the pool, or for its project's share of it. */
const CONNECT_TIMEOUT_MS = 5_000;

/** The most of the pool one project holds at once (lib/pool-bulkhead.ts): half of it, at least 1, unless configured. */
export function projectShareOfPool(settings: Pick<Config, "DATABASE_POOL_SIZE" | "DATABASE_PROJECT_CONNECTIONS">): number {
  return Math.min(settings.DATABASE_POOL_SIZE, settings.DATABASE_PROJECT_CONNECTIONS ?? Math.max(1, Math.floor(settings.DATABASE_POOL_SIZE / 2)));
}

// Next's dev server re-evaluates modules on change; keep one pool and client per process across reloads.
const holder = globalThis as unknown as { __lendingDb?: Connection };

function connection(): Connection {
  if (!holder.__lendingDb) {
    const url = config().DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set: start the app with `npm run dev` or `npm start`, which provide one");
    const settings = config();
    const pool = guardPool(
      // Every statement is cancelled after DATABASE_STATEMENT_TIMEOUT_MS (sent with the connection's start-up, so
      // it costs no round trip): no request or job holds a connection on one statement for longer.
      new ConnectionPool({ connectionString: url, max: settings.DATABASE_POOL_SIZE, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, statement_timeout: settings.DATABASE_STATEMENT_TIMEOUT_MS }),
      projectShareOfPool(settings),
      CONNECT_TIMEOUT_MS,
    );
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
  run: (work) => transact(work),
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

// Connection failures, as each layer reports them. Anything else the database, pg or Prisma throws (a constraint,
// a value PostgreSQL refuses, a message it cannot read) is a fault of the request or of our code: answered 503,
// it would tell the client to retry what can only fail again.
//
// Prisma: P1001 unreachable, P1002 and P1008 timed out, P1017 connection closed, P2024 pool timeout, P2037 too
// many connections; its driver adapter names the same kinds on the errors it wraps (a raw query's P2010 carries
// one as `meta.driverAdapterError.cause`).
const PRISMA_CONNECTION_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2037"]);
const ADAPTER_CONNECTION_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
// SQLSTATE class 08 (connection exception) but 08P01 protocol_violation, which is a message we got wrong;
// 53300 too many connections; 57P01-57P03 the server is shutting down or starting; 57014 a statement cancelled,
// by its statement_timeout (or an operator): the database too busy to finish it in time, an overload to retry.
const CONNECTION_SQLSTATES = new Set(["08000", "08001", "08003", "08004", "08006", "08007", "53300", "57P01", "57P02", "57P03", "57014"]);
// A system call on the database's socket that failed. Node gives a client that hangs up mid-request ECONNRESET
// too, but that error comes from no system call.
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EAI_AGAIN", "EPIPE"]);
const POOL_MESSAGES = /^(timeout exceeded when trying to connect|Connection terminated)/;

function isConnectionFailure(error: object): boolean {
  const { code, kind, syscall } = error as { code?: unknown; kind?: unknown; syscall?: unknown };
  if (typeof code === "string" && (PRISMA_CONNECTION_CODES.has(code) || CONNECTION_SQLSTATES.has(code))) return true;
  if (typeof kind === "string" && ADAPTER_CONNECTION_KINDS.has(kind)) return true;
  if (typeof code === "string" && typeof syscall === "string" && SOCKET_CODES.has(code)) return true;
  return error instanceof Error && POOL_MESSAGES.test(error.message);
}

/** The errors `error` wraps: Prisma's driver adapter error and its payload, or an AggregateError's parts. */
function wrappedErrors(error: object): unknown[] {
  const { cause, meta } = error as { cause?: unknown; meta?: { driverAdapterError?: unknown } };
  return [cause, meta?.driverAdapterError, ...(error instanceof AggregateError ? error.errors : [])];
}

function reportsConnectionFailure(error: unknown, depth: number): boolean {
  // Prisma's error, the adapter's, its payload: a few layers at most, and a cycle of causes must not loop.
  if (typeof error !== "object" || error === null || depth > 4) return false;
  return isConnectionFailure(error) || wrappedErrors(error).some((inner) => reportsConnectionFailure(inner, depth + 1));
}

/** True for errors that mean "try again shortly" rather than a bug: the caller answers 503, retryable. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return reportsConnectionFailure(error, 0);
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
