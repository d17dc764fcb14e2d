// Drill: one project saturating the database cannot starve another (lib/pool-bulkhead.ts). One project sends ten
// slow requests, each wanting a connection for a statement that waits until the test lets it go; the pool has
// 10 connections, of which a project may hold half. Another project's reads (100, twenty at a time, as the bench
// measures p99) keep answering within the bench's p99 budget (150 ms, scripts/bench.ts), and the slow project's
// excess waits in its own queue, then succeeds, rather than failing anyone. Rate limits are scaled up so that no
// request here is refused by its project's bucket or concurrency cap.
process.env.RATE_LIMIT_SCALE = "10";

import { afterAll, beforeAll, expect, it } from "vitest";
import { projectShareOfPool } from "@/lib/db";
import { config } from "@/lib/env";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { HELD_PROBE_PATH, heldProbeRoutes, holdProbeLock } from "../helpers/held-probe";
import { eventually } from "../helpers/eventually";
import { expectJson, jsonRequest } from "../helpers/http";
import { bearer, createTestProject, mintToken } from "../helpers/partner";

/** The bench's p99 budget at 20 connections (scripts/bench.ts, docs/performance.md). */
const P99_BUDGET_MS = 150;
const SLOW_REQUESTS = 10;

let server: AppServer;

beforeAll(async () => {
  server = await startAppServer(heldProbeRoutes);
});
afterAll(() => server?.close());

async function timedRead(url: string, token: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, bearer(token));
  expect(response.status).toBe(200);
  await response.arrayBuffer();
  return performance.now() - started;
}

it("keeps another project's reads within the p99 budget while one project holds its whole share of the pool", async () => {
  expect(config().DATABASE_POOL_SIZE).toBe(10);
  const share = projectShareOfPool(config());
  expect(share).toBe(5);
  const slowToken = await mintToken(server.url, await createTestProject());
  const otherToken = await mintToken(server.url, await createTestProject());
  const application = await expectJson(
    await fetch(`${server.url}/partner/v1/applications`, bearer(otherToken, jsonRequest("POST", { business: { company_number: "12345678" }, amount_pence: 1_200_000, term_months: 12, applicant: { email: "director@example.co.uk" } }))),
    201,
  );
  const read = `${server.url}/partner/v1/applications/${application.id}`;
  const readTwenty = () => Promise.all(Array.from({ length: 20 }, () => timedRead(read, otherToken)));
  // Warm, as the bench's own warm-up is: the measured reads run compiled code, not the first calls' interpreter.
  for (let round = 0; round < 5; round += 1) await readTwenty();

  const lock = await holdProbeLock();
  const slow = Array.from({ length: SLOW_REQUESTS }, () => fetch(`${server.url}${HELD_PROBE_PATH}`, bearer(slowToken)).then((answer) => answer.status, String));
  const latencies: number[] = [];
  try {
    // The slow project's share is waiting in PostgreSQL; the rest of its requests wait in its own queue.
    await eventually(() => lock.waiting(), (waiting) => waiting === share);
    for (let round = 0; round < 5; round += 1) latencies.push(...(await readTwenty()));
    expect(await lock.waiting()).toBe(share);
  } finally {
    await lock.release();
  }
  expect(await Promise.all(slow)).toEqual(Array(SLOW_REQUESTS).fill(200));
  latencies.sort((a, b) => a - b);
  expect(latencies[Math.ceil(latencies.length * 0.99) - 1]).toBeLessThan(P99_BUDGET_MS);
});
