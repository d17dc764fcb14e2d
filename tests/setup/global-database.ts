// Gives the test run a real PostgreSQL and, in it, a freshly migrated template database from which every test
// file clones a database of its own (tests/setup/each-file.ts): the server of DATABASE_URL when set (the
// database it names is left alone, for Playwright), otherwise an embedded cluster under .data/postgres-test.
// The clones are dropped when the run ends.
import type { TestProject } from "vitest/node";
import { applyMigrations, databaseUrl, recreateDatabase, startEmbeddedPostgres, TEST_DATABASE } from "../../scripts/database";
import { dropTestDatabases, serverOf } from "../helpers/isolated-database";

interface RunDatabase {
  templateUrl: string;
  /** Projects whose teardown has not run yet: the last one drops the databases. */
  users: number;
  drop: () => Promise<void>;
}

/** The projects that need a database (integration, drills) share one template, made once per run. */
const shared = globalThis as unknown as { __lendingRunDatabase?: Promise<RunDatabase> };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  shared.__lendingRunDatabase ??= prepareRunDatabase();
  const database = await shared.__lendingRunDatabase;
  database.users += 1;
  project.provide("templateDatabaseUrl", database.templateUrl);
  return async () => {
    database.users -= 1;
    if (database.users === 0) await database.drop();
  };
}

async function prepareRunDatabase(): Promise<RunDatabase> {
  let serverUrl: string;
  let name: string;
  let stopCluster: () => Promise<void> = async () => undefined;
  if (process.env.DATABASE_URL) {
    const url = new URL(process.env.DATABASE_URL);
    serverUrl = serverOf(process.env.DATABASE_URL);
    name = `${url.pathname.slice(1)}_template`;
  } else {
    const cluster = await startEmbeddedPostgres({
      dataDirName: TEST_DATABASE.dataDirName,
      port: Number(process.env.EMBEDDED_TEST_POSTGRES_PORT ?? TEST_DATABASE.defaultPort),
    });
    serverUrl = cluster.serverUrl;
    name = `${TEST_DATABASE.name}_template`;
    stopCluster = cluster.stop;
  }
  await recreateDatabase(serverUrl, name);
  await applyMigrations(databaseUrl(serverUrl, name));
  return {
    templateUrl: databaseUrl(serverUrl, name),
    users: 0,
    drop: async () => {
      await dropTestDatabases(serverUrl, name);
      await stopCluster();
    },
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated template; nothing may connect to it, or cloning it fails. */
    templateDatabaseUrl: string;
  }
}
