// Gives the test run a real, migrated PostgreSQL: DATABASE_URL when set (point it at a disposable database),
// otherwise a fresh database in an embedded cluster under .data/postgres-test.
import type { TestProject } from "vitest/node";
import { applyMigrations, databaseUrl, recreateDatabase, startEmbeddedPostgres, TEST_DATABASE } from "../../scripts/database";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.DATABASE_URL) {
    if (process.env.TEST_DATABASE_READY !== "1") await applyMigrations(process.env.DATABASE_URL);
    project.provide("databaseUrl", process.env.DATABASE_URL);
    return async () => undefined;
  }
  const cluster = await startEmbeddedPostgres({
    dataDirName: TEST_DATABASE.dataDirName,
    port: Number(process.env.EMBEDDED_TEST_POSTGRES_PORT ?? TEST_DATABASE.defaultPort),
  });
  await recreateDatabase(cluster.serverUrl, TEST_DATABASE.name);
  const url = databaseUrl(cluster.serverUrl, TEST_DATABASE.name);
  await applyMigrations(url);
  project.provide("databaseUrl", url);
  return () => cluster.stop();
}

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}
