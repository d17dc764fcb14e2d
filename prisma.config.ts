// Prisma CLI configuration: the wasm schema engine over the pg driver adapter, so `migrate` runs offline
// (the classic engine downloads a binary this environment cannot reach; see docs/architecture.md).
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";

// prisma/prisma#27403: the wasm engine cannot decode some catalog types (char, name, regproc, pg_node_tree,
// regconfig, regdictionary, pg_ndistinct...) that introspection queries return. Presenting them as text is lossless here.
const CATALOG_TYPE_OIDS_READ_AS_TEXT = new Set([18, 19, 24, 194, 2205, 3734, 3769]);
const TEXT_OID = 25;
type ResultWithFields = { addFields(fields: Array<{ dataTypeID: number }>): void };
const resultPrototype = (pg as unknown as { Result: { prototype: ResultWithFields } }).Result.prototype;
const originalAddFields = resultPrototype.addFields;
resultPrototype.addFields = function addFields(fields) {
  for (const field of fields) {
    if (CATALOG_TYPE_OIDS_READ_AS_TEXT.has(field.dataTypeID)) field.dataTypeID = TEXT_OID;
  }
  return originalAddFields.call(this, fields);
};

function connectionOptions(url: string): pg.PoolConfig {
  const parsed = new URL(url);
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 5432),
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database: decodeURIComponent(parsed.pathname.slice(1)),
    allowExitOnIdle: true,
  };
}

type ScriptRunner = { executeScript(script: string): Promise<void> };

// The adapter runs a migration by splitting its script on every ";", which cuts a function body apart (quoted
// or dollar-quoted). PostgreSQL's simple query protocol takes the whole script as one message, and runs it in
// one implicit transaction.
function runScriptsWhole<A extends ScriptRunner>(adapter: A): A {
  const internals = adapter as unknown as { client: pg.Pool | pg.Client; onError(error: unknown): never };
  adapter.executeScript = async (script) => {
    try {
      await internals.client.query(script);
    } catch (error) {
      internals.onError(error);
    }
  };
  return adapter;
}

// The upstream shadow-database support spreads a connection string over the new database name (so the
// "shadow" is the real database) and drops it while connections remain. This one owns its shadow database.
class PrismaPgWithOwnShadow extends PrismaPg {
  private readonly connection: pg.PoolConfig;

  constructor(connection: pg.PoolConfig) {
    super(connection);
    this.connection = connection;
  }

  override async connect() {
    return runScriptsWhole(await super.connect());
  }

  override async connectToShadowDb() {
    const shadowName = `${this.connection.database}_shadow`;
    const admin = new pg.Client({ ...this.connection, database: "postgres" });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${shadowName}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${shadowName}"`);
    await admin.end();
    const shadow = runScriptsWhole(await new PrismaPg({ ...this.connection, database: shadowName }).connect());
    const dispose = shadow.dispose.bind(shadow);
    shadow.dispose = async () => {
      await dispose();
      const cleanup = new pg.Client({ ...this.connection, database: "postgres" });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS "${shadowName}" WITH (FORCE)`);
      await cleanup.end();
    };
    return shadow;
  }
}

// The wasm engine leaves long timers behind that keep the CLI alive for up to a minute after it finishes.
const originalSetTimeout = globalThis.setTimeout;
globalThis.setTimeout = ((handler: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
  const timer = originalSetTimeout(handler, ms, ...args);
  if ((ms ?? 0) >= 5_000) timer.unref?.();
  return timer;
}) as typeof setTimeout;

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  async adapter() {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL must be set to run Prisma migrations");
    return new PrismaPgWithOwnShadow(connectionOptions(url));
  },
});
