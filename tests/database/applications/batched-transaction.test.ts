// The application create's batched transaction (lib/applications/batched-transaction.ts): literals written into a batched message must round-trip any
// value exactly and never let a value become SQL; a batched transaction commits everything or nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { readRows } from "@/lib/fast-lane";
import { Prisma } from "@/lib/generated/prisma/client";
import { inBatchedTransaction, inlineValues } from "@/lib/applications/batched-transaction";

// A table of this file's own, so nothing else in the shared database is touched.
const TABLE = Prisma.raw(`statements_test_${process.pid}`);

beforeAll(async () => {
  await db().$executeRaw`CREATE TABLE ${TABLE} (id text PRIMARY KEY, label text, amount integer, at timestamptz, flag boolean, document json)`;
});

afterAll(async () => {
  await db().$executeRaw`DROP TABLE ${TABLE}`;
});

async function storedLabel(id: string): Promise<string | undefined> {
  const [row] = await readRows<{ label: string }>(Prisma.sql`SELECT label FROM ${TABLE} WHERE id = ${id}`);
  return row?.label;
}

describe("inlineValues", () => {
  it("writes each kind of value as a literal", () => {
    const at = new Date("2027-01-02T03:04:05.678Z");
    const query = Prisma.sql`SELECT ${"it's"}, ${42}, ${-7}, ${1.5}, ${true}, ${false}, ${null}, ${at}`;
    expect(inlineValues(query)).toBe("SELECT 'it''s', 42, (-7), 1.5, TRUE, FALSE, NULL, '2027-01-02T03:04:05.678Z'");
  });

  it("escapes backslashes with the E'' form", () => {
    expect(inlineValues(Prisma.sql`SELECT ${"a\\b"}`)).toBe("SELECT  E'a\\\\b'");
  });

  it("refuses values it cannot write exactly", () => {
    expect(() => inlineValues(Prisma.sql`SELECT ${Number.NaN}`)).toThrow(TypeError);
    expect(() => inlineValues(Prisma.sql`SELECT ${Number.POSITIVE_INFINITY}`)).toThrow(TypeError);
    expect(() => inlineValues(Prisma.sql`SELECT ${{ an: "object" }}`)).toThrow(TypeError);
  });

  it("refuses a string with a NUL, which PostgreSQL would read as the end of the message", () => {
    expect(() => inlineValues(Prisma.sql`INSERT INTO t VALUES (${"a\u0000'); DROP TABLE t; --"})`)).toThrow(TypeError);
  });

  it.each([
    ["quotes", `O'Brien's "shop"`],
    ["backslashes", String.raw`C:\new\table \' \\`],
    ["an attempt to end the statement", `'); DROP TABLE users; --`],
    ["dollar quoting", "$$ $tag$ select 1 $tag$"],
    ["newlines and tabs", "line one\nline two\r\n\ttabbed"],
    ["unicode", "emoji 🚀, accents é, CJK 漢字, \u2028 separator"],
    ["a semicolon", "a; b; c"],
  ])("round-trips %s through a batched transaction unchanged", async (_name, label) => {
    const id = `literal-${Math.random()}`;
    await inBatchedTransaction((statements) => statements.write(Prisma.sql`INSERT INTO ${TABLE} (id, label) VALUES (${id}, ${label})`));
    expect(await storedLabel(id)).toBe(label);
  });

  it("round-trips numbers, instants, booleans and JSON text", async () => {
    const id = `typed-${Math.random()}`;
    const at = new Date("2027-06-30T23:59:59.999Z");
    const document = JSON.stringify({ quote: "it's", nested: { list: [1, "two"] } });
    await inBatchedTransaction((statements) =>
      statements.write(Prisma.sql`INSERT INTO ${TABLE} (id, amount, at, flag, document) VALUES (${id}, ${-2_500_000}, ${at}, ${false}, ${document}::json)`),
    );
    const [row] = await readRows<{ amount: number; at: Date; flag: boolean; document: unknown }>(
      Prisma.sql`SELECT amount, at, flag, document FROM ${TABLE} WHERE id = ${id}`,
    );
    expect(row).toEqual({ amount: -2_500_000, at, flag: false, document: JSON.parse(document) });
  });
});

describe("inBatchedTransaction", () => {
  it("runs queued writes before a read in the same transaction, and commits them", async () => {
    const id = `batch-${Math.random()}`;
    const seen = await inBatchedTransaction(async (statements) => {
      await statements.write(Prisma.sql`INSERT INTO ${TABLE} (id, label) VALUES (${id}, 'first')`);
      await statements.write(Prisma.sql`UPDATE ${TABLE} SET label = 'second' WHERE id = ${id}`);
      return statements.rows<{ label: string }>(Prisma.sql`SELECT label FROM ${TABLE} WHERE id = ${id}`);
    });
    expect(seen).toEqual([{ label: "second" }]);
    expect(await storedLabel(id)).toBe("second");
  });

  it("commits nothing when a statement fails, including the writes sent before it", async () => {
    const kept = `kept-${Math.random()}`;
    await inBatchedTransaction((statements) => statements.write(Prisma.sql`INSERT INTO ${TABLE} (id, label) VALUES (${kept}, 'kept')`));
    const fresh = `fresh-${Math.random()}`;
    await expect(
      inBatchedTransaction(async (statements) => {
        await statements.write(Prisma.sql`INSERT INTO ${TABLE} (id, label) VALUES (${fresh}, 'sent')`);
        await statements.rows(Prisma.sql`SELECT 1`);
        // A duplicate key: fails at COMMIT's round trip.
        await statements.write(Prisma.sql`INSERT INTO ${TABLE} (id, label) VALUES (${kept}, 'duplicate')`);
      }),
    ).rejects.toMatchObject({ code: "23505" });
    expect(await storedLabel(fresh)).toBeUndefined();
    expect(await storedLabel(kept)).toBe("kept");
  });

  it("commits nothing when the work throws after its writes were sent", async () => {
    const id = `thrown-${Math.random()}`;
    await expect(
      inBatchedTransaction(async (statements) => {
        await statements.write(Prisma.sql`INSERT INTO ${TABLE} (id, label) VALUES (${id}, 'sent')`);
        await statements.rows(Prisma.sql`SELECT 1`);
        throw new Error("the work fails");
      }),
    ).rejects.toThrow("the work fails");
    expect(await storedLabel(id)).toBeUndefined();
  });

  it("gives every connection back: many more transactions than the pool holds, failing and not, all complete", async () => {
    const outcomes = await Promise.allSettled(
      Array.from({ length: 60 }, (_, index) =>
        inBatchedTransaction(async (statements) => {
          const [row] = await statements.rows<{ n: number }>(Prisma.sql`SELECT ${index}::int AS n`);
          if (index % 3 === 0) throw new Error(`failure ${index}`);
          return row!.n;
        }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled").map((outcome) => outcome.value)).toEqual(
      Array.from({ length: 60 }, (_, index) => index).filter((index) => index % 3 !== 0),
    );
    expect(outcomes.filter((outcome) => outcome.status === "rejected")).toHaveLength(20);
  });
});
