// Pages of accounts' ledgers, kept in memory against each account's ledger version. The ledger is append-only
// (a trigger refuses UPDATE and DELETE) and the database counts every row inserted into an account's ledger
// (accounts.ledger_version, kept by a trigger whoever inserts), so a page rendered when the count was N is the
// page for as long as the count is N. A read checks the count (one batched point read, which also checks the
// account is the caller's) and answers from here when the page is known: the ledger page was the API's most
// expensive read to render (docs/performance.md). Each process keeps its own; none can be stale.
import type { RenderedJson } from "../wire/rendered-json";

/** What the pages may hold, in bytes of their text and its encoding: a full page of 100 rows is about 50 KB. */
const MAX_CACHED_BYTES = 4 * 1024 * 1024;

export interface LedgerPageKey {
  accountId: string;
  /** The account's ledger version the page was read at (or after: never before). */
  version: number;
  limit: number;
  startingAfter?: string;
  endingBefore?: string;
  url: string;
}

const keyOf = (key: LedgerPageKey) => [key.accountId, key.version, key.limit, key.startingAfter ?? "", key.endingBefore ?? "", key.url].join("\u0000");

/** Least recently used pages go first once the cache is full. */
export class LedgerPageCache {
  readonly #pages = new Map<string, RenderedJson>();
  #bytes = 0;

  constructor(private readonly maxBytes: number = MAX_CACHED_BYTES) {}

  get(key: LedgerPageKey): RenderedJson | undefined {
    const id = keyOf(key);
    const page = this.#pages.get(id);
    if (page) {
      this.#pages.delete(id);
      this.#pages.set(id, page);
    }
    return page;
  }

  set(key: LedgerPageKey, page: RenderedJson): RenderedJson {
    const id = keyOf(key);
    const size = LedgerPageCache.sizeOf(page);
    if (size > this.maxBytes || this.#pages.has(id)) return page;
    this.#pages.set(id, page);
    this.#bytes += size;
    for (const [oldest, evicted] of this.#pages) {
      if (this.#bytes <= this.maxBytes) break;
      this.#pages.delete(oldest);
      this.#bytes -= LedgerPageCache.sizeOf(evicted);
    }
    return page;
  }

  get size(): { pages: number; bytes: number } {
    return { pages: this.#pages.size, bytes: this.#bytes };
  }

  /** The text and its UTF-8 encoding: a ledger page is ASCII, a byte a character in each. */
  private static sizeOf(page: RenderedJson): number {
    return page.text.length * 2;
  }
}

const registry = globalThis as unknown as { __ledgerPages?: LedgerPageCache };

/** The process's pages: one cache however many bundles carry this module (Next bundles each route). */
export function ledgerPages(): LedgerPageCache {
  registry.__ledgerPages ??= new LedgerPageCache();
  return registry.__ledgerPages;
}
