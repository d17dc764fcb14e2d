// Per-process caches of rows that change rarely but must never be trusted stale: API keys (a revoked key must
// fail at once) and project state (suspension, "revoke outstanding tokens"). PostgreSQL triggers NOTIFY on
// every change to those tables when the writing transaction commits, whoever wrote it (migration
// 20261124070000_change_notifications); each process LISTENs on one connection of its own and drops what changed.
// The same connection hears each sandbox event as it is recorded (migration 20261125160000), which wakes the
// open event streams of its project: one listener per process, however many streams are open. It also hears the
// pricing configuration and the CMS pages change (migration 20261203090000), which the site's pages are built from.
//
// A cache serves entries only while its process is listening: before the first LISTEN is acknowledged, after
// the connection drops and until it is back, every read goes to the database. Entries also expire after a few
// seconds, a bound on staleness should notifications ever go missing (a pooler in transaction mode, for one,
// does not carry them).
import pg from "pg";
import { config } from "./env";
import { describeError, log } from "./log";

const CHANNEL = "cached_row_changes";
const RECONNECT_DELAYS_MS = [100, 1_000, 5_000, 30_000];

/** The tables whose changes are heard, as their triggers name them. */
export type WatchedTable = "api_keys" | "projects" | "events" | "oauth_signing_keys" | "pricing_configs" | "cms_pages";

/**
 * `id` is the changed row's (for `events`, the `<project_id>:sandbox` that recorded one), or null when anything
 * may have changed (the feed was interrupted).
 */
type ChangeListener = (id: string | null) => void;

class ChangeFeed {
  private client: pg.Client | null = null;
  private listening = false;
  private failures = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private readonly listeners = new Map<WatchedTable, Set<ChangeListener>>();
  /** Bumped by every change; a read that started under another generation may have seen the old row. */
  generation = 0;

  /** Whether changes are being heard right now; the first call starts listening. */
  isListening(): boolean {
    if (!this.client && !this.reconnectTimer) this.connect();
    return this.listening;
  }

  /** Calls `listener` with every change to `table`; returns the function that stops it. */
  subscribe(table: WatchedTable, listener: ChangeListener): () => void {
    const set = this.listeners.get(table) ?? new Set();
    set.add(listener);
    this.listeners.set(table, set);
    return () => set.delete(listener);
  }

  /** Drops the entries a change names, in this process, at once (the notification follows for the others). */
  announce(table: WatchedTable, id: string | null): void {
    this.generation += 1;
    for (const listener of this.listeners.get(table) ?? []) listener(id);
  }

  private connect(): void {
    const url = config().DATABASE_URL;
    if (!url) return;
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    this.client = client;
    client.on("notification", (message) => {
      const separator = message.payload?.indexOf(":") ?? -1;
      if (separator < 0) return;
      this.announce(message.payload!.slice(0, separator) as WatchedTable, message.payload!.slice(separator + 1));
    });
    client.on("error", (error) => this.interrupted(client, error));
    client.on("end", () => this.interrupted(client, null));
    client
      .connect()
      .then(() => client.query(`LISTEN ${CHANNEL}`))
      .then(() => {
        if (this.client !== client) return;
        // Whatever changed before this moment was not heard: start from nothing.
        this.forgetEverything();
        this.listening = true;
        this.failures = 0;
        // The listener must not keep a finished process (the CLI, a test run) alive.
        (client as unknown as { connection: { stream: { unref?: () => void } } }).connection.stream.unref?.();
      })
      .catch((error: unknown) => this.interrupted(client, error));
  }

  private interrupted(client: pg.Client, error: unknown): void {
    if (this.client !== client) return;
    this.client = null;
    this.listening = false;
    this.forgetEverything();
    client.end().catch(() => undefined);
    if (error && this.failures === 0) log.warn("change feed interrupted: caches off until it is back", describeError(error));
    const delay = RECONNECT_DELAYS_MS[Math.min(this.failures, RECONNECT_DELAYS_MS.length - 1)]!;
    this.failures += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect();
    }, delay);
    this.reconnectTimer.unref();
  }

  private forgetEverything(): void {
    for (const table of this.listeners.keys()) this.announce(table, null);
  }

  /** Closes the connection; a later cache read starts listening again. */
  async stop(): Promise<void> {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    const client = this.client;
    this.client = null;
    this.listening = false;
    this.forgetEverything();
    await client?.end().catch(() => undefined);
  }
}

// Next's dev server re-evaluates modules on change; keep one feed per process across reloads.
const holder = globalThis as unknown as { __lendingChangeFeed?: ChangeFeed };

export function changeFeed(): ChangeFeed {
  holder.__lendingChangeFeed ??= new ChangeFeed();
  return holder.__lendingChangeFeed;
}

export async function stopChangeFeed(): Promise<void> {
  await holder.__lendingChangeFeed?.stop();
}

/**
 * A per-process cache of rows of one table, trusted only while the change feed is listening. An entry is
 * dropped when its row changes: the row is the entry's key unless `rowIdOf` names it from the value. A load
 * that finds nothing (`undefined`) is not kept, so a row created a moment ago is found at once. Callers that
 * miss the same key together share one load, unless something changed after it started.
 */
export class ListenedCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();
  private readonly loads = new Map<string, { generation: number; value: Promise<V | undefined> }>();

  constructor(
    table: WatchedTable,
    private readonly options: { ttlMs: number; maxEntries: number; rowIdOf?: (value: V) => string },
  ) {
    changeFeed().subscribe(table, (id) => this.forget(id));
  }

  /** The cached value, or `load()`'s, which is kept when nothing changed while it was read. */
  async read(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const feed = changeFeed();
    if (!feed.isListening()) return load();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > performance.now()) return hit.value;
    const generation = feed.generation;
    const underWay = this.loads.get(key);
    if (underWay?.generation === generation) return underWay.value;
    const value = this.loadAndKeep(key, load, generation);
    this.loads.set(key, { generation, value });
    return value;
  }

  private async loadAndKeep(key: string, load: () => Promise<V | undefined>, generation: number): Promise<V | undefined> {
    const feed = changeFeed();
    try {
      const value = await load();
      if (value !== undefined && feed.isListening() && feed.generation === generation) {
        if (this.entries.size >= this.options.maxEntries) this.entries.clear();
        this.entries.set(key, { value, expiresAt: performance.now() + this.options.ttlMs });
      }
      return value;
    } finally {
      if (this.loads.get(key)?.generation === generation) this.loads.delete(key);
    }
  }

  private forget(rowId: string | null): void {
    const { rowIdOf } = this.options;
    if (rowId === null) this.entries.clear();
    else if (!rowIdOf) this.entries.delete(rowId);
    else for (const [key, entry] of this.entries) if (rowIdOf(entry.value) === rowId) this.entries.delete(key);
  }
}
