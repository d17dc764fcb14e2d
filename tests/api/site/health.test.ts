// GET /healthz and GET /public/v1/healthz (spec 2.10): 200 when healthy; 503 with the same shape when the
// database is unreachable or its migrations are out of step with prisma/migrations.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { checkHealth } from "@/lib/health/health";
import { migrationsOnDisk } from "@/lib/health/migrations";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { freezeClock } from "@/lib/clock";
import { startAppServer, type AppServer } from "../../helpers/app-server";

let server: AppServer;
beforeAll(async () => {
  server = await startAppServer();
});
afterAll(() => server?.close());

function clientFor(url: string): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url, connectionTimeoutMillis: 1_000 }) });
}

describe("GET /healthz", () => {
  it("answers {status: ok}", async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });
});

describe("GET /public/v1/healthz", () => {
  it("reports a healthy platform with 200 and every field of 2.10", async () => {
    const response = await fetch(`${server.url}/public/v1/healthz`);
    expect(response.status).toBe(200);
    const body = await response.json();
    const onDisk = migrationsOnDisk().length;
    expect(body).toEqual({
      status: "ok",
      app: "lending-platform",
      db: { up: true, latencyMs: expect.any(Number) },
      migrations: { applied: onDisk, onDisk, inSync: true },
      queue: { reachable: true, pending: expect.any(Number) },
      time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    expect(onDisk).toBeGreaterThan(0);
    // Other test files submit applications at the same time, so only the count's form is fixed here; what it
    // counts is tested in background-work.test.ts.
    expect(Number.isInteger(body.queue.pending) && body.queue.pending >= 0).toBe(true);
  });

  it("takes its time from the platform clock", async () => {
    freezeClock("2030-01-02T03:04:05.000Z");
    const body = await (await fetch(`${server.url}/public/v1/healthz`)).json();
    expect(body.time).toBe("2030-01-02T03:04:05.000Z");
  });
});

describe("unhealthy database", () => {
  it("reports 503-worthy health when the database is unreachable", async () => {
    const dead = clientFor("postgresql://postgres:postgres@127.0.0.1:1/nothing");
    const health = await checkHealth(dead);
    expect(health).toMatchObject({
      status: "degraded",
      db: { up: false, latencyMs: null },
      migrations: { applied: 0, onDisk: migrationsOnDisk().length, inSync: false },
    });
    await dead.$disconnect();
  });

  it("reports out-of-sync migrations on a database that was never migrated", async () => {
    const base = new URL(process.env.DATABASE_URL!);
    const name = `health_unmigrated_${process.pid}`;
    const adminUrl = new URL(base);
    adminUrl.pathname = "/postgres";
    const admin = new pg.Client({ connectionString: adminUrl.toString() });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
    const unmigratedUrl = new URL(base);
    unmigratedUrl.pathname = `/${name}`;
    const client = clientFor(unmigratedUrl.toString());
    try {
      const health = await checkHealth(client);
      expect(health).toMatchObject({ status: "degraded", db: { up: true }, migrations: { applied: 0, inSync: false } });
    } finally {
      await client.$disconnect();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
