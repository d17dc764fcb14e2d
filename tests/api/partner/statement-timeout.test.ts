// Every statement on the pool runs under PostgreSQL's statement_timeout (DATABASE_STATEMENT_TIMEOUT_MS, here
// 300 ms): a statement still running then is cancelled (SQLSTATE 57014) and the request answers 503
// service_unavailable, retryable, instead of holding its connection. The statement waits on a lock the test holds.
process.env.DATABASE_STATEMENT_TIMEOUT_MS = "300";

import { afterAll, beforeAll, expect, it } from "vitest";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { HELD_PROBE_PATH, heldProbeRoutes, holdProbeLock } from "../../helpers/held-probe";
import { expectApiError, expectJson } from "../../helpers/http";
import { bearer, createTestProject, mintToken } from "../../helpers/partner";

let server: AppServer;

beforeAll(async () => {
  server = await startAppServer(heldProbeRoutes);
});
afterAll(() => server?.close());

it("cancels a statement that outlives the timeout and answers 503 service_unavailable, retryable", async () => {
  const token = await mintToken(server.url, await createTestProject());
  const lock = await holdProbeLock();
  try {
    const started = performance.now();
    const answer = await fetch(`${server.url}${HELD_PROBE_PATH}`, { ...bearer(token), signal: AbortSignal.timeout(5_000) });
    const refused = await expectApiError(answer, 503, "service_unavailable");
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(refused.error).toMatchObject({ retryable: true, retry_after_ms: 1_000, message: "The service is temporarily unavailable." });
    expect(answer.headers.get("retry-after")).toBe("1");
    expect(await lock.waiting()).toBe(0);
  } finally {
    await lock.release();
  }
  expect(await expectJson(await fetch(`${server.url}${HELD_PROBE_PATH}`, bearer(token)), 200)).toEqual({ object: "probe" });
});
