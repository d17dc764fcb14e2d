// `npm run bench [-- --check] [-- --duration S] [-- --connections N]`: the hot paths under load, each API route
// measured both ways the platform can serve it, side by side in the same run (the machines are noisy; only ratios
// travel):
//   - served directly: `npm start` as it is, our HTTP server calling the route handler (scripts/direct-routes.ts);
//   - through Next: the same build with SERVE_API_THROUGH_NEXT, every request through Next's router first;
// beside two references: the framework floor (GET /healthz, a route handler that does nothing, both ways) and a
// bare node:http server returning the same products JSON. The site's pages go through Next either way and are set
// against Next's floor.
// Both servers run as `npm start` runs them (production build) on one fresh database (DATABASE_URL's server, or an
// embedded one), with RATE_LIMIT_SCALE raised so limits never refuse. The measured server's event loop gets a core of
// its own; the load generator, the database's backends and the servers' other threads share the rest (`--unpinned`
// leaves placement to the scheduler; docs/performance.md, "Cores"). Throughput is taken at --connections (default
// 50), latency at 20 connections. Writes bench/results.json; with --check, exits 1 when a budget
// (docs/performance.md) is missed by more than the run's own spread.
import "./require-node";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import pg from "pg";
import { pinMainThread, pinProcess, pinProcesses, planCores, type CorePlan } from "./cpu-affinity";
import { benchServerEnv, benchTargets, buildIsStale, freePort, npmStartCommand, prepareBenchDatabase, processTree, rssMb, run, seedBenchData, type Target, waitForHttp } from "./bench-fixtures";

const ROOT = path.resolve(import.meta.dirname, "..");
const LATENCY_CONNECTIONS = 20;
const WARM_UP_SECONDS = 3;
const LATENCY_SECONDS = 3;
/** Rounds of each path served directly, each between two rounds of the path it is set against. */
const ROUNDS = 3;

/** The budgets other than each row's own (Target.budget); docs/performance.md, "Budgets". */
const BUDGETS = { floorSpeedup: 5, p99At20Ms: 50, peakRssMb: 350 } as const;

const { values: flags } = parseArgs({
  options: {
    check: { type: "boolean", default: false },
    /** Seconds of load per path and per way of serving it, split over its rounds. */
    duration: { type: "string", default: "6" },
    connections: { type: "string", default: "50" },
    /** Measure only the hot paths whose name contains this text (the references always run). */
    only: { type: "string" },
    /** Write a CPU profile of the directly serving server to bench/profiles when it stops. */
    profile: { type: "boolean", default: false },
    /** Leave every process where the scheduler puts it (see "Cores" in docs/performance.md). */
    unpinned: { type: "boolean", default: false },
    /** Run the servers and the bare baseline on this node binary instead of the project's (a runtime comparison). */
    node: { type: "string" },
  },
});
const ROUND_SECONDS = Math.max(1, Math.round(Number(flags.duration) / ROUNDS));
const CONNECTIONS = Number(flags.connections);
const SERVER_NODE = flags.node ?? process.execPath;

type Way = "direct" | "next";

interface BenchServer {
  way: Way;
  baseUrl: string;
  child: ChildProcess;
  pids: number[];
  peakRssMb: number;
}

/** One path measured in alternation with the one it is set against: the ratio of each round to its neighbours. */
interface Paired {
  requestsPerSecond: number;
  againstRequestsPerSecond: number;
  /** Median of the rounds' ratios, and half their range: the run's own spread. */
  ratio: number;
  spread: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

interface Row {
  name: string;
  page: boolean;
  budget?: number;
  next: { requestsPerSecond: number; p99Ms: number; shareOfNextFloor: number };
  direct: { requestsPerSecond: number; p50Ms: number; p99Ms: number };
  /** Served directly over through Next (an API row), or the page's share of Next's floor. */
  ratio: number;
  spread: number;
  /** p99 at 20 connections, as served in production: the mean of two runs, and half their difference. */
  p99At20Ms: number;
  p99At20SpreadMs: number;
  non2xx: number;
  errors: number;
}

interface Verdict {
  budget: string;
  measured: string;
  required: string;
  /** Measured minus required, in the budget's unit: negative is short of it. */
  margin: number;
  spread: number;
  missed: boolean;
  unit: string;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

async function load(baseUrl: string, target: Target, connections: number, durationSeconds: number) {
  return autocannon({
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
}

/**
 * `target` on `subject` against `reference` on `against`, in alternation: reference, subject, reference, ... so each
 * subject round is set against the mean of the reference rounds either side of it (the machine's pace drifts within
 * a run). The ratio is the median of the rounds' ratios; half their range is the spread a budget is allowed.
 */
async function paired(subject: { server: BenchServer; target: Target }, against: { server: BenchServer; target: Target }, place: () => Promise<void>): Promise<Paired> {
  await load(subject.server.baseUrl, subject.target, CONNECTIONS, WARM_UP_SECONDS);
  await load(against.server.baseUrl, against.target, CONNECTIONS, WARM_UP_SECONDS);
  await place();
  const referenceRuns = [(await load(against.server.baseUrl, against.target, CONNECTIONS, ROUND_SECONDS)).requests.average];
  const runs: autocannon.Result[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    runs.push(await load(subject.server.baseUrl, subject.target, CONNECTIONS, ROUND_SECONDS));
    referenceRuns.push((await load(against.server.baseUrl, against.target, CONNECTIONS, ROUND_SECONDS)).requests.average);
  }
  const ratios = runs.map((result, round) => result.requests.average / mean([referenceRuns[round]!, referenceRuns[round + 1]!]));
  return {
    requestsPerSecond: Math.round(mean(runs.map((result) => result.requests.average))),
    againstRequestsPerSecond: Math.round(mean(referenceRuns)),
    ratio: median(ratios),
    spread: (Math.max(...ratios) - Math.min(...ratios)) / 2,
    p50Ms: median(runs.map((result) => result.latency.p50)),
    p99Ms: Math.max(...runs.map((result) => result.latency.p99)),
    non2xx: runs.reduce((sum, result) => sum + result.non2xx, 0),
    errors: runs.reduce((sum, result) => sum + result.errors + result.timeouts, 0),
  };
}

/** p99 at 20 connections, twice: the mean and half the difference. */
async function latencyAt20(server: BenchServer, target: Target): Promise<{ p99Ms: number; spreadMs: number; non2xx: number; errors: number }> {
  const runs = [await load(server.baseUrl, target, LATENCY_CONNECTIONS, LATENCY_SECONDS), await load(server.baseUrl, target, LATENCY_CONNECTIONS, LATENCY_SECONDS)];
  const p99s = runs.map((result) => result.latency.p99);
  return {
    p99Ms: mean(p99s),
    spreadMs: Math.abs(p99s[0]! - p99s[1]!) / 2,
    non2xx: runs.reduce((sum, result) => sum + result.non2xx, 0),
    errors: runs.reduce((sum, result) => sum + result.errors + result.timeouts, 0),
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

/**
 * A production server as `npm start` runs it, one way or the other. Both share the database, the public address
 * (as processes behind one load balancer do) and the sealing key, so a token minted by one is good at the other.
 */
async function startServer(way: Way, port: number, shared: Record<string, string>): Promise<BenchServer> {
  const profiling = flags.profile && way === "direct" ? ["--cpu-prof", `--cpu-prof-dir=${path.join(ROOT, "bench", "profiles")}`] : [];
  const start = npmStartCommand();
  const child = spawn(SERVER_NODE, [...profiling, ...start.args], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...start.env,
      ...(flags.node ? { ALLOW_UNSUPPORTED_NODE: "1" } : {}),
      ...shared,
      PORT: String(port),
      ...(way === "next" ? { SERVE_API_THROUGH_NEXT: "true" } : {}),
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  return { way, baseUrl: `http://127.0.0.1:${port}`, child, pids: [child.pid!], peakRssMb: 0 };
}

function verdicts(rows: Row[], floor: Paired, peakRssMb: number): Verdict[] {
  const all: Verdict[] = [];
  const ratioVerdict = (budget: string, measured: number, required: number, spread: number, unit: string) => {
    const margin = measured - required;
    const show = (value: number) => (unit === "×" ? `${value.toFixed(2)}×` : `${(value * 100).toFixed(0)}%`);
    all.push({ budget, measured: show(measured), required: `≥ ${show(required)}`, margin, spread, missed: margin < 0 && -margin > spread, unit });
  };
  ratioVerdict("floor: served directly over through Next", floor.ratio, BUDGETS.floorSpeedup, floor.spread, "×");
  for (const row of rows) {
    if (row.budget !== undefined) {
      if (row.page) ratioVerdict(`${row.name}: share of Next's floor`, row.ratio, row.budget, row.spread, "%");
      else ratioVerdict(`${row.name}: served directly over through Next`, row.ratio, row.budget, row.spread, "×");
    }
    if (!row.page) {
      const margin = BUDGETS.p99At20Ms - row.p99At20Ms;
      all.push({ budget: `${row.name}: p99 at 20 connections`, measured: `${row.p99At20Ms.toFixed(1)} ms`, required: `< ${BUDGETS.p99At20Ms} ms`, margin, spread: row.p99At20SpreadMs, missed: margin < 0 && -margin > row.p99At20SpreadMs, unit: "ms" });
    }
    if (row.non2xx > 0 || row.errors > 0) {
      all.push({ budget: `${row.name}: every answer 2xx`, measured: `${row.non2xx} non-2xx, ${row.errors} errors`, required: "none", margin: -(row.non2xx + row.errors), spread: 0, missed: true, unit: "" });
    }
  }
  const rssMargin = BUDGETS.peakRssMb - peakRssMb;
  all.push({ budget: "peak RSS of the server (served directly)", measured: `${peakRssMb.toFixed(0)} MB`, required: `< ${BUDGETS.peakRssMb} MB`, margin: rssMargin, spread: 0, missed: rssMargin <= 0, unit: "MB" });
  return all;
}

function formatMargin(verdict: Verdict): string {
  if (verdict.unit === "×") return `${verdict.margin >= 0 ? "+" : ""}${verdict.margin.toFixed(2)}× (spread ±${verdict.spread.toFixed(2)})`;
  if (verdict.unit === "%") return `${verdict.margin >= 0 ? "+" : ""}${(verdict.margin * 100).toFixed(0)} pts (spread ±${(verdict.spread * 100).toFixed(0)})`;
  if (verdict.unit === "ms") return `${verdict.margin >= 0 ? "+" : ""}${verdict.margin.toFixed(1)} ms (spread ±${verdict.spread.toFixed(1)})`;
  if (verdict.unit === "MB") return `${verdict.margin >= 0 ? "+" : ""}${verdict.margin.toFixed(0)} MB`;
  return "";
}

/** Runs the bench; resolves to whether every budget was met. */
async function main(): Promise<boolean> {
  // 1. A fresh database of its own.
  const database = await prepareBenchDatabase();
  const { url } = database;

  // 2. A production build, when there is none or the sources changed since.
  if (buildIsStale()) await run(path.join(ROOT, "node_modules", ".bin", "next"), ["build"], { ...process.env, NODE_ENV: "production" });

  // 3. The app both ways, as `npm start` runs it; this process (the load generator) off the servers' core.
  const plan: CorePlan | null = flags.unpinned ? null : planCores();
  if (plan) pinProcess(process.pid, plan.otherCores);
  const [directPort, nextPort] = [await freePort(), await freePort()];
  // The public address is the directly serving one's, for both: links the app writes lead somewhere that answers.
  const shared = benchServerEnv(url, directPort, `http://127.0.0.1:${directPort}`);
  // One after the other: both apply migrations and seed the reference data on start.
  const direct = await startServer("direct", directPort, shared);
  const servers: BenchServer[] = [direct];
  const sampler = setInterval(() => {
    for (const server of servers) server.peakRssMb = Math.max(server.peakRssMb, rssMb(server.pids));
  }, 500);
  try {
    await waitForHttp(`${direct.baseUrl}/healthz`, 120_000);
    const next = await startServer("next", nextPort, shared);
    servers.push(next);
    await waitForHttp(`${next.baseUrl}/healthz`, 120_000);
    for (const server of servers) server.pids = processTree(server.child.pid!);
    let unmovedBackends = 0;
    const place = async () => {
      if (!plan) return;
      for (const server of servers) pinMainThread(server.child.pid!, plan);
      unmovedBackends = Math.max(unmovedBackends, pinProcesses(await databaseBackends(url), plan.otherCores));
    };

    // 4. A live project on the platform tier, tokens, 100 applications, and funded accounts to read.
    const data = await seedBenchData(direct.baseUrl);

    // 5. The references: the floor both ways, and the bare server.
    const floorTarget: Target = { name: "framework floor: GET /healthz", method: "GET", path: "/healthz" };
    const floor = await paired({ server: direct, target: floorTarget }, { server: next, target: floorTarget }, place);
    const barePort = await freePort();
    const bareServer = startBareServer(data.products, barePort);
    await waitForHttp(`http://127.0.0.1:${barePort}/`, 10_000);
    if (plan) pinProcess(bareServer.pid!, plan.serverCore);
    await load(`http://127.0.0.1:${barePort}`, floorTarget, CONNECTIONS, WARM_UP_SECONDS);
    const bare = await load(`http://127.0.0.1:${barePort}`, floorTarget, CONNECTIONS, ROUND_SECONDS * ROUNDS);
    bareServer.kill();

    // 6. The hot paths: an API route served directly against itself through Next; a page against Next's floor.
    const rows: Row[] = [];
    for (const target of benchTargets(data).filter((candidate) => !flags.only || candidate.name.includes(flags.only))) {
      const measured = target.page
        ? await paired({ server: direct, target }, { server: next, target: floorTarget }, place)
        : await paired({ server: direct, target }, { server: next, target }, place);
      const latency = await latencyAt20(direct, target);
      // Today's shares of the floor, through Next, so the history before direct serving stays comparable.
      const nextRate = target.page ? measured.requestsPerSecond : measured.againstRequestsPerSecond;
      rows.push({
        name: target.name,
        page: target.page ?? false,
        budget: target.budget,
        next: { requestsPerSecond: nextRate, p99Ms: measured.p99Ms, shareOfNextFloor: nextRate / floor.againstRequestsPerSecond },
        direct: { requestsPerSecond: measured.requestsPerSecond, p50Ms: measured.p50Ms, p99Ms: measured.p99Ms },
        ratio: measured.ratio,
        spread: measured.spread,
        p99At20Ms: latency.p99Ms,
        p99At20SpreadMs: latency.spreadMs,
        non2xx: measured.non2xx + latency.non2xx,
        errors: measured.errors + latency.errors,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const rssAfterMb = rssMb(processTree(direct.child.pid!));

    // 7. Report.
    const checks = verdicts(rows, floor, direct.peakRssMb);
    const missed = checks.filter((check) => check.missed);
    const bareRate = Math.round(bare.requests.average);
    const table = [
      "| Endpoint | direct req/s | through Next req/s | direct ÷ Next | spread | direct p50 ms | direct p99 ms | p99 ms @20 (direct) | vs bare (direct) |",
      "|---|---|---|---|---|---|---|---|---|",
      `| ${floorTarget.name} | ${floor.requestsPerSecond} | ${floor.againstRequestsPerSecond} | ${floor.ratio.toFixed(2)}× | ±${floor.spread.toFixed(2)} | ${floor.p50Ms} | ${floor.p99Ms} | | ${((floor.requestsPerSecond / bareRate) * 100).toFixed(1)}% |`,
      `| bare node:http (products JSON) | ${bareRate} | | | | ${bare.latency.p50} | ${bare.latency.p99} | | 100% |`,
      ...rows.map(
        (row) =>
          `| ${row.name} | ${row.direct.requestsPerSecond} | ${row.next.requestsPerSecond} | ${row.page ? "(a page: Next either way)" : `${row.ratio.toFixed(2)}×`} | ${row.page ? "" : `±${row.spread.toFixed(2)}`} | ${row.direct.p50Ms} | ${row.direct.p99Ms} | ${row.p99At20Ms.toFixed(1)} | ${((row.direct.requestsPerSecond / bareRate) * 100).toFixed(1)}% |`,
      ),
    ].join("\n");
    const shares = [
      "| Endpoint through Next | req/s | share of Next's floor |",
      "|---|---|---|",
      ...rows.map((row) => `| ${row.name} | ${row.next.requestsPerSecond} | ${(row.next.shareOfNextFloor * 100).toFixed(0)}% |`),
    ].join("\n");
    const budgetTable = [
      "| Budget | measured | required | margin | verdict |",
      "|---|---|---|---|---|",
      ...checks.map((check) => `| ${check.budget} | ${check.measured} | ${check.required} | ${formatMargin(check)} | ${check.missed ? "MISSED" : check.margin < 0 ? "short, within the spread" : "met"} |`),
    ].join("\n");
    const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, servers on Node ${execFileSync(SERVER_NODE, ["-p", "process.version"], { encoding: "utf8" }).trim()}`;
    const placement = plan
      ? `the measured server's event loop on core ${plan.serverCore}; load generator, database backends and the servers' other threads on core(s) ${plan.otherCores}` +
        (unmovedBackends > 0 ? ` (${unmovedBackends} database backends could not be moved: run as their owner or root)` : "")
      : "unpinned";
    console.log(
      `\n${machine}; ${CONNECTIONS} connections, ${ROUNDS} rounds of ${ROUND_SECONDS} s each way (p99 @20: 20 connections, twice ${LATENCY_SECONDS} s)\nCores: ${placement}\n\n${table}\n\nThrough Next, as a share of its floor (the measure before direct serving):\n\n${shares}\n\nBudgets (a budget is missed only when it falls short by more than the run's own spread):\n\n${budgetTable}\n\nServer RSS: served directly, peak ${direct.peakRssMb.toFixed(0)} MB, after the run ${rssAfterMb.toFixed(0)} MB; through Next, peak ${next.peakRssMb.toFixed(0)} MB`,
    );
    mkdirSync(path.join(ROOT, "bench"), { recursive: true });
    writeFileSync(
      path.join(ROOT, "bench", "results.json"),
      `${JSON.stringify({ ran_at: new Date().toISOString(), machine, placement, connections: CONNECTIONS, round_seconds: ROUND_SECONDS, floor, bare_requests_per_second: bareRate, rows, peak_rss_mb: { direct: Math.round(direct.peakRssMb), next: Math.round(next.peakRssMb) }, rss_after_mb: Math.round(rssAfterMb), budgets: checks }, null, 2)}\n`,
    );
    if (missed.length > 0) console.log(`\nBudgets missed:\n  ${missed.map((check) => `${check.budget}: ${check.measured}, ${check.required}`).join("\n  ")}`);
    else console.log("\nAll budgets met.");
    return missed.length === 0;
  } finally {
    clearInterval(sampler);
    for (const server of servers) server.child.kill("SIGTERM");
    await Promise.all(servers.map((server) => new Promise((resolve) => (server.child.exitCode !== null ? resolve(null) : server.child.once("exit", resolve)))));
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
