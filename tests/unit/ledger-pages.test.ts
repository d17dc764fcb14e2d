// The memory of ledger pages (lib/accounts/ledger-pages.ts): a page is found only under the very key it was
// read at, the least recently used goes first, and the cache never holds more than its bound.
import { describe, expect, it } from "vitest";
import { LedgerPageCache, type LedgerPageKey } from "@/lib/accounts/ledger-pages";
import { RenderedJson } from "@/lib/wire/rendered-json";

const key = (overrides: Partial<LedgerPageKey> = {}): LedgerPageKey => ({ accountId: "acc_1", version: 3, limit: 100, url: "/partner/v1/accounts/acc_1/transactions", ...overrides });
const page = (size: number) => new RenderedJson("x".repeat(size));

describe("the ledger page cache", () => {
  it("finds a page only under the key it was stored at: account, version, limit, cursors and URL", () => {
    const cache = new LedgerPageCache(1_000);
    const stored = cache.set(key(), page(10));
    expect(cache.get(key())).toBe(stored);
    for (const other of [{ accountId: "acc_2" }, { version: 4 }, { limit: 20 }, { startingAfter: "txn_1" }, { endingBefore: "txn_1" }, { url: "/x" }]) {
      expect(cache.get(key(other))).toBeUndefined();
    }
  });

  it("keeps the first page stored under a key and answers with it", () => {
    const cache = new LedgerPageCache(1_000);
    const first = cache.set(key(), page(10));
    const second = page(10);
    expect(cache.set(key(), second)).toBe(second);
    expect(cache.get(key())).toBe(first);
  });

  it("evicts the least recently used pages past its bound, counting text and encoding", () => {
    const cache = new LedgerPageCache(100);
    cache.set(key({ version: 1 }), page(20));
    cache.set(key({ version: 2 }), page(20));
    expect(cache.size).toEqual({ pages: 2, bytes: 80 });
    cache.get(key({ version: 1 }));
    cache.set(key({ version: 3 }), page(20));
    expect(cache.size).toEqual({ pages: 2, bytes: 80 });
    expect(cache.get(key({ version: 2 }))).toBeUndefined();
    expect(cache.get(key({ version: 1 }))).toBeDefined();
    expect(cache.get(key({ version: 3 }))).toBeDefined();
  });

  it("does not keep a page larger than its whole bound", () => {
    const cache = new LedgerPageCache(100);
    cache.set(key(), page(60));
    expect(cache.size).toEqual({ pages: 0, bytes: 0 });
  });
});
