// The pricing configuration as versioned data (lib/pricing/config.ts, spec 4.8): the defaults become version 1,
// every change is the next version, an invalid change stores nothing, and readers go through a short cache that
// reads once for any number of callers.
// Runs in a database of its own: the shared one's configuration is read by files running alongside.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { changeFeed, type WatchedTable } from "@/lib/change-feed";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { forgetCachedPricing, getPricingConfig, listPricingVersions, PricingConfigError, updatePricingConfig } from "@/lib/pricing/config";
import { DEFAULT_PRICING, type PricingFigures } from "@/lib/pricing/schemas";
import { eventually } from "../helpers/eventually";

/**
 * A version row written while its notification goes missing (the table's trigger is off for that one transaction,
 * as if the listener's connection had dropped): only the cache's expiry can bring it in.
 */
async function createVersionUnannounced(data: Prisma.PricingConfigCreateInput) {
  await everyEarlierChangeHeard();
  await db().$transaction([db().$executeRaw`SET LOCAL session_replication_role = replica`, db().pricingConfig.create({ data })]);
}

/**
 * Waits until this process's change feed has heard every change committed so far, so a notification of an earlier
 * test's write cannot arrive later and empty the cache mid-test: notifications come in commit order, so hearing a
 * marker sent now means everything before it has been heard.
 */
const MARKER_TABLE = "test_marker" as WatchedTable;

async function everyEarlierChangeHeard(): Promise<void> {
  await eventually(async () => changeFeed().isListening(), (listening) => listening);
  const marker = `marker-${randomUUID()}`;
  let heard = false;
  // On a name no cache listens to, so the marker itself empties nothing.
  const stop = changeFeed().subscribe(MARKER_TABLE, (id) => (heard ||= id === marker));
  try {
    await db().$executeRaw`SELECT pg_notify('cached_row_changes', ${`${MARKER_TABLE}:${marker}`})`;
    await eventually(async () => heard, (done) => done);
  } finally {
    stop();
  }
}


const storedVersions = async () => (await db().pricingConfig.findMany({ orderBy: { version: "asc" }, select: { version: true } })).map((row) => row.version);

// The tests build on one another (a file's tests run in order): version 1, then 2, then a third written around the cache.
describe("the versioned pricing configuration", () => {
  it("creates version 1 from the defaults the first time it is read", async () => {
    freezeClock("2030-01-01T09:00:00.000Z");
    expect(await storedVersions()).toEqual([]);
    const config = await getPricingConfig();
    expect(config).toEqual({ version: 1, updated_at: "2030-01-01T09:00:00.000Z", ...DEFAULT_PRICING });
    expect(await listPricingVersions(10)).toEqual([{ version: 1, note: "defaults", created_at: "2030-01-01T09:00:00.000Z" }]);
  });

  it("reads the same version 1 again without writing another", async () => {
    forgetCachedPricing();
    expect((await getPricingConfig()).version).toBe(1);
    expect(await storedVersions()).toEqual([1]);
  });

  it("stores a change as version 2 with its note and a later updated_at", async () => {
    freezeClock("2030-01-02T10:30:00.000Z");
    const updated = await updatePricingConfig(
      (figures) => ({ ...figures, business_loan: { ...figures.business_loan, establishment_fee_pounds: 12.5 } }),
      "note",
    );
    expect(updated).toEqual({
      ...DEFAULT_PRICING,
      business_loan: { ...DEFAULT_PRICING.business_loan, establishment_fee_pounds: 12.5 },
      version: 2,
      updated_at: "2030-01-02T10:30:00.000Z",
    });
    expect(Date.parse(updated.updated_at)).toBeGreaterThan(Date.parse("2030-01-01T09:00:00.000Z"));
    expect(await getPricingConfig()).toEqual(updated);
    // Version 1 is kept as it was.
    const first = await db().pricingConfig.findUniqueOrThrow({ where: { version: 1 } });
    expect(first.config).toEqual(DEFAULT_PRICING);
  });

  it("hands the change function a copy of the current figures, never the cached configuration", async () => {
    let seen: PricingFigures | undefined;
    await expect(
      updatePricingConfig((figures) => {
        seen = figures;
        figures.business_loan.daily_rate = 0.5;
        figures.slice.instalment_counts.push(12);
        return { ...figures, currency: "EUR" };
      }, "mutates its argument"),
    ).rejects.toBeInstanceOf(PricingConfigError);
    expect(seen).not.toHaveProperty("version");
    expect(seen).not.toHaveProperty("updated_at");
    const current = await getPricingConfig();
    expect(current.business_loan.daily_rate).toBe(0.0025);
    expect(current.slice.instalment_counts).toEqual([3, 6]);
    expect(current.currency).toBe("GBP");
  });

  it.each<[string, (figures: PricingFigures) => unknown, string]>([
    [
      "a minimum amount above the maximum",
      (figures) => ({ ...figures, business_loan: { ...figures.business_loan, amount_min_pounds: 600 } }),
      "business_loan: amount_min_pounds must not exceed amount_max_pounds",
    ],
    [
      "a negative rate",
      (figures) => ({ ...figures, flex: { ...figures.flex, monthly_rate: -0.01 } }),
      "flex.monthly_rate: Too small: expected number to be >=0",
    ],
    [
      "an unknown key",
      (figures) => ({ ...figures, business_loan: { ...figures.business_loan, teaser_rate: 0 } }),
      'business_loan: Unrecognized key: "teaser_rate"',
    ],
    [
      "a fee in fractions of a penny",
      (figures) => ({ ...figures, slice: { ...figures.slice, plan_fee_pounds: 4.995 } }),
      "slice.plan_fee_pounds: Invalid number: must be a multiple of 0.01",
    ],
  ])("refuses %s with a PricingConfigError and stores nothing", async (_name, change, message) => {
    const before = await listPricingVersions(10);
    const error = await updatePricingConfig(change, "invalid").catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(PricingConfigError);
    expect((error as PricingConfigError).message).toBe(message);
    expect(await listPricingVersions(10)).toEqual(before);
    expect((await getPricingConfig()).version).toBe(2);
  });

  it("lists versions newest first, up to the limit", async () => {
    expect(await listPricingVersions(10)).toEqual([
      { version: 2, note: "note", created_at: "2030-01-02T10:30:00.000Z" },
      { version: 1, note: "defaults", created_at: "2030-01-01T09:00:00.000Z" },
    ]);
    expect(await listPricingVersions(1)).toEqual([{ version: 2, note: "note", created_at: "2030-01-02T10:30:00.000Z" }]);
  });

  it("serves the cached configuration for five seconds, and the new version once the cache is forgotten", async () => {
    const time = freezeClock("2030-01-03T00:00:00.000Z");
    forgetCachedPricing();
    expect((await getPricingConfig()).version).toBe(2);
    // A version written while its notification goes missing: the expiry alone bounds how long the old one is served.
    const figures = { ...DEFAULT_PRICING, business_loan: { ...DEFAULT_PRICING.business_loan, late_fee_pounds: 20 } };
    await createVersionUnannounced({ version: 3, config: figures as unknown as Prisma.InputJsonValue, note: "elsewhere", createdAt: new Date("2030-01-03T00:00:00.000Z") });
    time.advance(4_999);
    expect((await getPricingConfig()).version).toBe(2);
    forgetCachedPricing();
    expect(await getPricingConfig()).toEqual({ ...figures, version: 3, updated_at: "2030-01-03T00:00:00.000Z" });
  });

  it("rereads the configuration once the cache is five seconds old", async () => {
    const time = freezeClock("2030-01-04T00:00:00.000Z");
    forgetCachedPricing();
    expect((await getPricingConfig()).version).toBe(3);
    await createVersionUnannounced({ version: 4, config: DEFAULT_PRICING as unknown as Prisma.InputJsonValue, note: "elsewhere again", createdAt: new Date("2030-01-04T00:00:00.000Z") });
    time.advance(4_999);
    expect((await getPricingConfig()).version).toBe(3);
    time.advance(1);
    expect((await getPricingConfig()).version).toBe(4);
  });

  it("builds a change on the newest version, whatever the cache held", async () => {
    freezeClock("2030-01-05T00:00:00.000Z");
    forgetCachedPricing();
    expect((await getPricingConfig()).version).toBe(4);
    await db().pricingConfig.create({
      data: { version: 5, config: { ...DEFAULT_PRICING, currency: "GBP", flex: { ...DEFAULT_PRICING.flex, enabled: false } } as unknown as Prisma.InputJsonValue, note: null, createdAt: new Date("2030-01-05T00:00:00.000Z") },
    });
    const updated = await updatePricingConfig((figures) => ({ ...figures, slice: { ...figures.slice, plan_fee_pounds: 5.99 } }), null);
    expect(updated.version).toBe(6);
    expect(updated.flex.enabled).toBe(false);
    expect(updated.slice.plan_fee_pounds).toBe(5.99);
    expect((await listPricingVersions(1))[0]).toEqual({ version: 6, note: null, created_at: "2030-01-05T00:00:00.000Z" });
  });

  it("rereads the configuration when the clock is set back before the cached read", async () => {
    const time = freezeClock("2030-01-07T00:00:00.000Z");
    forgetCachedPricing();
    expect((await getPricingConfig()).version).toBe(6);
    await db().pricingConfig.create({
      data: { version: 7, config: DEFAULT_PRICING as unknown as Prisma.InputJsonValue, note: "elsewhere", createdAt: new Date("2030-01-06T00:00:00.000Z") },
    });
    time.set("2030-01-06T23:59:59.000Z");
    expect((await getPricingConfig()).version).toBe(7);
  });

  it("reads once for every caller that finds the cache stale at the same moment, and keeps the object while the version stands", async () => {
    // The last test's version 7 was announced: its notification must not empty the cache between the two reads.
    await everyEarlierChangeHeard();
    const time = freezeClock("2030-01-08T00:00:00.000Z");
    forgetCachedPricing();
    const together = await Promise.all(Array.from({ length: 20 }, () => getPricingConfig()));
    expect(together[0]!.version).toBe(7);
    for (const config of together) expect(config).toBe(together[0]);
    time.advance(5_000);
    // Reread, still version 7: the same object, so the catalogue rendered from it is kept too.
    expect(await getPricingConfig()).toBe(together[0]);
  });

  it("does not hand a read that started before the cache was forgotten to the callers after it", async () => {
    freezeClock("2030-01-09T00:00:00.000Z");
    forgetCachedPricing();
    const before = getPricingConfig();
    forgetCachedPricing();
    await db().pricingConfig.create({
      data: { version: 8, config: DEFAULT_PRICING as unknown as Prisma.InputJsonValue, note: "while reading", createdAt: new Date("2030-01-09T00:00:00.000Z") },
    });
    expect((await getPricingConfig()).version).toBe(8);
    expect([7, 8]).toContain((await before).version);
    expect((await getPricingConfig()).version).toBe(8);
  });
});
