// Drill: Redis stops in the middle of a run and comes back. A redis-server of the test's own (the machine's
// binary, on a free port, keeping nothing on disk) backs the rate limiter of a real app server. While it is
// down, requests are served and still limited, by each process's in-process fallback; once it is back, the
// limits are kept in Redis again, without a restart.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { freezeClock } from "@/lib/clock";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { freePort } from "../helpers/free-port";
import { eventually } from "../helpers/eventually";
import { expectApiError } from "../helpers/http";
import { bearer, createTestProject, mintToken } from "../helpers/partner";

const redisServerInstalled = spawnSync("redis-server", ["--version"]).status === 0;

async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  const probe = new Redis(port, "127.0.0.1", { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on("error", () => undefined);
  await eventually(async () => probe.connect().then(() => probe.ping(), () => null), (answer) => answer === "PONG", { timeoutMs: 10_000 });
  probe.disconnect();
  return child;
}

async function stopRedis(child: ChildProcess): Promise<void> {
  child.kill("SIGKILL");
  await once(child, "exit");
}

// Every machine of this project has redis-server; a laptop without it runs the rest of the suite.
describe.runIf(redisServerInstalled)("Redis stops mid-run", () => {
  let port: number;
  let redis: ChildProcess;
  let server: AppServer;
  let inspector: Redis;

  beforeAll(async () => {
    port = await freePort();
    redis = await startRedis(port);
    process.env.REDIS_URL = `redis://127.0.0.1:${port}`;
    server = await startAppServer();
    inspector = new Redis(port, "127.0.0.1", { maxRetriesPerRequest: 1 });
    inspector.on("error", () => undefined);
  });
  afterAll(async () => {
    inspector?.disconnect();
    await server?.close();
    if (redis?.exitCode === null) await stopRedis(redis);
  });

  const limiterState = async () => (await (await fetch(`${server.url}/healthz/internal`)).json()).ratelimit as { backend: string; reachable: boolean; fallback_count: number };

  it("limits in Redis, then in process while Redis is down, then in Redis again once it is back", async () => {
    freezeClock("2027-05-01T09:00:00.000Z"); // the in-process fallback keeps the platform's time; Redis its own
    const project = await createTestProject();
    const token = await mintToken(server.url, project);
    const keys = () => fetch(`${server.url}/partner/v1/keys`, bearer(token));

    expect((await keys()).status).toBe(200);
    expect(await inspector.dbsize()).toBeGreaterThan(0);
    expect(await limiterState()).toEqual({ backend: "redis", reachable: true, fallback_count: 0 });

    await stopRedis(redis);
    const statuses: number[] = [];
    for (let index = 0; index < 51; index += 1) statuses.push((await keys()).status);
    // Served, and still limited: the sandbox burst of 50 is kept in process.
    expect(statuses.slice(0, 50)).toEqual(Array(50).fill(200));
    await expectApiError(await keys(), 429, "rate_limited");
    const down = await limiterState();
    expect(down.reachable).toBe(false);
    expect(down.fallback_count).toBeGreaterThanOrEqual(52);

    redis = await startRedis(port);
    expect(await inspector.dbsize()).toBe(0);
    // The limiter tries Redis again five seconds after the failure; then decisions are kept there.
    await eventually(
      async () => {
        await keys();
        return inspector.dbsize();
      },
      (size) => size > 0,
      { timeoutMs: 15_000 },
    );
    expect((await limiterState()).reachable).toBe(true);
  });
});
