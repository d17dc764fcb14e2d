// What `npm run bench` (scripts/bench.ts) and `npm run soak` (scripts/soak.ts) share: the bench's database, the
// production server as `npm start` runs it, the data its routes read, and the mix of routes itself, so the soak
// drives exactly the bench's requests.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { applyMigrations, BENCH_DATABASE, databaseUrl, recreateDatabase, startEmbeddedPostgres } from "./database";

const ROOT = path.resolve(import.meta.dirname, "..");

/** An MCP client's POST: JSON-RPC, after `initialize`, on revision 2025-06-18. */
export const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };
export const mcpCall = (name: string, args: Record<string, unknown>) => JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });

export interface Target {
  name: string;
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** A fresh Idempotency-Key on every request. */
  freshIdempotencyKey?: boolean;
  /** Served by Next's router whichever way the API is served (the site's pages): budgeted as a share of Next's floor. */
  page?: boolean;
  /** Budget (scripts/bench.ts): for an API row, served directly at least this many times its rate through Next; for a page, at least this share of Next's floor. */
  budget?: number;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
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

export function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: "inherit" });
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} exited ${code}`))));
  });
}

/** The pids of a process and all its descendants (Linux /proc). */
export function processTree(rootPid: number): number[] {
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
export function rssMb(pids: readonly number[]): number {
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

/**
 * The environment and node arguments of `npm start`, read from package.json so the bench runs exactly what
 * production runs (its allocator setting and V8 heap flags included), as one process: `npm` itself would add a
 * process to the memory figure.
 */
export function npmStartCommand(): { env: Record<string, string>; args: string[] } {
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

export function buildIsStale(): boolean {
  const buildId = path.join(ROOT, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return true;
  const sources = ["app", "lib", "inngest"].map((directory) => newestModification(path.join(ROOT, directory)));
  const configuration = ["next.config.mjs", "package.json"].map((file) => statSync(path.join(ROOT, file)).mtimeMs);
  return Math.max(...sources, ...configuration) > statSync(buildId).mtimeMs;
}

/**
 * A fresh database `name` (on DATABASE_URL's server, or an embedded one), migrated; DATABASE_URL is pointed at it.
 */
export async function prepareBenchDatabase(name: string = BENCH_DATABASE.name): Promise<{ url: string; stop: () => Promise<void> }> {
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
  await recreateDatabase(serverUrl, name);
  const url = databaseUrl(serverUrl, name);
  await applyMigrations(url);
  process.env.DATABASE_URL = url;
  return { url, stop: async () => embedded?.stop() };
}

/** The production server's environment beyond `npm start`'s own: limits raised so they never refuse. */
export function benchServerEnv(url: string, port: number, baseUrl: string): Record<string, string> {
  return {
    DATABASE_URL: url,
    PORT: String(port),
    HOSTNAME: "127.0.0.1",
    BASE_URL: baseUrl,
    OAUTH_KEY_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    AUTH_SECRET: randomBytes(32).toString("base64"),
    LOG_LEVEL: "warn",
    RATE_LIMIT_SCALE: "100000",
    NEXT_TELEMETRY_DISABLED: "1",
  };
}

/** What the bench's routes read: a live project on the platform tier, tokens, and 100 applications to list and read. */
export async function seedBenchData(baseUrl: string) {
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

  return { basic, bearer, sandboxBearer, applicationBody, applicationId, termAccountId, flexAccountId, products };
}

export type BenchData = Awaited<ReturnType<typeof seedBenchData>>;

/** The bench's hot paths: the mix of routes it measures one by one, and the soak sends in turn. */
export function benchTargets({ basic, bearer, sandboxBearer, applicationBody, applicationId, termAccountId, flexAccountId }: BenchData): Target[] {
  // The site assistant's caller echoes its page's svc_csrf cookie (lib/wire/csrf.ts).
  const csrfToken = randomBytes(32).toString("base64url");
  const assistantHeaders = { "content-type": "application/json", cookie: `svc_csrf=${csrfToken}`, "x-csrf-token": csrfToken };
  const targets: Target[] = [
    { name: "GET /public/v1/products", method: "GET", path: "/public/v1/products", budget: 3 },
    { name: "POST /partner/v1/oauth/token", method: "POST", path: "/partner/v1/oauth/token", headers: { authorization: basic, "content-type": "application/x-www-form-urlencoded" }, body: "grant_type=client_credentials", budget: 1.5 },
    { name: "GET /partner/v1/applications?limit=100", method: "GET", path: "/partner/v1/applications?limit=100", headers: bearer, budget: 1.5 },
    { name: "POST /partner/v1/applications", method: "POST", path: "/partner/v1/applications", headers: bearer, body: applicationBody, freshIdempotencyKey: true, budget: 1.5 },
    { name: "GET /partner/v1/applications/{id}", method: "GET", path: `/partner/v1/applications/${applicationId}`, headers: bearer, budget: 3 },
    { name: "GET /partner/v1/accounts/{id}", method: "GET", path: `/partner/v1/accounts/${termAccountId}`, headers: sandboxBearer, budget: 3 },
    { name: "GET /partner/v1/accounts/{id}/transactions?limit=100", method: "GET", path: `/partner/v1/accounts/${flexAccountId}/transactions?limit=100`, headers: sandboxBearer, budget: 3 },
    { name: "POST /public/v1/mcp tools/call get_quote", method: "POST", path: "/public/v1/mcp", headers: MCP_HEADERS, body: mcpCall("get_quote", { amount: 300, term: 28 }), budget: 3 },
    { name: "POST /api/assistant/public", method: "POST", path: "/api/assistant/public", headers: assistantHeaders, body: JSON.stringify({ message: "How much can I borrow with a business loan?" }) },
    // The site's pages: rendered once per content version and replayed by our HTTP server with a fresh nonce
    // (lib/pages/page-replay.ts), so after the first view each is a copy of the stored page and its headers.
    { name: "GET / (home page)", method: "GET", path: "/", page: true, budget: 0.9 },
    { name: "GET /products (products page)", method: "GET", path: "/products", page: true, budget: 0.9 },
    { name: "POST /partner/v1/mcp tools/call loan_status", method: "POST", path: "/partner/v1/mcp", headers: { ...sandboxBearer, ...MCP_HEADERS }, body: mcpCall("loan_status", { account_id: termAccountId }), budget: 3 },
  ];
  return targets;
}
