// Drill: PostgreSQL restarts under load. An embedded PostgreSQL of the test's own backs a real app server;
// it is stopped while creates and reads are in flight, then started again. During the outage every answer is
// 503 service_unavailable, retryable, with Retry-After, never a 500; afterwards every request succeeds without
// restarting the app, and each idempotent create retried across the outage made exactly one application.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { db, disconnectDatabase } from "@/lib/db";
import { applyMigrations, databaseUrl, recreateDatabase, startEmbeddedPostgres, type EmbeddedCluster } from "../../scripts/database";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { freePort } from "../helpers/free-port";
import { eventually } from "../helpers/eventually";
import { bearer, createTestProject, mintToken } from "../helpers/partner";

let port: number;
let cluster: EmbeddedCluster;
let server: AppServer;

const startDatabase = () => startEmbeddedPostgres({ dataDirName: "postgres-drill", port });

beforeAll(async () => {
  port = await freePort();
  cluster = await startDatabase();
  await recreateDatabase(cluster.serverUrl, "drill");
  const url = databaseUrl(cluster.serverUrl, "drill");
  await applyMigrations(url);
  process.env.DATABASE_URL = url;
  // This drill is about the database: the clock is frozen, so buckets would never refill while it polls.
  process.env.RATE_LIMIT_SCALE = "1000";
  server = await startAppServer();
}, 120_000);
afterAll(async () => {
  await server?.close();
  await disconnectDatabase();
  await cluster?.stop();
});

const applicationBody = (reference: string) =>
  JSON.stringify({ business: { company_number: "12345678" }, amount_pence: 2_500_000, term_months: 12, applicant: { email: "drill@example.co.uk" }, metadata: { reference } });

it("answers 503 through the outage, recovers without a restart, and makes each retried create exactly once", async () => {
  const clock = freezeClock(new Date());
  const project = await createTestProject();
  const token = await mintToken(server.url, project);
  const list = () => fetch(`${server.url}/partner/v1/applications?limit=5`, bearer(token));
  const create = (key: string) =>
    fetch(`${server.url}/partner/v1/applications`, bearer(token, { method: "POST", headers: { "content-type": "application/json", "idempotency-key": key }, body: applicationBody(key) }));
  expect((await list()).status).toBe(200);

  // Creates in flight as the database goes away.
  const keys = Array.from({ length: 6 }, () => randomUUID());
  const inFlight = keys.map((key) => create(key));
  const stopped = cluster.stop();
  const during = [...(await Promise.all(inFlight)), ...(await Promise.all([list(), list(), create(keys[0]!)]))];
  await stopped;
  for (let index = 0; index < 5; index += 1) during.push(await list());

  const outage = during.filter((response) => response.status >= 500);
  expect(outage.length).toBeGreaterThanOrEqual(5);
  for (const response of outage) {
    const body = await response.json();
    expect({ status: response.status, code: body.error.code, retryable: body.error.retryable }).toEqual({ status: 503, code: "service_unavailable", retryable: true });
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  }
  for (const response of during.filter((candidate) => candidate.status < 500)) expect([200, 201]).toContain(response.status);

  cluster = await startDatabase();
  await eventually(async () => (await list()).status, (status) => status === 200, { timeoutMs: 30_000 });
  // A create cut off mid-flight left its key in progress; the retry may take it over after 60 s.
  clock.advance(61_000);
  for (const key of keys) {
    const retried = await eventually(async () => create(key), (response) => response.status === 201, { timeoutMs: 10_000 });
    expect((await retried.json()).metadata.reference).toBe(key);
  }
  for (let index = 0; index < 10; index += 1) expect((await list()).status).toBe(200);
  for (const key of keys) {
    expect(await db().application.count({ where: { projectId: project.project_id, metadata: { path: ["reference"], equals: key } } })).toBe(1);
  }
}, 120_000);
