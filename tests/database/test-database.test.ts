// Each test file runs against a database of its own, cloned from the run's migrated template: it starts with
// the schema and no rows another file wrote, so a sweep or a count here sees this file's rows and no others.
import { afterAll, expect, inject, it } from "vitest";
import { db, disconnectDatabase } from "@/lib/db";
import { migrationsOnDisk } from "@/lib/health/migrations";
import { databaseUrl, withAdminClient } from "../../scripts/database";
import { eventually } from "../helpers/eventually";
import { cloneTemplate, serverOf } from "../helpers/isolated-database";
import { createTestProject } from "../helpers/partner";

afterAll(() => disconnectDatabase());

it("is a clone of the run's template, named after this file's worker", async () => {
  const template = new URL(inject("templateDatabaseUrl")).pathname.slice(1);
  const [{ name }] = await db().$queryRaw<[{ name: string }]>`SELECT current_database()::text AS name`;
  expect(name).toMatch(new RegExp(`^${template}_w${process.env.VITEST_POOL_ID}_file_[0-9a-f]{8}$`));
  expect(new URL(process.env.DATABASE_URL!).pathname).toBe(`/${name}`);
});

it("starts with every migration applied and no rows written by another file", async () => {
  const [{ applied }] = await db().$queryRaw<[{ applied: bigint }]>`SELECT count(*) AS applied FROM _prisma_migrations WHERE finished_at IS NOT NULL`;
  expect(Number(applied)).toBe(migrationsOnDisk().length);
  expect(await db().project.count()).toBe(0);
  expect(await db().application.count()).toBe(0);
  expect(await db().event.count()).toBe(0);
  await createTestProject();
  expect(await db().project.count()).toBe(1);
});

it("drops the worker's clones of earlier files once it has made the next one, without waiting for that", async () => {
  const earlier = new URL(await cloneTemplate("dropping")).pathname.slice(1);
  const next = new URL(await cloneTemplate("dropping")).pathname.slice(1);
  const serverUrl = serverOf(inject("templateDatabaseUrl"));
  const existing = () =>
    withAdminClient(serverUrl, async (client) => (await client.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname = ANY($1)", [[earlier, next]])).rows.map(({ datname }) => datname));
  // Dropping a database waits on a checkpoint, which a busy machine can take seconds to finish.
  expect(await eventually(existing, (names) => !names.includes(earlier), { timeoutMs: 30_000 })).toEqual([next]);
  expect(databaseUrl(serverUrl, next)).not.toBe(process.env.DATABASE_URL);
});
