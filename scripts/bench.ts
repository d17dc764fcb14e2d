// `npm run bench [-- --check] [-- --duration S] [-- --connections N]`: the hot paths under load, each measured
// beside two references in the same run (the machines are noisy; only ratios travel):
//   - the framework floor: this build's GET /healthz, a route handler that does nothing;
//   - a bare node:http server returning the same products JSON.
// The app runs as `npm start` runs it (production build, our HTTP server around Next) against a fresh
// database (DATABASE_URL's server, or an embedded one), with RATE_LIMIT_SCALE raised so limits never refuse.
// The server's event loop gets a core of its own; the load generator, the database's backends and the server's
// other threads share the rest (`--unpinned` leaves placement to the scheduler; docs/performance.md, "Cores").
// Throughput is taken at --connections (default 50), latency at 20 connections. Writes bench/results.json;
// with --check, exits 1 when a budget (docs/performance.md) is missed.
import "./require-node";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import pg from "pg";
import { pinMainThread, pinProcess, pinProcesses, planCores } from "./cpu-affinity";
import { benchServerEnv, benchTargets, buildIsStale, freePort, npmStartCommand, prepareBenchDatabase, processTree, rssMb, run, seedBenchData, type Target, waitForHttp } from "./bench-fixtures";

const ROOT = path.resolve(import.meta.dirname, "..");
const LATENCY_CONNECTIONS = 20;
const WARM_UP_SECONDS = 5;
const LATENCY_SECONDS = 5;
/** Runs of each hot path per measurement, each between two runs of the floor. */
const ROUNDS = 3;
/** A floor below this share of its usual pace during a hot path's measurement gets that hot path measured again. */
const UNSTEADY_FLOOR = 0.9;

interface Measurement {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  p99At20Ms: number;
  non2xx: number;
  errors: number;
}

const { values: flags } = parseArgs({
  options: {
    check: { type: "boolean", default: false },
    duration: { type: "string", default: "12" },
    connections: { type: "string", default: "50" },
    /** Measure only the hot paths whose name contains this text (the references always run). */
    only: { type: "string" },
    /** Write a CPU profile of the server to bench/profiles when it stops. */
    profile: { type: "boolean", default: false },
    /** Leave every process where the scheduler puts it (see "Cores" in docs/performance.md). */
    unpinned: { type: "boolean", default: false },
    /** Run the server and the bare baseline on this node binary instead of the project's (a runtime comparison). */
    node: { type: "string" },
  },
});
const DURATION_SECONDS = Number(flags.duration);
/** A hot path's --duration is split over its rounds. */
const ROUND_SECONDS = Math.max(1, Math.round(DURATION_SECONDS / ROUNDS));
const CONNECTIONS = Number(flags.connections);
const SERVER_NODE = flags.node ?? process.execPath;

async function load(baseUrl: string, target: Target, connections: number, durationSeconds: number) {
  const result = await autocannon({
    url: `${baseUrl}${target.path}`,
    connections,
    duration: durationSeconds,
    requests: [
      {
        method: target.method,
        headers: { ...(target.body ? { "content-type": "application/json" } : {}), ...target.headers },
        body: target.body,
        ...(target.freshIdempotencyKey
          ? { setupRequest: (request: autocannon.Request) => ({ ...request, headers: { ...request.headers, "idempotency-key": randomUUID() } }) }
          : {}),
      },
    ],
  });
  return result;
}

/** Puts the processes on their cores (after a warm-up: it opens connections and may start threads). */
type Placement = () => Promise<void>;

/** Measures `target` alone: warm-up, throughput at --connections, then latency at 20 connections. */
async function measure(baseUrl: string, target: Target, place: Placement): Promise<Measurement> {
  await warmUp(baseUrl, target);
  await place();
  const throughput = await load(baseUrl, target, CONNECTIONS, DURATION_SECONDS);
  const latency = await load(baseUrl, target, LATENCY_CONNECTIONS, LATENCY_SECONDS);
  return {
    name: target.name,
    requestsPerSecond: Math.round(throughput.requests.average),
    p50Ms: throughput.latency.p50,
    p99Ms: throughput.latency.p99,
    p99At20Ms: latency.latency.p99,
    non2xx: throughput.non2xx + latency.non2xx,
    errors: throughput.errors + throughput.timeouts + latency.errors + latency.timeouts,
  };
}

// Warm-up, long enough to reach the steady state: V8 optimises the hot code, every pooled connection has
// prepared the fast lane's statements, caches are filled. (Two seconds left the list a quarter slower.)
async function warmUp(baseUrl: string, target: Target): Promise<void> {
  await load(baseUrl, target, CONNECTIONS, WARM_UP_SECONDS);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/**
 * Measures `target` against the floor side by side: the machine's speed drifts within a run (other tenants
 * share its cores), so the two alternate in ROUNDS short runs, floor first and last, and each target run is
 * set against the mean of the floor runs on either side of it. The share is the median of those ratios, so
 * one round caught by a change of pace does not decide it. p50 is the median round's, p99 the worst round's.
 */
async function measureAgainstFloor(baseUrl: string, target: Target, floor: Target, place: Placement): Promise<Measurement & { floorRequestsPerSecond: number; shareOfFloor: number }> {
  await warmUp(baseUrl, target);
  await place();
  const floorRuns = [(await load(baseUrl, floor, CONNECTIONS, ROUND_SECONDS)).requests.average];
  const runs: autocannon.Result[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    runs.push(await load(baseUrl, target, CONNECTIONS, ROUND_SECONDS));
    floorRuns.push((await load(baseUrl, floor, CONNECTIONS, ROUND_SECONDS)).requests.average);
  }
  const latency = await load(baseUrl, target, LATENCY_CONNECTIONS, LATENCY_SECONDS);
  return {
    name: target.name,
    requestsPerSecond: Math.round(mean(runs.map((run) => run.requests.average))),
    floorRequestsPerSecond: Math.round(mean(floorRuns)),
    shareOfFloor: median(runs.map((run, round) => run.requests.average / mean([floorRuns[round]!, floorRuns[round + 1]!]))),
    p50Ms: median(runs.map((run) => run.latency.p50)),
    p99Ms: Math.max(...runs.map((run) => run.latency.p99)),
    p99At20Ms: latency.latency.p99,
    non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0) + latency.non2xx,
    errors: runs.reduce((sum, run) => sum + run.errors + run.timeouts, 0) + latency.errors + latency.timeouts,
  };
}

/** The server processes of the bench database (the app's pooled connections). */
async function databaseBackends(url: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()");
    return rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
}

/** The bare baseline: node:http answering the same products JSON, in a process of its own. */
function startBareServer(body: string, port: number): ChildProcess {
  const source = `require("node:http").createServer((q, s) => { s.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(B) }); s.end(B); }).listen(${port}, "127.0.0.1");`;
  return spawn(SERVER_NODE, ["-e", `const B = ${JSON.stringify(body)};${source}`], { stdio: "ignore" });
}

/** Runs the bench; resolves to whether every budget was met. */
async function main(): Promise<boolean> {
  // 1. A fresh database of its own.
  const database = await prepareBenchDatabase();
  const { url } = database;

  // 2. A production build, when there is none or the sources changed since.
  if (buildIsStale()) await run(path.join(ROOT, "node_modules", ".bin", "next"), ["build"], { ...process.env, NODE_ENV: "production" });

  // 3. The app, as `npm start` runs it; this process (the load generator) off the server's core.
  const plan = flags.unpinned ? null : planCores();
  if (plan) pinProcess(process.pid, plan.otherCores);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const profiling = flags.profile ? ["--cpu-prof", `--cpu-prof-dir=${path.join(ROOT, "bench", "profiles")}`] : [];
  const start = npmStartCommand();
  const server = spawn(SERVER_NODE, [...profiling, ...start.args], {
    cwd: ROOT,
    env: { ...process.env, ...start.env, ...(flags.node ? { ALLOW_UNSUPPORTED_NODE: "1" } : {}), ...benchServerEnv(url, port, baseUrl) },
    stdio: ["ignore", "inherit", "inherit"],
  });
  let peakRssMb = 0;
  let serverPids: number[] = [server.pid!];
  const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, rssMb(serverPids))), 500);
  try {
    await waitForHttp(`${baseUrl}/healthz`, 120_000);
    serverPids = processTree(server.pid!);
    let unmovedBackends = 0;
    const place: Placement = async () => {
      if (!plan) return;
      pinMainThread(server.pid!, plan);
      unmovedBackends = Math.max(unmovedBackends, pinProcesses(await databaseBackends(url), plan.otherCores));
    };

    // 4. A live project on the platform tier, a token, and 100 applications to list and read.
    const data = await seedBenchData(baseUrl);
    const { products } = data;

    // 5. The references and the hot paths.
    const barePort = await freePort();
    const bareServer = startBareServer(products, barePort);
    await waitForHttp(`http://127.0.0.1:${barePort}/`, 10_000);
    const placeBareServer: Placement = async () => {
      if (plan) pinProcess(bareServer.pid!, plan.serverCore);
    };
    const targets = benchTargets(data);
    const floorTarget: Target = { name: "framework floor: GET /healthz", method: "GET", path: "/healthz" };
    const floor = await measure(baseUrl, floorTarget, place);
    const bareMeasurement = await measure(`http://127.0.0.1:${barePort}`, { name: "bare node:http (products JSON)", method: "GET", path: "/" }, placeBareServer);
    bareServer.kill();
    const chosen = targets.filter((target) => !flags.only || target.name.includes(flags.only));
    const measured: (Measurement & { floorRequestsPerSecond: number; shareOfFloor: number })[] = [];
    for (const target of chosen) measured.push(await measureAgainstFloor(baseUrl, target, floorTarget, place));
    // A hot path measured while the floor itself ran well below its pace for the rest of the run (the machine in
    // one of its slow phases, which do not slow every route alike) is measured once more, whatever its result.
    const remeasured: string[] = [];
    const usualFloor = median([floor.requestsPerSecond, ...measured.map((row) => row.floorRequestsPerSecond)]);
    for (const [index, target] of chosen.entries()) {
      if (measured[index]!.floorRequestsPerSecond >= UNSTEADY_FLOOR * usualFloor) continue;
      measured[index] = await measureAgainstFloor(baseUrl, target, floorTarget, place);
      remeasured.push(target.name);
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const rssAfterMb = rssMb(processTree(server.pid!));

    // 6. Report.
    const floorRuns = [floor.requestsPerSecond, ...measured.map((row) => row.floorRequestsPerSecond)];
    const meanFloor = Math.round(mean(floorRuns));
    const rows = [{ ...floor, floorRequestsPerSecond: floor.requestsPerSecond }, { ...bareMeasurement, floorRequestsPerSecond: meanFloor }, ...measured].map((row) => ({
      ...row,
      shareOfFloor: "shareOfFloor" in row ? row.shareOfFloor : row.requestsPerSecond / row.floorRequestsPerSecond,
      shareOfBare: row.requestsPerSecond / bareMeasurement.requestsPerSecond,
    }));
    const failures: string[] = [];
    for (const row of rows.slice(2)) {
      const target = targets.find((candidate) => candidate.name === row.name)!;
      if (target.minShareOfFloor && row.shareOfFloor < target.minShareOfFloor) failures.push(`${target.name}: ${(row.shareOfFloor * 100).toFixed(0)}% of the floor < ${target.minShareOfFloor * 100}%`);
      if (row.p99At20Ms >= 150) failures.push(`${target.name}: p99 ${row.p99At20Ms} ms at 20 connections ≥ 150 ms`);
      if (row.non2xx > 0 || row.errors > 0) failures.push(`${target.name}: ${row.non2xx} non-2xx, ${row.errors} errors`);
    }
    if (rssAfterMb >= 400) failures.push(`server RSS ${rssAfterMb.toFixed(0)} MB after the run ≥ 400 MB`);

    const table = [
      `| Endpoint | req/s | vs floor | vs bare | p50 ms | p99 ms | p99 ms @20 | non-2xx | errors |`,
      `|---|---|---|---|---|---|---|---|---|`,
      ...rows.map((row) => `| ${row.name} | ${row.requestsPerSecond} | ${(row.shareOfFloor * 100).toFixed(0)}% | ${(row.shareOfBare * 100).toFixed(1)}% | ${row.p50Ms} | ${row.p99Ms} | ${row.p99At20Ms} | ${row.non2xx} | ${row.errors} |`),
    ].join("\n");
    const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, server on Node ${execFileSync(SERVER_NODE, ["-p", "process.version"], { encoding: "utf8" }).trim()}`;
    const placement = plan
      ? `server event loop on core ${plan.serverCore}; load generator, database backends and the server's other threads on core(s) ${plan.otherCores}` +
        (unmovedBackends > 0 ? ` (${unmovedBackends} database backends could not be moved: run as their owner or root)` : "")
      : "unpinned";
    const floorRange =
      `The floor as measured beside each hot path: ${floorRuns.join(", ")} req/s (each hot path's share is the median of its rounds' ratios to the floor runs either side).` +
      (remeasured.length > 0 ? `\nMeasured again, the floor having run below ${UNSTEADY_FLOOR * 100}% of its usual ${usualFloor} req/s the first time: ${remeasured.join("; ")}.` : "");
    console.log(`\n${machine}; ${CONNECTIONS} connections for ${DURATION_SECONDS} s (p99 @20: 20 connections)\nCores: ${placement}\n\n${table}\n\n${floorRange}\nServer RSS: peak ${peakRssMb.toFixed(0)} MB, after the run ${rssAfterMb.toFixed(0)} MB`);
    mkdirSync(path.join(ROOT, "bench"), { recursive: true });
    writeFileSync(
      path.join(ROOT, "bench", "results.json"),
      `${JSON.stringify({ ran_at: new Date().toISOString(), machine, placement, connections: CONNECTIONS, duration_seconds: DURATION_SECONDS, floor_runs: floorRuns, remeasured, rows, peak_rss_mb: Math.round(peakRssMb), rss_after_mb: Math.round(rssAfterMb), budget_failures: failures }, null, 2)}\n`,
    );
    if (failures.length > 0) console.log(`\nBudgets missed:\n  ${failures.join("\n  ")}`);
    else console.log("\nAll budgets met.");
    return failures.length === 0;
  } finally {
    clearInterval(sampler);
    server.kill("SIGTERM");
    await new Promise((resolve) => server.once("exit", resolve));
    await database.stop();
  }
}

// The exit code is set explicitly: a dependency loaded with the app's modules ends the process with code 0
// once the server child exits, which would otherwise hide a missed budget from --check.
main().then(
  (allMet) => process.exit(flags.check && !allMet ? 1 : 0),
  (error) => {
    console.error(error instanceof Error ? error.stack : error);
    process.exit(1);
  },
);
