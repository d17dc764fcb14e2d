// `npm run soak [-- --minutes N] [-- --rate R] [-- --warm-up-requests W] [-- --warm-up-rate V]`: one production
// process (as `npm start` runs it, on the bench's database and data) under the bench's mix of routes: first a
// warm-up of W requests (default 30,000) at V a second (default 100), then a steady R requests a second (default 20,
// far under what it serves) for N minutes (default 30), the measured part. Every few seconds it samples the
// server's resident memory (/proc, the whole process tree), its V8 heap and its event-loop delay (GET
// /healthz/internal, operator-only). The warm-up is counted in requests because that is how V8 warms up: code is
// optimised, and the allocator's high-water mark set, after so many calls, not after so many minutes (at 20 a
// second the first 25,000 requests took 21 minutes; docs/performance.md, "Soak"). After the warm-up it reports the memory slope in MB per hour (budget: under 5), the failed requests (budget: none) and the p99 of the
// first and the last quarter (budget: the last no worse than 1.5 times the first, or 10 ms), prints the samples and
// an ASCII plot of RSS over time, and exits 1 when a budget is missed. Not part of `npm test`: run it on a quiet machine.
import "./require-node";
import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import { parseArgs } from "node:util";
import { benchServerEnv, benchTargets, buildIsStale, freePort, npmStartCommand, prepareBenchDatabase, processTree, rssMb, run, seedBenchData, waitForHttp, type Target } from "./bench-fixtures";
import { BENCH_DATABASE } from "./database";
import type { ProcessStats } from "../lib/health/process-stats";

const ROOT = path.resolve(import.meta.dirname, "..");
const SAMPLE_EVERY_MS = 5_000;
/** Budgets, after the warm-up. */
const MAX_SLOPE_MB_PER_HOUR = 5;
const MAX_P99_GROWTH = 1.5;
const P99_NOISE_MS = 10;

const { values: flags } = parseArgs({
  options: {
    minutes: { type: "string", default: "30" },
    rate: { type: "string", default: "20" },
    "warm-up-requests": { type: "string", default: "30000" },
    "warm-up-rate": { type: "string", default: "100" },
  },
});
const MINUTES = Number(flags.minutes);
const RATE = Number(flags.rate);
const WARM_UP_REQUESTS = Number(flags["warm-up-requests"]);
const WARM_UP_RATE = Number(flags["warm-up-rate"]);

interface Sample {
  atMs: number;
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
  eventLoopP99Ms: number;
  requests: number;
  failures: number;
  p99Ms: number;
}

interface Answered {
  atMs: number;
  latencyMs: number;
  ok: boolean;
}

const percentile = (values: number[], share: number) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;
};

/** Least-squares slope of `y` over `x`. */
function slope(points: Array<{ x: number; y: number }>): number {
  const n = points.length;
  if (n < 2) return 0;
  const meanX = points.reduce((sum, point) => sum + point.x, 0) / n;
  const meanY = points.reduce((sum, point) => sum + point.y, 0) / n;
  const covariance = points.reduce((sum, point) => sum + (point.x - meanX) * (point.y - meanY), 0);
  const variance = points.reduce((sum, point) => sum + (point.x - meanX) ** 2, 0);
  return variance === 0 ? 0 : covariance / variance;
}

/** RSS over time as rows of text: time runs left to right, memory bottom to top. */
function asciiPlot(samples: Sample[], width = 60, height = 12): string {
  if (samples.length === 0) return "";
  const values = samples.map((sample) => sample.rssMb);
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = high - low || 1;
  const columns = Array.from({ length: Math.min(width, samples.length) }, (_, column) => {
    const index = Math.round((column * (samples.length - 1)) / Math.max(1, Math.min(width, samples.length) - 1));
    return Math.round(((values[index]! - low) / span) * (height - 1));
  });
  const rows: string[] = [];
  for (let row = height - 1; row >= 0; row -= 1) {
    const label = row === height - 1 ? `${high.toFixed(0)} MB` : row === 0 ? `${low.toFixed(0)} MB` : "";
    rows.push(`${label.padStart(8)} |${columns.map((level) => (level === row ? "*" : level > row ? "." : " ")).join("")}`);
  }
  const minutes = (samples.at(-1)!.atMs / 60_000).toFixed(1);
  rows.push(`${" ".repeat(8)} +${"-".repeat(columns.length)}`);
  rows.push(`${" ".repeat(10)}0${`${minutes} min`.padStart(columns.length - 1)}`);
  return rows.join("\n");
}

function requestInit(target: Target): RequestInit {
  const headers: Record<string, string> = { ...(target.body ? { "content-type": "application/json" } : {}), ...target.headers };
  if (target.freshIdempotencyKey) headers["idempotency-key"] = randomUUID();
  return { method: target.method, headers, body: target.body };
}

async function main(): Promise<boolean> {
  // A database of its own beside DATABASE_URL's (`<name>_soak`), so a soak and a bench on one server do not meet.
  const database = await prepareBenchDatabase(process.env.DATABASE_URL ? `${new URL(process.env.DATABASE_URL).pathname.slice(1)}_soak` : BENCH_DATABASE.name);
  if (buildIsStale()) await run(path.join(ROOT, "node_modules", ".bin", "next"), ["build"], { ...process.env, NODE_ENV: "production" });

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const operatorToken = randomBytes(32).toString("hex");
  const start = npmStartCommand();
  const server = spawn(process.execPath, start.args, {
    cwd: ROOT,
    env: { ...process.env, ...start.env, ...benchServerEnv(database.url, port, baseUrl), HEALTHZ_INTERNAL_TOKEN: operatorToken },
    stdio: ["ignore", "inherit", "inherit"],
  });
  try {
    await waitForHttp(`${baseUrl}/healthz`, 120_000);
    const targets = benchTargets(await seedBenchData(baseUrl));
    const internals = async () =>
      (await (await fetch(`${baseUrl}/healthz/internal`, { headers: { authorization: `Bearer ${operatorToken}` } })).json()) as {
        process: ProcessStats;
      };
    await internals(); // starts the server's event-loop delay monitor

    console.log(`Soak: ${targets.length} routes in turn; warm-up ${WARM_UP_REQUESTS} requests at ${WARM_UP_RATE}/s, then ${RATE} requests/s for ${MINUTES} min; sampling every ${SAMPLE_EVERY_MS / 1000} s`);
    const started = performance.now();
    /** When the warm-up's last request left, from `started`: the measured part starts there and lasts MINUTES. */
    let warmUpMs: number | null = null;
    const answered: Answered[] = [];
    const failures: string[] = [];
    let sent = 0;
    let inFlight = 0;
    const send = () => {
      const target = targets[sent++ % targets.length]!;
      const sentAt = performance.now();
      inFlight += 1;
      fetch(`${baseUrl}${target.path}`, requestInit(target))
        .then(async (response) => {
          await response.arrayBuffer();
          const ok = response.status >= 200 && response.status < 300;
          if (!ok && failures.length < 20) failures.push(`${target.name}: ${response.status}`);
          return ok;
        })
        .catch((error: unknown) => {
          if (failures.length < 20) failures.push(`${target.name}: ${error instanceof Error ? error.message : String(error)}`);
          return false;
        })
        .then((ok) => {
          inFlight -= 1;
          answered.push({ atMs: sentAt - started, latencyMs: performance.now() - sentAt, ok });
        });
    };
    // Open loop: requests leave on schedule whatever the answers do, so a slower server shows as latency.
    const sender = setInterval(() => {
      const elapsedMs = performance.now() - started;
      if (warmUpMs === null && sent >= WARM_UP_REQUESTS) warmUpMs = elapsedMs;
      const due = warmUpMs === null
        ? Math.min(WARM_UP_REQUESTS, Math.floor((elapsedMs / 1000) * WARM_UP_RATE)) - sent
        : WARM_UP_REQUESTS + Math.floor(((elapsedMs - warmUpMs) / 1000) * RATE) - sent;
      for (let count = 0; count < due; count += 1) send();
    }, 10);

    const samples: Sample[] = [];
    let counted = 0;
    await new Promise<void>((resolve) => {
      const sampler = setInterval(async () => {
        const atMs = performance.now() - started;
        const stats = await internals();
        const recent = answered.slice(counted);
        counted = answered.length;
        samples.push({
          atMs,
          rssMb: rssMb(processTree(server.pid!)),
          heapUsedMb: stats.process.heap_used_mb,
          heapTotalMb: stats.process.heap_total_mb,
          externalMb: stats.process.external_mb,
          eventLoopP99Ms: stats.process.event_loop_delay_ms.p99,
          requests: recent.length,
          failures: recent.filter((answer) => !answer.ok).length,
          p99Ms: percentile(recent.map((answer) => answer.latencyMs), 0.99),
        });
        const last = samples.at(-1)!;
        process.stdout.write(`\r${(atMs / 60_000).toFixed(1)} min: RSS ${last.rssMb.toFixed(0)} MB, heap ${last.heapUsedMb.toFixed(0)} MB, p99 ${last.p99Ms.toFixed(0)} ms   `);
        if (warmUpMs !== null && atMs >= warmUpMs + MINUTES * 60_000) {
          clearInterval(sampler);
          resolve();
        }
      }, SAMPLE_EVERY_MS);
    });
    clearInterval(sender);
    while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 50));

    // After the warm-up: the memory slope, the failures, and p99 of the first quarter against the last.
    const measuredFromMs = warmUpMs!;
    const steady = samples.filter((sample) => sample.atMs >= measuredFromMs);
    const slopeOf = (value: (sample: Sample) => number) => slope(steady.map((sample) => ({ x: sample.atMs / 3_600_000, y: value(sample) })));
    const slopeMbPerHour = slopeOf((sample) => sample.rssMb);
    const heapSlopeMbPerHour = slopeOf((sample) => sample.heapUsedMb);
    // Where RSS grows: V8's reserved heap, memory held by Buffers, or the rest (compiled code, native allocations).
    const partSlopes = `heap reserved ${slopeOf((sample) => sample.heapTotalMb).toFixed(1)}, external ${slopeOf((sample) => sample.externalMb).toFixed(1)}, the rest ${slopeOf((sample) => sample.rssMb - sample.heapTotalMb - sample.externalMb).toFixed(1)} MB/h`;
    const measured = answered.filter((answer) => answer.atMs >= measuredFromMs);
    const quarter = (MINUTES * 60_000) / 4;
    const firstQuarter = measured.filter((answer) => answer.atMs < measuredFromMs + quarter).map((answer) => answer.latencyMs);
    const lastQuarter = measured.filter((answer) => answer.atMs >= measuredFromMs + 3 * quarter).map((answer) => answer.latencyMs);
    const firstP99 = percentile(firstQuarter, 0.99);
    const lastP99 = percentile(lastQuarter, 0.99);
    const failed = measured.filter((answer) => !answer.ok).length;

    console.log("\n\n| min | RSS MB | heap used MB | heap reserved MB | external MB | loop delay p99 ms | requests | failed | p99 ms |\n|---|---|---|---|---|---|---|---|---|");
    for (const sample of samples) {
      console.log(`| ${(sample.atMs / 60_000).toFixed(1)} | ${sample.rssMb.toFixed(0)} | ${sample.heapUsedMb.toFixed(0)} | ${sample.heapTotalMb.toFixed(0)} | ${sample.externalMb.toFixed(0)} | ${sample.eventLoopP99Ms.toFixed(1)} | ${sample.requests} | ${sample.failures} | ${sample.p99Ms.toFixed(0)} |`);
    }
    console.log(`\nRSS over time:\n${asciiPlot(samples)}\n`);
    const budgets = [
      { met: slopeMbPerHour < MAX_SLOPE_MB_PER_HOUR, line: `RSS slope after warm-up: ${slopeMbPerHour.toFixed(1)} MB/h (heap used ${heapSlopeMbPerHour.toFixed(1)} MB/h; ${partSlopes}); budget < ${MAX_SLOPE_MB_PER_HOUR}` },
      { met: failed === 0, line: `Failed requests after warm-up: ${failed} of ${measured.length}${failures.length > 0 ? ` (${failures.slice(0, 5).join("; ")})` : ""}; budget 0` },
      {
        met: lastP99 <= Math.max(firstP99 * MAX_P99_GROWTH, firstP99 + P99_NOISE_MS),
        line: `p99 first quarter ${firstP99.toFixed(1)} ms, last quarter ${lastP99.toFixed(1)} ms; budget: last ≤ ${MAX_P99_GROWTH}× first or first + ${P99_NOISE_MS} ms`,
      },
    ];
    for (const budget of budgets) console.log(`${budget.met ? "ok  " : "MISS"} ${budget.line}`);
    return budgets.every((budget) => budget.met);
  } finally {
    server.kill("SIGTERM");
    await new Promise((resolve) => server.once("exit", resolve));
    await database.stop();
  }
}

// The exit code is set explicitly, as the bench does: the app's modules loaded here would otherwise end it with 0.
main().then(
  (met) => process.exit(met ? 0 : 1),
  (error) => {
    console.error(error instanceof Error ? error.stack : error);
    process.exit(1);
  },
);
