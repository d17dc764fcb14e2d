// `npm run dev` / `npm start`: validate configuration, find the database (embedded PostgreSQL under .data/
// when DATABASE_URL is unset), apply migrations, seed the demo project, then serve Next.js from our HTTP
// server (scripts/http-server.ts). The app never serves on an unmigrated schema.
import "./require-node";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { assertProductionConfig, ConfigError, demoSeedWanted, parseConfig, productionConfigWarnings, type Config } from "../lib/env";
import { applyMigrations, DEV_DATABASE, resolveDatabase } from "./database";
import { silenceProcessOutput, stopOnSignal } from "./stop-server";

const ROOT = path.resolve(import.meta.dirname, "..");
const NEXT_BIN = path.join(ROOT, "node_modules", ".bin", "next");

function loadConfigOrExit(mode: "dev" | "start"): Config {
  try {
    const settings = parseConfig(process.env);
    if (mode === "start") {
      assertProductionConfig(settings);
      for (const warning of productionConfigWarnings(settings)) console.warn(`Warning: ${warning}`);
    }
    return settings;
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: "inherit" });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** The reference data, and the app registered as a client of its own sign-in provider (the borrower area's). */
async function seedReferenceData(): Promise<void> {
  const [{ disconnectDatabase }, { seedPlatform }, { registerAppSignInClient }] = await Promise.all([
    import("../lib/db"),
    import("../lib/seed/seed-platform"),
    import("../lib/oidc/app-client"),
  ]);
  await seedPlatform();
  await registerAppSignInClient();
  await disconnectDatabase();
}

async function printDemo(settings: Config): Promise<void> {
  const [{ db, disconnectDatabase }, { seedDemo }, { seedDemoBorrower }] = await Promise.all([import("../lib/db"), import("../lib/seed/seed-demo"), import("../lib/seed/seed-borrower")]);
  const { demo } = await seedDemo(db());
  const borrower = await seedDemoBorrower(db(), path.resolve(settings.DEMO_BORROWER_FILE));
  await disconnectDatabase();
  console.log(`
Demo sandbox project ${demo.project_id}
  client_id       ${demo.client_id}
  client_secret   ${demo.sandbox.secret_key}
  publishable key ${demo.sandbox.publishable_key}
Try:
  curl -s ${settings.HUB_URL}/public/v1/healthz
  curl -s ${settings.HUB_URL}/partner/v1/oauth/token -u ${demo.client_id}:${demo.sandbox.secret_key} -d grant_type=client_credentials

Demo borrower (its company owns the demo project's funded account)
  sign in at      ${settings.BASE_URL}/account
  email           ${borrower.email}
  password        ${borrower.password}
`);
}

async function main(): Promise<void> {
  const mode = process.argv[2];
  if (mode !== "dev" && mode !== "start") {
    console.error("usage: tsx scripts/serve.ts dev|start");
    process.exit(2);
  }
  // Before anything reads the configuration, which this process keeps once read (lib/env.ts): the sign-in
  // provider's keys refuse to rest in the clear only in production. Next reads it when its server module loads.
  (process.env as Record<string, string>).NODE_ENV = mode === "dev" ? "development" : "production";
  const settings = loadConfigOrExit(mode);
  const database = await resolveDatabase(DEV_DATABASE.name, {
    dataDirName: DEV_DATABASE.dataDirName,
    port: settings.EMBEDDED_POSTGRES_PORT,
    log: (line) => console.log(line),
  });
  console.log(database.embedded ? `Database: embedded PostgreSQL in .data/${DEV_DATABASE.dataDirName}` : "Database: DATABASE_URL");
  process.env.DATABASE_URL = database.url;
  await applyMigrations(database.url);
  await seedReferenceData();
  if (demoSeedWanted(mode, settings)) await printDemo(settings);

  // The API reference describes the routes being served: write it from their configs before serving them.
  const documented = await run(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts", "openapi.ts")], process.env);
  if (documented !== 0) process.exit(documented);

  process.env.NEXT_TELEMETRY_DISABLED = "1";
  if (mode === "start" && !existsSync(path.join(ROOT, ".next", "BUILD_ID"))) {
    console.log("No production build found; running `next build` first.");
    const built = await run(NEXT_BIN, ["build"], { ...process.env, NODE_ENV: "production" });
    if (built !== 0) process.exit(built);
  }
  // tsx turns source maps on for this process; in production that makes every Error (a 401, a 404) map its
  // stack through them, which costs more than the request itself. Logs keep the built code's positions.
  if (mode === "start") process.setSourceMapsEnabled(false);
  const { startHttpServer } = await import("./http-server");
  const server = await startHttpServer({ dev: mode === "dev", direct: !settings.SERVE_API_THROUGH_NEXT, port: settings.PORT, hostname: process.env.HOSTNAME });
  console.log(`Ready on ${settings.BASE_URL} (${mode === "dev" ? "development" : "production"})`);
  const stop = stopOnSignal({
    server,
    embedded: database.embedded?.startedHere ? database.embedded : null,
    silence: silenceProcessOutput,
    print: (line) => console.log(line),
    exit: (code) => process.exit(code),
    // Development stops at once (an open event stream would otherwise hold Ctrl-C for the whole grace period).
    graceMs: mode === "dev" ? 0 : settings.SHUTDOWN_GRACE_SECONDS * 1000,
    release: async () => (await import("../lib/background/shutdown")).stopBackgroundWork(),
    flush: async () => (await import("../lib/usage/counter")).stopUsageFlushing(),
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    // embedded-postgres hooks these signals to stop its clusters and exit with 130; we stop ours ourselves.
    process.removeAllListeners(signal);
    process.on(signal, () => void stop());
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
