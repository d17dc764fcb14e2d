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
import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import pg from "pg";
import { pinMainThread, pinProcess, pinProcesses, planCores } from "./cpu-affinity";
import { applyMigrations, BENCH_DATABASE, databaseUrl, recreateDatabase, startEmbeddedPostgres } from "./database";

const ROOT = path.resolve(import.meta.dirname, "..");
const LATENCY_CONNECTIONS = 20;
const WARM_UP_SECONDS = 5;
const LATENCY_SECONDS = 5;
/** Runs of each hot path per measurement, each between two runs of the floor. */
const ROUNDS = 3;
/** A floor below this share of its usual pace during a hot path's measurement gets that hot path measured again. */
/** An MCP client's POST: JSON-RPC, after `initialize`, on revision 2025-06-18. */
const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };
const mcpCall = (name: string, args: Record<string, unknown>) => JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });

const UNSTEADY_FLOOR = 0.9;

interface Target {
  name: string;
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** A fresh Idempotency-Key on every request. */
  freshIdempotencyKey?: boolean;
  /** Budget: at least this share of the framework floor's requests/s. */
  minShareOfFloor?: number;
}

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

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const started = Date.now();
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() - started > timeoutMs) throw new Error(`${url} did not come up within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: "inherit" });
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} exited ${code}`))));
  });
}

/** The pids of a process and all its descendants (Linux /proc). */
function processTree(rootPid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const parent = Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${entry}/status`, "utf8"))?.[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // the process ended while we looked
    }
  }
  const tree: number[] = [];
  const pending = [rootPid];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    tree.push(pid);
    pending.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** Resident memory of `pids` in MB. Cheap enough to sample often without disturbing the load generator. */
function rssMb(pids: readonly number[]): number {
  let kilobytes = 0;
  for (const pid of pids) {
    try {
      kilobytes += Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return kilobytes / 1024;
}

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

/**
 * The environment and node arguments of `npm start`, read from package.json so the bench runs exactly what
 * production runs (its allocator setting and V8 heap flags included), as one process: `npm` itself would add a
 * process to the memory figure.
 */
function npmStartCommand(): { env: Record<string, string>; args: string[] } {
  const { scripts } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };
  const words = scripts.start!.split(/\s+/);
  const env: Record<string, string> = {};
  let assignment: RegExpExecArray | null;
  while ((assignment = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(words[0] ?? ""))) {
    env[assignment[1]!] = assignment[2]!;
    words.shift();
  }
  // `exec` only makes the shell npm starts hand its process to node, so a signal reaches node directly.
  if (words[0] === "exec") words.shift();
  const [command, ...args] = words;
  if (command !== "node") throw new Error(`npm start must run node directly for the bench to measure it; it runs: ${scripts.start}`);
  return { env, args };
}

function newestModification(directory: string): number {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestModification(full));
    else newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

function buildIsStale(): boolean {
  const buildId = path.join(ROOT, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return true;
  const sources = ["app", "lib", "inngest"].map((directory) => newestModification(path.join(ROOT, directory)));
  const configuration = ["next.config.mjs", "package.json"].map((file) => statSync(path.join(ROOT, file)).mtimeMs);
  return Math.max(...sources, ...configuration) > statSync(buildId).mtimeMs;
}

/** Runs the bench; resolves to whether every budget was met. */
async function main(): Promise<boolean> {
  // 1. A fresh database of its own.
  let serverUrl: string;
  let embedded: Awaited<ReturnType<typeof startEmbeddedPostgres>> | null = null;
  if (process.env.DATABASE_URL) {
    const parsed = new URL(process.env.DATABASE_URL);
    parsed.pathname = "";
    serverUrl = parsed.toString().replace(/\/$/, "");
  } else {
    embedded = await startEmbeddedPostgres({ dataDirName: BENCH_DATABASE.dataDirName, port: BENCH_DATABASE.defaultPort });
    serverUrl = embedded.serverUrl;
  }
  await recreateDatabase(serverUrl, BENCH_DATABASE.name);
  const url = databaseUrl(serverUrl, BENCH_DATABASE.name);
  await applyMigrations(url);
  process.env.DATABASE_URL = url;

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
    env: { ...process.env, ...start.env, ...(flags.node ? { ALLOW_UNSUPPORTED_NODE: "1" } : {}), DATABASE_URL: url, PORT: String(port), HOSTNAME: "127.0.0.1", BASE_URL: baseUrl, OAUTH_KEY_ENCRYPTION_KEY: randomBytes(32).toString("base64"), AUTH_SECRET: randomBytes(32).toString("base64"), LOG_LEVEL: "warn", RATE_LIMIT_SCALE: "100000", NEXT_TELEMETRY_DISABLED: "1" },
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
    const { db, disconnectDatabase } = await import("../lib/db");
    const { createProject } = await import("../lib/projects/create-project");
    const project = await createProject(db(), { name: "Bench Partner", tier: "platform" });
    await db().project.update({ where: { id: project.project_id }, data: { rateLimitPerSecond: 1_000_000, rateLimitBurst: 1_000_000, rateLimitConcurrent: 10_000 } });
    await disconnectDatabase();
    const basic = `Basic ${Buffer.from(`${project.client_id}:${project.live.secret_key}`).toString("base64")}`;
    const tokenResponse = await fetch(`${baseUrl}/partner/v1/oauth/token`, { method: "POST", headers: { authorization: basic, "content-type": "application/x-www-form-urlencoded" }, body: "grant_type=client_credentials" });
    const token = ((await tokenResponse.json()) as { access_token: string }).access_token;
    const bearer = { authorization: `Bearer ${token}` };
    const applicationBody = JSON.stringify({ business: { company_number: "12345678" }, amount_pence: 2_500_000, term_months: 12, applicant: { email: "bench@example.co.uk" } });
    let applicationId = "";
    for (let index = 0; index < 100; index += 1) {
      const created = await fetch(`${baseUrl}/partner/v1/applications`, { method: "POST", headers: { ...bearer, "content-type": "application/json" }, body: applicationBody });
      applicationId = ((await created.json()) as { id: string }).id;
    }
    // A funded term loan to read, and a Flex facility drawn on 100 times for a full page of its ledger: funding
    // is a sandbox test helper, so these use the project's sandbox token (RATE_LIMIT_SCALE lifts its build-tier bucket).
    const sandboxBasic = `Basic ${Buffer.from(`${project.client_id}:${project.sandbox.secret_key}`).toString("base64")}`;
    const sandboxToken = ((await (await fetch(`${baseUrl}/partner/v1/oauth/token`, { method: "POST", headers: { authorization: sandboxBasic, "content-type": "application/x-www-form-urlencoded" }, body: "grant_type=client_credentials" })).json()) as { access_token: string }).access_token;
    const sandboxBearer = { authorization: `Bearer ${sandboxToken}` };
    const fundedAccount = async (product: "business_loan" | "flex"): Promise<string> => {
      const body = JSON.stringify({ business: { company_number: "12345678" }, amount_pence: 2_500_000, term_months: 12, product, applicant: { email: "bench@example.co.uk" } });
      const application = (await (await fetch(`${baseUrl}/partner/v1/applications`, { method: "POST", headers: { ...sandboxBearer, "content-type": "application/json" }, body })).json()) as { id: string };
      await fetch(`${baseUrl}/partner/v1/test_helpers/applications/${application.id}/submit`, { method: "POST", headers: sandboxBearer });
      for (let attempt = 0; attempt < 100; attempt += 1) {
        const read = (await (await fetch(`${baseUrl}/partner/v1/applications/${application.id}`, { headers: sandboxBearer })).json()) as { status: string };
        if (read.status === "approved") break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const funded = (await (await fetch(`${baseUrl}/partner/v1/test_helpers/applications/${application.id}/fund`, { method: "POST", headers: sandboxBearer })).json()) as { account_id: string };
      return funded.account_id;
    };
    const termAccountId = await fundedAccount("business_loan");
    const flexAccountId = await fundedAccount("flex");
    for (let index = 0; index < 100; index += 1) {
      await fetch(`${baseUrl}/partner/v1/accounts/${flexAccountId}/drawdowns`, { method: "POST", headers: { ...sandboxBearer, "content-type": "application/json" }, body: JSON.stringify({ amount_pence: 1_000 }) });
    }
    const products = await (await fetch(`${baseUrl}/public/v1/products`)).text();

    // 5. The references and the hot paths.
    const barePort = await freePort();
    const bareServer = startBareServer(products, barePort);
    await waitForHttp(`http://127.0.0.1:${barePort}/`, 10_000);
    const placeBareServer: Placement = async () => {
      if (plan) pinProcess(bareServer.pid!, plan.serverCore);
    };
    // The site assistant's caller echoes its page's svc_csrf cookie (lib/wire/csrf.ts).
    const csrfToken = randomBytes(32).toString("base64url");
    const assistantHeaders = { "content-type": "application/json", cookie: `svc_csrf=${csrfToken}`, "x-csrf-token": csrfToken };
    const targets: Target[] = [
      { name: "GET /public/v1/products", method: "GET", path: "/public/v1/products", minShareOfFloor: 0.9 },
      { name: "POST /partner/v1/oauth/token", method: "POST", path: "/partner/v1/oauth/token", headers: { authorization: basic, "content-type": "application/x-www-form-urlencoded" }, body: "grant_type=client_credentials", minShareOfFloor: 0.6 },
      { name: "GET /partner/v1/applications?limit=100", method: "GET", path: "/partner/v1/applications?limit=100", headers: bearer, minShareOfFloor: 0.4 },
      { name: "POST /partner/v1/applications", method: "POST", path: "/partner/v1/applications", headers: bearer, body: applicationBody, freshIdempotencyKey: true, minShareOfFloor: 0.35 },
      { name: "GET /partner/v1/applications/{id}", method: "GET", path: `/partner/v1/applications/${applicationId}`, headers: bearer, minShareOfFloor: 0.65 },
      { name: "GET /partner/v1/accounts/{id}", method: "GET", path: `/partner/v1/accounts/${termAccountId}`, headers: sandboxBearer, minShareOfFloor: 0.65 },
      { name: "GET /partner/v1/accounts/{id}/transactions?limit=100", method: "GET", path: `/partner/v1/accounts/${flexAccountId}/transactions?limit=100`, headers: sandboxBearer, minShareOfFloor: 0.4 },
      { name: "POST /public/v1/mcp tools/call get_quote", method: "POST", path: "/public/v1/mcp", headers: MCP_HEADERS, body: mcpCall("get_quote", { amount: 300, term: 28 }), minShareOfFloor: 0.5 },
      { name: "POST /api/assistant/public", method: "POST", path: "/api/assistant/public", headers: assistantHeaders, body: JSON.stringify({ message: "How much can I borrow with a business loan?" }), minShareOfFloor: 0.5 },
      // The site's pages: rendered once per content version and replayed by our HTTP server with a fresh nonce
      // (lib/pages/page-replay.ts), so after the first view each is a copy of the stored page and its headers.
      { name: "GET / (home page)", method: "GET", path: "/", minShareOfFloor: 0.9 },
      { name: "GET /products (products page)", method: "GET", path: "/products", minShareOfFloor: 0.9 },
      { name: "POST /partner/v1/mcp tools/call loan_status", method: "POST", path: "/partner/v1/mcp", headers: { ...sandboxBearer, ...MCP_HEADERS }, body: mcpCall("loan_status", { account_id: termAccountId }), minShareOfFloor: 0.5 },
    ];
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
    await embedded?.stop();
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
