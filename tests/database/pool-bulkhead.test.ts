// The pool's bulkhead (lib/pool-bulkhead.ts) over a real pg pool of its own: a project's work gets at most its
// share of connections at once and the rest waits in order, other projects and unscoped work pass it by, a unit
// of work already holding a connection is not made to wait for itself, and a wait too long fails as the pool's.
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApplication } from "@/lib/applications/create";
import { retrieveApplication } from "@/lib/applications/queries";
import { config } from "@/lib/env";
import { isDatabaseUnavailable, projectShareOfPool, sharedPool } from "@/lib/db";
import { guardPool, runForProject } from "@/lib/pool-bulkhead";
import type { Tenant } from "@/lib/tenant";
import { createTestProject } from "../helpers/partner";
import { tenantNow } from "@/lib/tenant-clock";

const SHARE = 2;
let pool: pg.Pool;

/** A wait for a project's share fails after this long (the test of the timeout waits it out: 300 ms). */
let timeoutMs = 5_000;

beforeEach(() => {
  pool = guardPool(new pg.Pool({ connectionString: config().DATABASE_URL, max: 4 }), SHARE, timeoutMs);
});
afterEach(async () => {
  await pool.end();
});

/** Whether `promise` has settled by the time the event loop has turned a few times (no timer involved). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true), () => (done = true));
  for (let turn = 0; turn < 20; turn += 1) await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe("a project's share", () => {
  it("hands a project at most its share at once; the next waits and gets the first connection given back", async () => {
    const first = await runForProject("proj_a", () => pool.connect());
    const second = await runForProject("proj_a", () => pool.connect());
    const third = runForProject("proj_a", () => pool.connect());
    expect(await settled(third)).toBe(false);

    const other = await runForProject("proj_b", () => pool.connect());
    expect((await pool.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);

    first.release();
    const granted = await third;
    expect(pool.totalCount).toBeLessThanOrEqual(4);
    for (const client of [second, granted, other]) client.release();
  });

  it("lets a unit of work that holds a connection take another without waiting for its share", async () => {
    await runForProject("proj_a", async () => {
      const outer = await pool.connect();
      const neighbour = await runForProject("proj_a", () => pool.connect());
      // The share is full: another unit of the project waits, this one (holding a connection) does not.
      const waiting = runForProject("proj_a", () => pool.connect());
      const inner = await pool.connect();
      expect((await pool.query("SELECT 2 AS two")).rows).toEqual([{ two: 2 }]);
      expect(await settled(waiting)).toBe(false);
      for (const client of [inner, outer, neighbour]) client.release();
      (await waiting).release();
    });
  });

  it("fails a wait longer than the timeout as the pool's own timeout: the database unavailable", async () => {
    await pool.end();
    timeoutMs = 300;
    pool = guardPool(new pg.Pool({ connectionString: config().DATABASE_URL, max: 4 }), SHARE, timeoutMs);
    const held = [await runForProject("proj_a", () => pool.connect()), await runForProject("proj_a", () => pool.connect())];
    const refused = await runForProject("proj_a", () => pool.query("SELECT 1")).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toBe("timeout exceeded when trying to connect: the project's share of the pool is in use");
    expect(isDatabaseUnavailable(refused)).toBe(true);
    for (const client of held) client.release();
    expect((await runForProject("proj_a", () => pool.query("SELECT 3 AS three"))).rows).toEqual([{ three: 3 }]);
  });
});

describe("the app's pool", () => {
  it("answers a project's batched read at once while another project, read in the same turn, has its share in use", async () => {
    const tenants: Tenant[] = [];
    for (let index = 0; index < 2; index += 1) tenants.push({ projectId: (await createTestProject()).project_id, environment: "sandbox" });
    const [busy, other] = tenants as [Tenant, Tenant];
    const applications = await Promise.all(
      tenants.map(async (tenant) => createApplication({ tenant, now: await tenantNow(tenant), input: { business: { company_number: "12345678" }, amount_pence: 1_000_000, term_months: 12, applicant: { email: "director@example.co.uk" } } })),
    );
    const held = await runForProject(busy.projectId, () => Promise.all(Array.from({ length: projectShareOfPool(config()) }, () => sharedPool().connect())));

    // Both reads join one batch, which the busy project's read started: the batch serves both, and is neither's.
    const busyRead = runForProject(busy.projectId, () => retrieveApplication({ tenant: busy, id: applications[0]!.id }));
    const otherRead = runForProject(other.projectId, () => retrieveApplication({ tenant: other, id: applications[1]!.id }));
    try {
      expect(JSON.parse((await otherRead).text)).toMatchObject({ id: applications[1]!.id });
      expect(JSON.parse((await busyRead).text)).toMatchObject({ id: applications[0]!.id });
    } finally {
      for (const client of held) client.release();
    }
  });
});
