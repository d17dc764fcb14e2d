// Each test file runs against a database of its own, cloned from the run's migrated template: it starts with
// the schema and no rows another file wrote, so a sweep or a count here sees this file's rows and no others.
import { afterAll, expect, inject, it } from "vitest";
import { db, disconnectDatabase } from "@/lib/db";
import { migrationsOnDisk } from "@/lib/health/migrations";
import { createTestProject } from "../helpers/partner";

afterAll(() => disconnectDatabase());

it("is a clone of the run's template, named after this file's worker", async () => {
  const template = new URL(inject("templateDatabaseUrl")).pathname.slice(1);
  const [{ name }] = await db().$queryRaw<[{ name: string }]>`SELECT current_database()::text AS name`;
  expect(name).toBe(`${template}_w${process.env.VITEST_POOL_ID}`);
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
