// batchedRead (lib/fast-lane.ts): reads made in the same turn of the event loop go to one readMany call, each
// caller gets its own key's answer, a failure fails the whole batch and no later one, and a full batch goes at once.
import { describe, expect, it } from "vitest";
import { batchedRead } from "@/lib/fast-lane";

function squares() {
  const calls: number[][] = [];
  const read = batchedRead<number, { position: number; square: number }>(async (keys) => {
    calls.push([...keys]);
    // Rows come back in no particular order, as a query's do; a negative key has none.
    return keys.flatMap((key, index) => (key < 0 ? [] : [{ position: index + 1, square: key * key }])).reverse();
  });
  return { read: async (key: number) => (await read(key))?.square, calls };
}

describe("batchedRead", () => {
  it("answers the reads of one turn with one call, each with its own key's row", async () => {
    const { read, calls } = squares();
    expect(await Promise.all([read(2), read(3), read(-1), read(2)])).toEqual([4, 9, undefined, 4]);
    expect(calls).toEqual([[2, 3, -1, 2]]);
  });

  it("starts a new batch for reads made after the last one went", async () => {
    const { read, calls } = squares();
    expect(await read(4)).toBe(16);
    expect(await Promise.all([read(5), read(6)])).toEqual([25, 36]);
    expect(calls).toEqual([[4], [5, 6]]);
  });

  it("fails every read of a failed batch, and only that batch", async () => {
    let failing = true;
    const read = batchedRead<number, { position: number }>(async (keys) => {
      if (failing) throw new Error("connection lost");
      return keys.map((_, index) => ({ position: index + 1 }));
    });
    const failed = await Promise.allSettled([read(1), read(2)]);
    expect(failed.map((result) => result.status)).toEqual(["rejected", "rejected"]);
    failing = false;
    expect(await read(3)).toEqual({ position: 1 });
  });

  it("sends a batch of a hundred at once rather than waiting for the turn to end", async () => {
    const { read, calls } = squares();
    const reads = Array.from({ length: 150 }, (_, key) => read(key));
    expect(calls.map((batch) => batch.length)).toEqual([100]);
    expect((await Promise.all(reads)).slice(98, 102)).toEqual([98 * 98, 99 * 99, 100 * 100, 101 * 101]);
    expect(calls.map((batch) => batch.length)).toEqual([100, 50]);
  });
});
