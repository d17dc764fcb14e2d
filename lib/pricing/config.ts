// Reading and changing the pricing configuration. Every change is a new version row; the newest is current.
// Readers get it through a short per-process cache: the public ring serves it on every product and quote call.
// A new version anywhere (the CLI, another process) empties it at once through the change feed; the expiry is
// the bound on staleness should notifications go missing.
import { changeFeed } from "../change-feed";
import { clock, isFresh } from "../clock";
import { db } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { DEFAULT_PRICING, pricingConfigSchema, type PricingConfig, type PricingFigures } from "./schemas";

const CACHE_MS = 5_000;
let cached: { config: PricingConfig; readAt: number } | undefined;
/** The read under way, which every caller that finds the cache stale waits on: one query per expiry, not one per request. */
let reading: Promise<PricingConfig> | undefined;
/** Bumped by forgetCachedPricing: a read that started before it may have seen the version it forgot. */
let generation = 0;

function toConfig(row: { version: number; config: unknown; createdAt: Date }): PricingConfig {
  return { version: row.version, updated_at: row.createdAt.toISOString(), ...pricingConfigSchema.parse(row.config) };
}

let hearingChanges = false;

/** The current configuration; the defaults become version 1 the first time it is read. */
export async function getPricingConfig(): Promise<PricingConfig> {
  if (!hearingChanges) {
    hearingChanges = true;
    changeFeed().subscribe("pricing_configs", forgetCachedPricing);
  }
  changeFeed().isListening();
  const now = clock.now().getTime();
  if (cached && isFresh(now - cached.readAt, CACHE_MS)) return cached.config;
  if (!reading) {
    const read = readCurrentConfig(now).finally(() => {
      if (reading === read) reading = undefined;
    });
    reading = read;
  }
  return reading;
}

async function readCurrentConfig(now: number): Promise<PricingConfig> {
  const startedIn = generation;
  let row = await db().pricingConfig.findFirst({ orderBy: { version: "desc" } });
  if (!row) {
    await db().pricingConfig.createMany({
      data: [{ version: 1, config: DEFAULT_PRICING as unknown as Prisma.InputJsonValue, note: "defaults", createdAt: clock.now() }],
      skipDuplicates: true,
    });
    row = await db().pricingConfig.findFirstOrThrow({ orderBy: { version: "desc" } });
  }
  // A version is never changed once written: the same version keeps its object, and with it what was derived
  // from it (the rendered catalogue).
  const config = cached?.config.version === row.version ? cached.config : toConfig(row);
  if (startedIn === generation) cached = { config, readAt: now };
  return config;
}

export function forgetCachedPricing(): void {
  cached = undefined;
  reading = undefined;
  generation += 1;
}

export class PricingConfigError extends Error {
  override name = "PricingConfigError";
}

/**
 * Applies `change` to the current figures and stores the result as the next version. Refuses (and stores
 * nothing) when the result is not a valid configuration; two concurrent changes cannot take the same version.
 */
export async function updatePricingConfig(change: (current: PricingFigures) => unknown, note: string | null): Promise<PricingConfig> {
  forgetCachedPricing();
  const current = await getPricingConfig();
  const { version, updated_at: _updatedAt, ...figures } = current;
  const result = pricingConfigSchema.safeParse(change(structuredClone(figures)));
  if (!result.success) {
    throw new PricingConfigError(result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("\n"));
  }
  const row = await db().pricingConfig.create({
    data: { version: version + 1, config: result.data as unknown as Prisma.InputJsonValue, note, createdAt: clock.now() },
  });
  forgetCachedPricing();
  return toConfig(row);
}

export async function listPricingVersions(limit: number) {
  const rows = await db().pricingConfig.findMany({ orderBy: { version: "desc" }, take: limit });
  return rows.map((row) => ({ version: row.version, note: row.note, created_at: row.createdAt.toISOString() }));
}
