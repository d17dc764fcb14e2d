// The embedded default: the same policies as @upstash/ratelimit (token bucket refilled once per interval,
// fixed window, concurrency slots) kept in this process's memory and timed by the platform clock. The store is
// bounded: an entry goes once it says nothing a fresh one would not (a full bucket, an ended window, expired
// slots), and past `maxEntries` the least recently used goes first, so no stream of new identifiers can grow it.
import { randomUUID } from "node:crypto";
import { clock } from "../clock";
import type { RatePolicy } from "./policies";
import { tokenBucketDecision, type LimitDecision, type RateLimitStore } from "./store";

const INTERVAL_MS = 1000;
/** How often expired entries are swept out, at most. */
const SWEEP_INTERVAL_MS = 10_000;
const DEFAULT_MAX_ENTRIES = 100_000;

interface Bucket {
  kind: "bucket";
  tokens: number;
  refilledAt: number;
  /** When the bucket is full again, and so no different from a new one. */
  expiresAt: number;
}

interface Window {
  kind: "window";
  window: number;
  count: number;
  expiresAt: number;
}

interface Slots {
  kind: "slots";
  /** Each taken slot's id and the time it frees itself if never given back. */
  held: Map<string, number>;
  expiresAt: number;
}

type Entry = Bucket | Window | Slots;

export class MemoryRateLimitStore implements RateLimitStore {
  readonly backend = "memory" as const;
  private readonly entries = new Map<string, Entry>();
  private sweptAt = 0;

  constructor(private readonly maxEntries = DEFAULT_MAX_ENTRIES) {}

  /** How many keys the store holds. */
  get size(): number {
    return this.entries.size;
  }

  private read<K extends Entry["kind"]>(key: string, kind: K, now: number): Extract<Entry, { kind: K }> | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.kind !== kind || entry.expiresAt <= now) return undefined;
    return entry as Extract<Entry, { kind: K }>;
  }

  /** Stores `entry` as the most recently used, making room first when the store is full. */
  private write(key: string, entry: Entry, now: number): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.sweep(now);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, entry);
  }

  private sweep(now: number): void {
    this.sweptAt = now;
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }

  private now(): number {
    const now = clock.now().getTime();
    if (Math.abs(now - this.sweptAt) >= SWEEP_INTERVAL_MS) this.sweep(now);
    return now;
  }

  async limit(policy: RatePolicy, identifier: string): Promise<LimitDecision> {
    const now = this.now();
    const key = `${policy.name}:${identifier}`;
    if (policy.kind === "fixedWindow") {
      const windowMs = policy.windowSeconds * 1000;
      const window = Math.floor(now / windowMs);
      const current = this.read(key, "window", now);
      const count = (current && current.window === window ? current.count : 0) + 1;
      const allowed = count <= policy.limit;
      const msToReset = (window + 1) * windowMs - now;
      if (allowed) this.write(key, { kind: "window", window, count, expiresAt: now + msToReset }, now);
      return {
        allowed,
        limit: policy.limit,
        remaining: Math.max(0, policy.limit - Math.min(count, policy.limit)),
        resetSeconds: Math.ceil(msToReset / 1000),
        retryAfterMs: allowed ? 0 : msToReset,
      };
    }
    const bucket = this.read(key, "bucket", now) ?? { kind: "bucket", tokens: policy.burst, refilledAt: now, expiresAt: now };
    if (now >= bucket.refilledAt + INTERVAL_MS) {
      const refills = Math.floor((now - bucket.refilledAt) / INTERVAL_MS);
      bucket.tokens = Math.min(policy.burst, bucket.tokens + refills * policy.ratePerSecond);
      bucket.refilledAt += refills * INTERVAL_MS;
    }
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    bucket.expiresAt = bucket.refilledAt + Math.ceil((policy.burst - bucket.tokens) / policy.ratePerSecond) * INTERVAL_MS;
    this.write(key, bucket, now);
    return tokenBucketDecision({
      allowed,
      burst: policy.burst,
      ratePerSecond: policy.ratePerSecond,
      remaining: bucket.tokens,
      msUntilNextRefill: bucket.refilledAt + INTERVAL_MS - now,
    });
  }

  async acquire(key: string, max: number, ttlMs: number): Promise<string | null> {
    const now = this.now();
    const slots = this.read(key, "slots", now) ?? { kind: "slots", held: new Map<string, number>(), expiresAt: now };
    for (const [slot, expiresAt] of slots.held) if (expiresAt <= now) slots.held.delete(slot);
    if (slots.held.size >= max) return null;
    const slot = randomUUID();
    slots.held.set(slot, now + ttlMs);
    slots.expiresAt = Math.max(slots.expiresAt, now + ttlMs);
    this.write(key, slots, now);
    return slot;
  }

  async release(key: string, slot: string): Promise<void> {
    this.read(key, "slots", this.now())?.held.delete(slot);
  }
}
