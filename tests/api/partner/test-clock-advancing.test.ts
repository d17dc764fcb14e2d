// A long test-clock advance over HTTP (docs/sandbox.md, "Test clock"): it answers 202 with the clock
// `advancing` and goes on in the background, one short transaction per batch of rows and per day; a second
// advance of the project is refused at once; ten projects advancing at once leave the pool to other tenants;
// an advance its process abandoned is resumed by the background sweep. The answer window is 0 here, so every
// advance answers 202 at once, and a batch is one row, so each account's collection commits on its own. Rows
// are held from a connection of the test's own (outside the app's pool) to stop an advance at a known point.
process.env.SANDBOX_CLOCK_ANSWER_WITHIN_MS = "0";
process.env.SANDBOX_CLOCK_BATCH_SIZE = "1";

import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { advanceLaneSize, retrieveTestClock } from "@/lib/sandbox-clock/service";
import { config } from "@/lib/env";
import { BACKGROUND_OPERATIONS } from "@/lib/background/catalogue";
import type { Pass } from "@/lib/background-operation";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import type { Tenant } from "@/lib/tenant";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { eventually } from "../../helpers/eventually";
import { expectApiError, expectJson, jsonRequest } from "../../helpers/http";
import { bearer, createTestProject, mintToken } from "../../helpers/partner";
import { sessionsWaitingOn } from "../../helpers/row-locks";
import { fundedAccount } from "../../database/accounts/helpers";

const DAY_MS = 86_400_000;
const T0 = new Date("2029-01-10T10:00:00.000Z");
const at = (days: number) => new Date(T0.getTime() + days * DAY_MS).toISOString();
/** Longest a refusal may take: it must not wait for the advance that holds the clock. */
const REFUSED_WITHIN_MS = 2_000;

let server: AppServer;
let holder: pg.Client;

beforeAll(async () => {
  server = await startAppServer();
});
beforeEach(async () => {
  freezeClock(T0);
  holder = new pg.Client({ connectionString: config().DATABASE_URL });
  await holder.connect();
});
afterEach(async () => {
  await holder.end();
});
afterAll(() => server?.close());

interface Sandbox {
  project: ProjectCredentials;
  tenant: Tenant;
  token: string;
}

async function newSandbox(): Promise<Sandbox> {
  const project = await createTestProject();
  return { project, tenant: { projectId: project.project_id, environment: "sandbox" }, token: await mintToken(server.url, project) };
}

function call(sandbox: Sandbox, method: string, path: string, body?: unknown): Promise<Response> {
  const init = body === undefined ? { method } : jsonRequest(method, body);
  return fetch(`${server.url}/partner/v1${path}`, { ...bearer(sandbox.token, init), signal: AbortSignal.timeout(REFUSED_WITHIN_MS * 2) });
}

const readClock = async (sandbox: Sandbox) => expectJson(await call(sandbox, "GET", "/test_helpers/clock"), 200);

/** Waits for the advance to finish, reading the clock through its service: polling over HTTP would spend the project's bucket. */
const untilReady = (sandbox: Sandbox) => eventually(() => retrieveTestClock({ tenant: sandbox.tenant }), (clock) => clock.status === "ready", { timeoutMs: 20_000 });

/** Holds the rows `ids` of `table` from the test's own connection until `release`. */
async function holdRows(table: "accounts" | "sandbox_clocks", column: "id" | "project_id", ids: string[]) {
  await holder.query("BEGIN");
  const locked = await holder.query(`SELECT 1 FROM ${table} WHERE ${column} = ANY($1) FOR UPDATE`, [ids]);
  expect(locked.rowCount).toBe(ids.length);
  const pid = (await holder.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
  return { pid, release: () => holder.query("COMMIT") };
}

async function collections(accountId: string) {
  const rows = await db().payment.findMany({ where: { accountId, type: "collection" }, orderBy: { id: "asc" } });
  return rows.map((payment) => [payment.status, payment.createdAt.toISOString()]);
}

describe("a long advance", () => {
  it("answers 202 advancing, commits day by day and account by account, refuses a second advance, and reads ready when done", async () => {
    const sandbox = await newSandbox();
    const accounts = [await fundedAccount(sandbox.tenant, { termMonths: 12 }), await fundedAccount(sandbox.tenant, { termMonths: 12 })];
    const [first, held] = accounts.map((account) => account.id).sort();
    const lock = await holdRows("accounts", "id", [held!]);

    const accepted = await expectJson(await call(sandbox, "POST", "/test_helpers/clock/advance", { days: 40 }), 202);
    expect(accepted).toMatchObject({ object: "test_clock", livemode: false, status: "advancing", target_offset_days: 40 });
    expect(accepted.now).toBe(at(accepted.offset_days));

    // The first due date is 31 days on: the advance stops at the held account, on day 31, with days 1 to 30 and
    // the other account's collection committed, and readable from anywhere.
    await eventually(() => sessionsWaitingOn(lock.pid), (waiting) => waiting === 1, { timeoutMs: 20_000 });
    expect(await readClock(sandbox)).toEqual({ object: "test_clock", livemode: false, now: at(30), offset_days: 30, status: "advancing", target_offset_days: 40 });
    expect(await collections(first!)).toEqual([["settled", at(31)]]);
    expect(await collections(held!)).toEqual([]);

    const started = performance.now();
    const refused = await expectApiError(await call(sandbox, "POST", "/test_helpers/clock/advance", { days: 1 }), 409, "conflict");
    expect(performance.now() - started).toBeLessThan(REFUSED_WITHIN_MS);
    expect(refused.error.message).toBe("An advance of this project's test clock is running: wait until GET /test_helpers/clock reads status ready.");

    await lock.release();
    await untilReady(sandbox);
    expect(await readClock(sandbox)).toEqual({ object: "test_clock", livemode: false, now: at(40), offset_days: 40, status: "ready", target_offset_days: 40 });
    expect(await collections(first!)).toEqual([["settled", at(31)]]);
    expect(await collections(held!)).toEqual([["settled", at(31)]]);
  });

  it("refuses an advance at once (409 conflict) while another transaction holds the clock", async () => {
    const sandbox = await newSandbox();
    await expectJson(await call(sandbox, "POST", "/test_helpers/clock/advance", { days: 1 }), 202);
    await untilReady(sandbox);
    const lock = await holdRows("sandbox_clocks", "project_id", [sandbox.project.project_id]);

    const started = performance.now();
    const refused = await expectApiError(await call(sandbox, "POST", "/test_helpers/clock/advance", { days: 5 }), 409, "conflict");
    expect(performance.now() - started).toBeLessThan(REFUSED_WITHIN_MS);
    expect(refused.error.message).toBe("An advance of this project's test clock is running: wait until GET /test_helpers/clock reads status ready.");

    await lock.release();
    expect(await readClock(sandbox)).toMatchObject({ offset_days: 1, status: "ready", target_offset_days: 1 });
  });

  it("leaves the pool to other tenants while ten projects advance at once: a live read answers", async () => {
    const sandboxes = await Promise.all(Array.from({ length: 10 }, () => newSandbox()));
    const accounts = await Promise.all(sandboxes.map((sandbox) => fundedAccount(sandbox.tenant, { termMonths: 12 })));
    const lock = await holdRows("accounts", "id", accounts.map((account) => account.id));

    for (const sandbox of sandboxes) expect((await expectJson(await call(sandbox, "POST", "/test_helpers/clock/advance", { days: 40 }), 202)).status).toBe("advancing");
    // Every advance reaches day 31 and waits for its account, but only a quarter of the pool's connections may
    // carry advances at once: the others wait in the process, holding none.
    const lane = advanceLaneSize(config());
    expect(lane).toBe(2);
    await eventually(() => sessionsWaitingOn(lock.pid), (waiting) => waiting === lane, { timeoutMs: 20_000 });

    const live = await createTestProject();
    const liveToken = await mintToken(server.url, live, { environment: "live" });
    const application = await expectJson(
      await fetch(`${server.url}/partner/v1/applications`, bearer(liveToken, jsonRequest("POST", { business: { company_number: "12345678" }, amount_pence: 1_200_000, term_months: 12, applicant: { email: "director@example.co.uk" } }))),
      201,
    );
    const read = await fetch(`${server.url}/partner/v1/applications/${application.id}`, { ...bearer(liveToken), signal: AbortSignal.timeout(REFUSED_WITHIN_MS) });
    expect(await expectJson(read, 200)).toMatchObject({ id: application.id, livemode: true });
    expect(await sessionsWaitingOn(lock.pid)).toBe(lane);

    await lock.release();
    for (const sandbox of sandboxes) expect(await untilReady(sandbox)).toMatchObject({ offset_days: 40 });
    for (const account of accounts) expect(await collections(account.id)).toEqual([["settled", at(31)]]);
  });
});

describe("an advance its process abandoned", () => {
  it("reads advancing until the resume sweep takes it over once its lease has lapsed, then ready at its target", async () => {
    const sandbox = await newSandbox();
    const account = await fundedAccount(sandbox.tenant, { termMonths: 12 });
    // As a process that died on day 20 of an advance to 35 leaves the clock, its lease a minute old.
    await db().sandboxClock.create({
      data: { projectId: sandbox.project.project_id, offsetDays: 20, targetOffsetDays: 35, advanceLeaseUntil: new Date(T0.getTime() + 60_000), createdAt: T0, updatedAt: T0 },
    });
    const resume = BACKGROUND_OPERATIONS.find((operation) => operation.id === "resume-clock-advances") as Pass;

    expect(await readClock(sandbox)).toMatchObject({ offset_days: 20, status: "advancing", target_offset_days: 35 });
    await expectApiError(await call(sandbox, "POST", "/test_helpers/clock/advance", { days: 1 }), 409, "conflict");
    expect(await resume.run()).toEqual({ resumed: 0 });
    expect(await readClock(sandbox)).toMatchObject({ offset_days: 20, status: "advancing", target_offset_days: 35 });

    freezeClock(new Date(T0.getTime() + 60_000));
    expect(await resume.run()).toEqual({ resumed: 1 });
    expect(await readClock(sandbox)).toEqual({ object: "test_clock", livemode: false, now: new Date(T0.getTime() + 60_000 + 35 * DAY_MS).toISOString(), offset_days: 35, status: "ready", target_offset_days: 35 });
    expect(await collections(account.id)).toEqual([["settled", new Date(T0.getTime() + 60_000 + 31 * DAY_MS).toISOString()]]);
  });
});
