// Usage per project, environment and UTC day (the dashboard's Usage chart): the route builder counts every
// partner request whose project is known, 429s apart, in memory, and a flush writes one row per key. Over HTTP
// with a frozen clock: exact counts after N requests and M 429s, one write per key per flush, the flush timer,
// zero-filled days, environments apart, callers without a project not counted, and the 90-day retention.
import { afterEach, afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DAY_MS, freezeClock, manualTimers, restoreTimers } from "@/lib/clock";
import { db } from "@/lib/db";
import { runMaintenance } from "@/lib/background/catalogue";
import type { Tenant } from "@/lib/tenant";
import { FLUSH_INTERVAL_MS, flushUsage, stopUsageFlushing } from "@/lib/usage/counter";
import { usageByDay } from "@/lib/usage/service";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { eventually } from "../../helpers/eventually";
import { bearer, createTestProject, mintToken } from "../../helpers/partner";

let server: AppServer;
beforeAll(async () => {
  server = await startAppServer();
});
afterAll(() => server?.close());
// Each test starts with nothing counted and unwritten, and its own flush timer.
beforeEach(async () => {
  await stopUsageFlushing();
});
afterEach(() => restoreTimers());

/** The sandbox bucket's burst (spec 8: 10 a second, bursts of 50): with the clock frozen, the 51st request is a 429. */
const SANDBOX_BURST = 50;

async function partner() {
  const project = await createTestProject();
  const sandbox: Tenant = { projectId: project.project_id, environment: "sandbox" };
  const live: Tenant = { projectId: project.project_id, environment: "live" };
  return { project, sandbox, live, token: await mintToken(server.url, project), liveToken: await mintToken(server.url, project, { environment: "live" }) };
}

/** Sends `count` GET /keys one after another; answers their statuses. */
async function listKeys(token: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let index = 0; index < count; index += 1) statuses.push((await fetch(`${server.url}/partner/v1/keys`, bearer(token))).status);
  return statuses;
}

const rowsOf = (projectId: string) =>
  db().projectUsageDay.findMany({ where: { projectId }, orderBy: [{ environment: "asc" }, { day: "asc" }] }).then((rows) =>
    rows.map((row) => ({ environment: row.environment, day: row.day.toISOString().slice(0, 10), requests: row.requests, rate_limited: row.rateLimited })),
  );

describe("counting", () => {
  it("counts N requests and the M of them refused with 429, exactly, in one row written at the flush", async () => {
    freezeClock("2027-03-10T12:00:00.000Z");
    const { project, token } = await partner();

    const statuses = await listKeys(token, SANDBOX_BURST + 3);

    expect(statuses.filter((status) => status === 200)).toHaveLength(SANDBOX_BURST);
    expect(statuses.filter((status) => status === 429)).toHaveLength(3);
    expect(await rowsOf(project.project_id)).toEqual([]);
    expect(await flushUsage()).toBe(1);
    expect(await rowsOf(project.project_id)).toEqual([{ environment: "sandbox", day: "2027-03-10", requests: SANDBOX_BURST + 3, rate_limited: 3 }]);
  });

  it("writes one row per project, environment and day at each flush, adding to what earlier flushes wrote", async () => {
    const time = freezeClock("2027-03-11T23:59:58.000Z");
    const { project, token, liveToken } = await partner();

    expect(await listKeys(token, 2)).toEqual([200, 200]);
    time.advance(3_000);
    expect(await listKeys(token, 1)).toEqual([200]);
    expect(await listKeys(liveToken, 4)).toEqual([200, 200, 200, 200]);
    expect(await flushUsage()).toBe(3);
    expect(await flushUsage()).toBe(0);
    expect(await listKeys(token, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(await flushUsage()).toBe(1);

    expect(await rowsOf(project.project_id)).toEqual([
      { environment: "sandbox", day: "2027-03-11", requests: 2, rate_limited: 0 },
      { environment: "sandbox", day: "2027-03-12", requests: 6, rate_limited: 0 },
      { environment: "live", day: "2027-03-12", requests: 4, rate_limited: 0 },
    ]);
  });

  it("counts a refused request of a known project (a 404, a 422), but none without a valid token", async () => {
    freezeClock("2027-03-13T09:00:00.000Z");
    const { project, token } = await partner();

    expect((await fetch(`${server.url}/partner/v1/keys/key_nope`, bearer(token))).status).toBe(404);
    expect((await fetch(`${server.url}/partner/v1/webhook_endpoints`, bearer(token, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }))).status).toBe(422);
    expect((await fetch(`${server.url}/partner/v1/keys`)).status).toBe(401);
    expect((await fetch(`${server.url}/partner/v1/keys`, bearer("not-a-token"))).status).toBe(401);
    expect((await fetch(`${server.url}/partner/v1/no_such_route`, bearer(token))).status).toBe(404);
    await flushUsage();

    expect(await rowsOf(project.project_id)).toEqual([{ environment: "sandbox", day: "2027-03-13", requests: 2, rate_limited: 0 }]);
  });

  it("flushes on its timer, every FLUSH_INTERVAL_MS, without being asked", async () => {
    freezeClock("2027-03-14T09:00:00.000Z");
    const timers = manualTimers();
    const { project, token } = await partner();

    expect(await listKeys(token, 3)).toEqual([200, 200, 200]);
    timers.advance(FLUSH_INTERVAL_MS - 1);
    expect(await rowsOf(project.project_id)).toEqual([]);
    timers.advance(1);

    expect(await eventually(() => rowsOf(project.project_id), (rows) => rows.length > 0)).toEqual([{ environment: "sandbox", day: "2027-03-14", requests: 3, rate_limited: 0 }]);
  });
});

describe("usageByDay", () => {
  it("answers 30 days oldest first, ending today, with zeros for days without traffic and each environment apart", async () => {
    const time = freezeClock("2027-03-20T10:00:00.000Z");
    const { project, sandbox, live, token } = await partner();
    await listKeys(token, 2);
    time.set("2027-03-21T00:00:00.000Z");
    await listKeys(await mintToken(server.url, project), SANDBOX_BURST + 1);
    await listKeys(await mintToken(server.url, project, { environment: "live" }), 1);
    await flushUsage();
    const now = new Date("2027-03-21T18:00:00.000Z");

    const sandboxDays = await usageByDay(sandbox, { days: 30, now });
    const liveDays = await usageByDay(live, { days: 30, now });

    expect(sandboxDays).toHaveLength(30);
    expect(sandboxDays[0]).toEqual({ date: "2027-02-20", requests: 0, rate_limited: 0 });
    expect(sandboxDays.map((day) => day.date)).toEqual(Array.from({ length: 30 }, (_, index) => new Date(Date.UTC(2027, 1, 20) + index * DAY_MS).toISOString().slice(0, 10)));
    expect(sandboxDays.slice(-2)).toEqual([
      { date: "2027-03-20", requests: 2, rate_limited: 0 },
      { date: "2027-03-21", requests: SANDBOX_BURST + 1, rate_limited: 1 },
    ]);
    expect(sandboxDays.slice(0, -2).every((day) => day.requests === 0 && day.rate_limited === 0)).toBe(true);
    expect(liveDays.filter((day) => day.requests > 0)).toEqual([{ date: "2027-03-21", requests: 1, rate_limited: 0 }]);
    // A day before the window is not in it.
    expect((await usageByDay(sandbox, { days: 30, now: new Date("2027-04-19T00:00:00.000Z") })).filter((day) => day.requests > 0)).toEqual([
      { date: "2027-03-21", requests: SANDBOX_BURST + 1, rate_limited: 1 },
    ]);
  });
});

describe("retention", () => {
  it("the maintenance deletes days more than 90 days old and keeps the 90 days up to today", async () => {
    // Before every other test's days, so the count is this test's rows alone.
    freezeClock("2026-12-31T12:00:00.000Z");
    const { project } = await partner();
    const day = (iso: string) => ({ projectId: project.project_id, environment: "sandbox" as const, day: new Date(iso), requests: 1, rateLimited: 0 });
    await db().projectUsageDay.createMany({ data: [day("2026-09-01"), day("2026-10-02"), day("2026-10-03"), day("2026-12-31")] });

    expect((await runMaintenance()).usageDaysPruned).toBe(2);
    expect((await rowsOf(project.project_id)).map((row) => row.day)).toEqual(["2026-10-03", "2026-12-31"]);
  });
});
