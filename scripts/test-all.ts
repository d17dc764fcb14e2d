// `npm test`: every suite. Unit, API and CLI tests (vitest) against a real PostgreSQL while the production build
// runs; then, on that build, the drills (vitest's drills project: the fleet drill serves it from three processes)
// and the end-to-end tests (Playwright, Debian's Chromium). Ends with one line: "N passed, N failed".
import "./require-node";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { applyMigrations, databaseUrl, recreateDatabase, startEmbeddedPostgres, TEST_DATABASE } from "./database";
import { type Tally, type VitestReport, vitestTally } from "./test-tally";

const ROOT = path.resolve(import.meta.dirname, "..");
const RESULTS = path.join(ROOT, ".data", "test-results");
const bin = (name: string) => path.join(ROOT, "node_modules", ".bin", name);

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: "inherit" });
    child.on("error", () => resolve(1));
    child.on("exit", (code) => resolve(code ?? 1));
  });
}

/** Runs a command with its output held back, to be printed when the caller is ready (not into another's). */
function runQuietly(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", (error) => resolve({ code: 1, output: `${output}${String(error)}\n` }));
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}

function readJson<T>(file: string): T | null {
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as T) : null;
}

/** Runs the named vitest projects; `report` names the JSON report under .data/test-results. */
async function runVitest(env: NodeJS.ProcessEnv, projects: string[], report: string): Promise<Tally> {
  const output = path.join(RESULTS, `${report}.json`);
  const selected = projects.flatMap((project) => ["--project", project]);
  const code = await run(bin("vitest"), ["run", ...selected, "--reporter=default", "--reporter=json", `--outputFile.json=${output}`], env);
  return vitestTally(readJson<VitestReport>(output), code);
}

async function runEndToEnd(env: NodeJS.ProcessEnv): Promise<Tally> {
  if ((await run("bash", [path.join(ROOT, "scripts", "ensure-chromium.sh")], env)) !== 0) return { passed: 0, failed: 1 };
  console.log("\n▶ playwright (Chromium)");
  const output = path.join(RESULTS, "playwright.json");
  const code = await run(bin("playwright"), ["test"], { ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: output });
  const report = readJson<{ stats: { expected: number; unexpected: number; flaky: number } }>(output);
  if (!report) return { passed: 0, failed: 1 };
  const failed = report.stats.unexpected + (code !== 0 && report.stats.unexpected === 0 ? 1 : 0);
  return { passed: report.stats.expected + report.stats.flaky, failed };
}

async function main(): Promise<void> {
  rmSync(RESULTS, { recursive: true, force: true });
  mkdirSync(RESULTS, { recursive: true });
  let url = process.env.DATABASE_URL;
  let stopDatabase: () => Promise<void> = async () => undefined;
  if (url) {
    await applyMigrations(url);
  } else {
    const cluster = await startEmbeddedPostgres({ dataDirName: TEST_DATABASE.dataDirName, port: TEST_DATABASE.defaultPort });
    await recreateDatabase(cluster.serverUrl, TEST_DATABASE.name);
    url = databaseUrl(cluster.serverUrl, TEST_DATABASE.name);
    await applyMigrations(url);
    stopDatabase = cluster.stop;
  }
  const env = { ...process.env, DATABASE_URL: url, NEXT_TELEMETRY_DISABLED: "1" };

  // The production build runs alongside vitest, whose files spend much of their time waiting on the database and
  // on sockets; its output is held until vitest is done.
  const build = runQuietly(bin("next"), ["build"], { ...env, NODE_ENV: "production" });
  console.log("▶ vitest (unit, API, CLI) while next build runs");
  const unit = await runVitest(env, ["unit", "integration"], "vitest");
  console.log("\n▶ next build");
  const built = await build;
  process.stdout.write(built.output);
  // The drills and the end-to-end suite serve the build: without one, each counts as one failure.
  let drills: Tally = { passed: 0, failed: 1 };
  let endToEnd: Tally = { passed: 0, failed: 1 };
  if (built.code === 0) {
    console.log("\n▶ vitest drills (on the production build)");
    drills = await runVitest(env, ["drills"], "vitest-drills");
    endToEnd = await runEndToEnd(env);
  } else {
    console.error("next build failed: the drills and the end-to-end suite did not run");
  }
  await stopDatabase();

  const passed = unit.passed + drills.passed + endToEnd.passed;
  const failed = unit.failed + drills.failed + endToEnd.failed;
  console.log(
    `\nvitest: ${unit.passed} passed, ${unit.failed} failed; drills: ${drills.passed} passed, ${drills.failed} failed; playwright: ${endToEnd.passed} passed, ${endToEnd.failed} failed`,
  );
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 && passed > 0 ? 0 : 1);
}

main().catch((error) => {
  console.error(error);
  console.log("0 passed, 1 failed");
  process.exit(1);
});
