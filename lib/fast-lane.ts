// The fast lane: hand-written SQL straight on the pool Prisma shares (lib/db.ts), for the hot paths the benchmark
// measures and nothing else. Only the modules in tests/unit/fast-lane-fence.test.ts's allow-list may import it.
//
// Why: Prisma's Rust-free client compiles every ORM call in WebAssembly on the request's thread, about 0.5 ms of
// CPU per query here; a hand-written query through `$queryRaw` costs about 0.13 ms, and the same query on the
// pool directly about 0.04 ms (docs/performance.md). A new hot path starts on Prisma, gets a bench row, and
// moves here only if the measurement says so.
import type pg from "pg";
import { sharedPool } from "./db";
import { outsideProjects } from "./pool-bulkhead";
import type { Prisma } from "./generated/prisma/client";

/**
 * Runs a hand-written query on the shared pool, outside any transaction. For the hottest reads only; values come back as `pg` parses them (timestamptz as Date, json as objects; cast enums to text and
 * never select int8, which would come back as a string).
 */
export async function readRows<T>(query: Prisma.Sql): Promise<T[]> {
  return (await sharedPool().query<T & pg.QueryResultRow>(prepared(query))).rows;
}

/** The fast lane for a statement: the number of rows it touched. */
export async function execute(query: Prisma.Sql): Promise<number> {
  return (await sharedPool().query(prepared(query))).rowCount ?? 0;
}

// Fast-lane queries run as named prepared statements: PostgreSQL plans each text once per connection instead
// of on every call (planning the list query cost more than running it). The texts are a handful per query
// (one per combination of filters); past a bound, further texts run unnamed. The names are the process's, as the
// pool is (lib/db.ts): Next bundles this module once for the route handlers and again for the pages, and two
// copies numbering their own texts would give one connection `fast_lane_1` for two different statements.
const registry = globalThis as unknown as { __fastLaneStatements?: Map<string, string> };
const statementNames = (registry.__fastLaneStatements ??= new Map<string, string>());
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

const MAX_BATCH = 100;

/**
 * One-key reads that arrive in the same turn of the event loop, answered by one query (the DataLoader pattern):
 * a round trip costs this process more CPU than the rows it carries (the socket write, the driver's per-query
 * work), so under concurrent load one query serves several requests. `readMany` returns the rows found, each
 * with the `position` of the key it answers (1-based, as `unnest(…) WITH ORDINALITY` numbers them); a key
 * without a row reads undefined. A failed query fails every read of its batch.
 */
export function batchedRead<K, R extends { position: number }>(readMany: (keys: readonly K[]) => Promise<readonly R[]>): (key: K) => Promise<R | undefined> {
  let pending: { key: K; resolve: (row: R | undefined) => void; reject: (error: unknown) => void }[] = [];
  const flush = async () => {
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    try {
      const rows = new Map((await readMany(batch.map((read) => read.key))).map((row) => [row.position, row]));
      batch.forEach((read, index) => read.resolve(rows.get(index + 1)));
    } catch (error) {
      for (const read of batch) read.reject(error);
    }
  };
  // A batch serves whichever projects read in its turn, so it waits in no project's queue for a connection
  // (lib/pool-bulkhead.ts): else a busy project's read that opened it would hold back the others'.
  const flushAsNoProject = () => outsideProjects(flush);
  return (key) =>
    new Promise((resolve, reject) => {
      if (pending.length === 0) setImmediate(flushAsNoProject);
      pending.push({ key, resolve, reject });
      if (pending.length >= MAX_BATCH) void flushAsNoProject();
    });
}

/** A connection of the fast lane's pool, for the application create's batched transaction (lib/applications/batched-transaction.ts). */
export function connectFastLane(): Promise<pg.PoolClient> {
  return sharedPool().connect();
}

