// The application create's transaction: hand-written statements on the fast lane, batched. The create is the
// one write path the benchmark measures (docs/performance.md), and the only user of this module.
//
// Why batching: on these machines a round trip to PostgreSQL costs the server more CPU (two system calls and
// the driver's work, ~0.1 ms) than the statement itself, and a create used to make seven. A batched
// transaction queues the writes whose results nobody reads and sends them with the next read, or with COMMIT,
// as one multi-statement message; a create now makes two round trips (docs/performance.md). A message of
// several statements cannot carry bind parameters, so values are written into it as escaped literals.
import pg from "pg";
import type { TransactionKind } from "../db";
import { connectFastLane } from "../fast-lane";
import type { Prisma } from "../generated/prisma/client";

export interface Statements {
  /** Queues a statement whose result is not needed: it runs, in order, before the next read or at commit. */
  write(query: Prisma.Sql): Promise<void>;
  /** Runs a query (after any queued writes) and returns its rows. */
  rows<T>(query: Prisma.Sql): Promise<T[]>;
}

/** A value as a SQL literal. Only the types our statements bind; anything else is a programming error. */
function literal(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "string") {
    // PostgreSQL reads a query message up to its first NUL: the rest would be a malformed message. Request
    // strings never hold one (lib/wire/request-string.ts); this keeps any other value from cutting a batch short.
    if (value.includes("\u0000")) throw new TypeError("Cannot write a NUL character into a statement");
    return pg.escapeLiteral(value);
  }
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError(`Cannot write ${value} into a statement`);
    return value < 0 ? `(${value})` : String(value);
  }
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (value instanceof Date) return `'${value.toISOString()}'`;
  throw new TypeError(`Cannot write a ${typeof value} into a statement; pass JSON as a string`);
}

/** The statement with its values written in as literals. */
export function inlineValues(query: Prisma.Sql): string {
  let text = query.strings[0]!;
  query.values.forEach((value, index) => {
    text += literal(value) + query.strings[index + 1]!;
  });
  return text;
}

/**
 * Runs `work` in one transaction on the fast lane, with its writes batched (see the header). Everything
 * commits together or not at all; a failed statement fails the whole transaction.
 */
export async function inBatchedTransaction<T>(work: (statements: Statements) => Promise<T>): Promise<T> {
  // Connected at the first round trip, so work done before any statement (a registry lookup) holds no connection.
  let client: pg.PoolClient | undefined;
  let queued = ["BEGIN"];
  const send = async (last?: string): Promise<pg.QueryResult> => {
    const message = [...queued, ...(last === undefined ? [] : [last])].join(";\n");
    queued = [];
    client ??= await connectFastLane();
    const results = (await client.query(message)) as pg.QueryResult | pg.QueryResult[];
    return Array.isArray(results) ? results[results.length - 1]! : results;
  };
  let broken = false;
  try {
    const result = await work({
      write: async (query) => {
        queued.push(inlineValues(query));
      },
      rows: async <R>(query: Prisma.Sql) => (await send(inlineValues(query))).rows as R[],
    });
    queued.push("COMMIT");
    await send();
    return result;
  } catch (error) {
    // After a failed statement this ends the aborted transaction (a COMMIT that failed has already ended it,
    // and then this only draws a warning).
    await client?.query("ROLLBACK").catch(() => (broken = true));
    throw error;
  } finally {
    // A connection that cannot even roll back is destroyed rather than given back to the pool.
    client?.release(broken || undefined);
  }
}

/** The create endpoint's transaction kind: its Idempotency-Key outcome is queued with its writes. */
export const batchedTransaction: TransactionKind<Statements> = {
  run: inBatchedTransaction,
  write: (statements, statement) => statements.write(statement),
};
