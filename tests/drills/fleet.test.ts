// Drill: the platform as a fleet. Three production processes (`npm start`'s entry, scripts/serve.ts start, on the
// production build in .next) serve one PostgreSQL database and one Redis, each on its own port, and the test spreads
// its requests over them in turn. What the design promises of several stateless processes is shown with numbers:
// one project's rate-limit bucket holds across the fleet (and, without Redis, each process limits alone); one
// Idempotency-Key makes one application whichever processes its retries reach; a key revoked through one process
// is refused by the others at once (LISTEN/NOTIFY, lib/change-feed.ts); background work claimed by whichever
// process is done exactly once, and a webhook receiver counts one request per recorded attempt; a process killed
// mid-load loses nothing (its claims lapse and the others take them); a test clock advanced through one process is
// every process's time for that project; and a process told to stop (SIGTERM) finishes its requests in flight,
// refuses new connections and gives its claims back at once.
//
// The tests of this file run in order on one fleet: the kill and the stop come last, each leaving one process fewer.
// The drill needs the production build: `npm test` runs the drills once its build is done (scripts/test-all.ts);
// run alone, it builds first when .next/BUILD_ID is missing.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { generateKeyPairSync, randomUUID } from "node:crypto";
import { once } from "node:events";
import { existsSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import net, { type AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { MemoryRateLimitStore } from "@/lib/ratelimit/memory-store";
import { TIER_LIMITS, projectBucketPolicy } from "@/lib/ratelimit/policies";
import { RateLimiter } from "@/lib/ratelimit/limiter";
import { DELIVERY_TIMEOUT_MS } from "@/lib/webhooks/deliver";
import { eventually } from "../helpers/eventually";
import { freePort } from "../helpers/free-port";
import { jsonRequest } from "../helpers/http";
import { bearer, createTestProject, mintToken, requestToken } from "../helpers/partner";
import { redisAnswers, REDIS_URL } from "../helpers/redis";
import { trustedTestCertificate } from "../helpers/tls";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const FLEET_SIZE = 3;
/**
 * The webhook claim lease of the fleet (WEBHOOK_CLAIM_SECONDS): short, so a killed process's claims lapse soon, and
 * longer than an attempt may take (DELIVERY_TIMEOUT_MS), so no attempt still under way is ever claimed again.
 */
const CLAIM_SECONDS = DELIVERY_TIMEOUT_MS / 1000 + 2;
/** The sandbox bucket: 10 a second, a burst of 50 (lib/ratelimit/policies.ts, the build tier). */
const SANDBOX = TIER_LIMITS.build;
/**
 * What the shared bucket may admit beyond its policy over a run: the bucket refills whole seconds at a time, so a
 * run that straddles one more refill than its length in seconds suggests admits one more second's rate.
 */
const BUCKET_SLACK = SANDBOX.ratePerSecond;

// One origin for the whole fleet, as behind its load balancer: tokens name it as their issuer and audience. The test
// mints tokens for it with the fleet's signing key.
const ORIGIN = "http://lending.fleet.test";
process.env.BASE_URL = ORIGIN;
process.env.OAUTH_SIGNING_KEY = JSON.stringify({ ...generateKeyPairSync("ed25519").privateKey.export({ format: "jwk" }), kid: "hub-oauth-ed25519" });

interface FleetProcess {
  url: string;
  port: number;
  child: ChildProcess;
}

/** The production build the processes serve: built here when missing (npm test has built it before the drills). */
function ensureProductionBuild(): void {
  if (existsSync(path.join(ROOT, ".next", "BUILD_ID"))) return;
  console.log("fleet drill: no production build in .next; running `next build` first");
  const built = spawnSync(path.join(ROOT, "node_modules", ".bin", "next"), ["build"], { cwd: ROOT, env: { ...process.env, NODE_ENV: "production" }, stdio: "inherit" });
  if (built.status !== 0) throw new Error("fleet drill: `next build` failed; the drill needs a production build in .next");
}

async function startProcess(name: string): Promise<FleetProcess> {
  const port = await freePort();
  let output = "";
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts", "serve.ts"), "start"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      BASE_URL: ORIGIN,
      REDIS_URL,
      AUTH_SECRET: Buffer.alloc(32, "fleet-drill-auth-secret").toString("base64"),
      OAUTH_KEY_ENCRYPTION_KEY: Buffer.alloc(32, "fleet-drill-sealing-key").toString("base64"),
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      WEBHOOK_CLAIM_SECONDS: String(CLAIM_SECONDS),
      SHUTDOWN_GRACE_SECONDS: "10",
      DATABASE_POOL_SIZE: "5",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  await eventually(
    async () => ({ ready: output.includes("Ready on"), exited: child.exitCode !== null }),
    ({ ready, exited }) => {
      if (exited) throw new Error(`fleet process ${name} exited as it started:\n${output}`);
      return ready;
    },
    { timeoutMs: 120_000 },
  );
  return { url: `http://127.0.0.1:${port}`, port, child };
}

/** A webhook receiver on 127.0.0.1 (https, the run's certificate) that counts what arrives and can hold its answers. */
class Receiver {
  readonly arrivals: Array<{ path: string; eventId: string; at: number; clientPort: number; cutOff: boolean }> = [];
  private holding = false;
  private held: Array<{ path: string; clientPort: number; answer: () => void; open: () => boolean }> = [];
  private readonly server = https.createServer(trustedTestCertificate(), (request, response) => {
    const arrival = { path: request.url ?? "", eventId: String(request.headers["service-event-id"]), at: Date.now(), clientPort: request.socket.remotePort!, cutOff: false };
    this.arrivals.push(arrival);
    response.on("close", () => (arrival.cutOff = !response.writableFinished));
    request.resume();
    request.on("end", () => {
      const answer = () => void (response.destroyed || response.writeHead(200).end("ok"));
      if (this.holding) this.held.push({ path: arrival.path, clientPort: arrival.clientPort, answer, open: () => !response.destroyed });
      else answer();
    });
  });
  url = "";

  async start(): Promise<void> {
    this.server.listen(0, "127.0.0.1");
    await once(this.server, "listening");
    this.url = `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  hold(): void {
    this.holding = true;
  }

  /** Answers what it holds, and from now on at once. */
  answer(): void {
    this.holding = false;
    for (const { answer } of this.held.splice(0)) answer();
  }

  /** Answers the held requests of connections `answerNow` picks (by the client's port), and holds on. */
  answerSome(answerNow: (clientPort: number) => boolean): void {
    const kept = this.held.filter(({ clientPort }) => !answerNow(clientPort));
    for (const { clientPort, answer } of this.held) if (answerNow(clientPort)) answer();
    this.held = kept;
  }

  /** Requests held whose path starts with `prefix` and whose sender still waits for the answer. */
  heldCount(prefix: string): number {
    return this.held.filter(({ path, open }) => path.startsWith(prefix) && open()).length;
  }

  close(): void {
    this.server.closeAllConnections();
    this.server.close();
  }
}

/** The process holding the client end of a connection to the receiver, by its local port (`ss`, iproute2). */
function ownerOfConnection(clientPort: number): number | null {
  const listed = spawnSync("ss", ["-Htnp", "state", "established", `( sport = :${clientPort} )`], { encoding: "utf8" });
  if (listed.error) throw new Error(`fleet drill: \`ss\` (iproute2) is needed to tell which process holds a connection: ${listed.error.message}`);
  const pid = /pid=(\d+)/.exec(listed.stdout);
  return pid ? Number(pid[1]) : null;
}

let fleet: FleetProcess[];
let receiver: Receiver;
let turn = 0;
/** The live processes, taken in turn. */
const next = () => {
  const alive = fleet.filter((member) => member.child.exitCode === null && member.child.signalCode === null);
  return alive[turn++ % alive.length]!;
};

describe("a fleet of three processes over one PostgreSQL and one Redis", () => {
  beforeAll(async () => {
    const redis = await redisAnswers();
    if (!redis) throw new Error(`fleet drill: no Redis answers at ${REDIS_URL}; start one or point REDIS_URL at one`);
    redis.disconnect();
    ensureProductionBuild();
    receiver = new Receiver();
    await receiver.start();
    fleet = await Promise.all(Array.from({ length: FLEET_SIZE }, (_, index) => startProcess(String.fromCharCode(65 + index))));
    // A process loads each route's code on its first request: load the drill's routes once in each before measuring.
    const { token } = await partner();
    await Promise.all(
      fleet.map(async (member) => {
        expect((await call(member, token, "GET", "/keys")).status).toBe(200);
        await createAndSubmit(token, () => member);
      }),
    );
  }, 300_000);
  afterAll(async () => {
    for (const member of fleet ?? []) if (member.child.exitCode === null && member.child.signalCode === null) member.child.kill("SIGKILL");
    receiver?.close();
  });

  /** A fresh sandbox project (a bucket of its own) and a token for it. */
  async function partner() {
    const project = await createTestProject();
    return { project, token: await mintToken(fleet[0]!.url, project) };
  }

  const call = (member: FleetProcess, token: string, method: string, route: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${member.url}/partner/v1${route}`, bearer(token, body === undefined ? { method, headers } : jsonRequest(method, body, headers)));

  const APPLICATION = { business: { company_number: "12345678" }, amount_pence: 2_500_000, term_months: 12, applicant: { email: "director@example.co.uk" } };

  /** Creates an application, retrying while the project's create limit (5 a second) refuses it, as an integrator does. */
  async function create(token: string, pick: () => FleetProcess = next): Promise<string> {
    const headers = { "Idempotency-Key": `fleet-drill-${randomUUID()}` };
    const created = await eventually(
      async () => {
        const answer = await call(pick(), token, "POST", "/applications", APPLICATION, headers);
        return { status: answer.status, body: await answer.text() };
      },
      ({ status }) => status !== 429,
      { timeoutMs: 10_000 },
    );
    expect(created.status).toBe(201);
    return (JSON.parse(created.body) as { id: string }).id;
  }

  async function submit(token: string, id: string, pick: () => FleetProcess = next): Promise<void> {
    expect((await call(pick(), token, "POST", `/test_helpers/applications/${id}/submit`)).status).toBe(200);
  }

  async function createAndSubmit(token: string, pick: () => FleetProcess = next): Promise<string> {
    const id = await create(token, pick);
    await submit(token, id, pick);
    return id;
  }

  async function registerEndpoint(token: string, label: string): Promise<void> {
    const registered = await call(next(), token, "POST", "/webhook_endpoints", { url: `${receiver.url}/${label}`, enabled_events: ["*"] });
    expect(registered.status).toBe(201);
  }

  /** decision.completed events per application of `applicationIds`. */
  async function decisionsPerApplication(applicationIds: string[]): Promise<number[]> {
    const rows = await db().$queryRaw<{ application_id: string; count: bigint }[]>`
      SELECT object->>'application_id' AS application_id, count(*) AS count FROM events
      WHERE type = 'decision.completed' AND object->>'application_id' = ANY(${applicationIds}) GROUP BY 1`;
    const counts = new Map(rows.map((row) => [row.application_id, Number(row.count)]));
    return applicationIds.map((id) => counts.get(id) ?? 0);
  }

  async function deliveriesOf(projectIds: string[]) {
    return db().webhookDelivery.findMany({
      where: { projectId: { in: projectIds } },
      select: { id: true, eventId: true, status: true, attemptCount: true, lockedUntil: true, endpoint: { select: { url: true } } },
    });
  }

  /** Waits until the projects have `count` deliveries, all succeeded; a timeout names the ones that have not. */
  async function allDelivered(projectIds: string[], count: number, timeoutMs: number) {
    const rows = await eventually(
      async () => {
        const rows = await deliveriesOf(projectIds);
        return { rows, total: rows.length, unfinished: rows.filter((row) => row.status !== "succeeded").map(({ endpoint, ...row }) => row) };
      },
      ({ total, unfinished }) => total === count && unfinished.length === 0,
      { timeoutMs },
    ).catch((error: Error) => {
      throw new Error(error.message.replace(/"rows":\[.*?\],"total"/, '"total"'));
    });
    return rows.rows;
  }

  /** Receiver arrivals per delivery, keyed as `<endpoint path> <event id>`. */
  function arrivalsByDelivery(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const arrival of receiver.arrivals) counts.set(`${arrival.path} ${arrival.eventId}`, (counts.get(`${arrival.path} ${arrival.eventId}`) ?? 0) + 1);
    return counts;
  }
  const deliveryKey = (delivery: { eventId: string; endpoint: { url: string } }) => `${new URL(delivery.endpoint.url).pathname} ${delivery.eventId}`;

  it("keeps one project's bucket across the fleet: the admitted count is the policy's, not three times it", async () => {
    const { token } = await partner();
    const counts = { admitted: 0, limited: 0, other: 0 };
    const offered = () => counts.admitted + counts.limited + counts.other;
    const started = performance.now();
    // At least 2.5 s, and until twice three bursts have been offered, however slow the machine: three buckets of
    // their own would have admitted each of the first three bursts.
    const enough = () => performance.now() - started >= 2_500 && offered() >= 2 * FLEET_SIZE * SANDBOX.burst;
    // Six at a time, under the sandbox's ten concurrent requests, so every refusal is the bucket's.
    const worker = async () => {
      while (!enough() && performance.now() - started < 30_000) {
        const response = await call(next(), token, "GET", "/keys");
        await response.arrayBuffer();
        if (response.status === 200) counts.admitted += 1;
        else if (response.status === 429) counts.limited += 1;
        else counts.other += 1;
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));
    const seconds = (performance.now() - started) / 1000;
    const policyAllows = SANDBOX.burst + SANDBOX.ratePerSecond * Math.ceil(seconds);
    console.log(`fleet drill, shared bucket: ${counts.admitted} admitted and ${counts.limited} limited over ${seconds.toFixed(2)} s across ${FLEET_SIZE} processes (policy allows ${policyAllows}, slack ${BUCKET_SLACK})`);
    expect(counts.other).toBe(0);
    // What was offered is more than one shared bucket allows and less than three buckets of their own would admit.
    expect(policyAllows + BUCKET_SLACK).toBeLessThan(Math.min(offered(), FLEET_SIZE * policyAllows));
    expect(counts.admitted).toBeGreaterThanOrEqual(SANDBOX.burst);
    expect(counts.admitted).toBeLessThanOrEqual(policyAllows + BUCKET_SLACK);
  });

  it("without Redis each process limits alone: a fleet of three admits three bursts at once", async () => {
    // Each process's in-process limiter (what a process without REDIS_URL, or with Redis down, uses).
    const policy = projectBucketPolicy(SANDBOX);
    const processes = Array.from({ length: FLEET_SIZE }, () => new RateLimiter(new MemoryRateLimitStore()));
    let admitted = 0;
    for (let request = 0; request < 300; request += 1) if ((await processes[request % FLEET_SIZE]!.limit(policy, "proj_alone")).allowed) admitted += 1;
    expect(admitted).toBe(FLEET_SIZE * SANDBOX.burst);
  });

  it("makes one application of 20 concurrent creates with one Idempotency-Key, every answer equal", async () => {
    const { project, token } = await partner();
    const headers = { "Idempotency-Key": "fleet-drill-create-1" };
    const statuses: number[] = [];
    // Each client retries what the key's first request is still making (409 idempotency_key_in_progress) and a
    // full concurrency slot (429), as integrators do, until it has the key's answer.
    const answers = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const member = next();
        const response = await eventually(
          async () => {
            const answer = await call(member, token, "POST", "/applications", APPLICATION, headers);
            statuses.push(answer.status);
            return { status: answer.status, body: await answer.text() };
          },
          ({ status }) => status !== 409 && status !== 429,
          { timeoutMs: 20_000 },
        );
        return response;
      }),
    );
    console.log(`fleet drill, idempotency: ${statuses.length} requests (${statuses.filter((status) => status === 409).length} told in progress, ${statuses.filter((status) => status === 429).length} limited)`);
    expect(new Set(answers.map(({ status }) => status))).toEqual(new Set([201]));
    expect(new Set(answers.map(({ body }) => body)).size).toBe(1);
    const { id } = JSON.parse(answers[0]!.body) as { id: string };
    expect(await db().application.findMany({ where: { projectId: project.project_id }, select: { id: true } })).toEqual([{ id }]);
  });

  it("refuses a key revoked through one process on the others' next requests, within a second, without a restart", async () => {
    const { project, token } = await partner();
    // Each process has authenticated the key, so each holds it in its cache.
    for (const member of fleet) expect((await requestToken(member.url, project)).status).toBe(200);
    const keys = (await (await call(fleet[0]!, token, "GET", "/keys?type=secret")).json()) as { data: Array<{ id: string }> };
    expect((await call(fleet[0]!, token, "DELETE", `/keys/${keys.data[0]!.id}`)).status).toBe(200);
    const revokedAt = performance.now();
    for (const member of fleet.slice(1)) {
      await eventually(
        async () => {
          const response = await requestToken(member.url, project);
          return { status: response.status, error: ((await response.json()) as { error?: string }).error };
        },
        (answer) => answer.status === 401 && answer.error === "key_revoked",
        { timeoutMs: 1_000 },
      );
    }
    console.log(`fleet drill, revocation: refused by both other processes ${(performance.now() - revokedAt).toFixed(0)} ms after the revoke`);
  });

  it("gives every process a test clock advanced through one of them, at once", async () => {
    const { token } = await partner();
    const createdAt = async (member: FleetProcess) => {
      const response = await call(member, token, "POST", "/applications", APPLICATION);
      expect(response.status).toBe(201);
      return new Date(((await response.json()) as { created_at: string }).created_at).getTime();
    };
    // The other two have read the project's clock (real time) before the advance.
    for (const member of fleet.slice(1)) expect(Math.abs((await createdAt(member)) - Date.now())).toBeLessThan(60_000);
    const advanced = await call(fleet[0]!, token, "POST", "/test_helpers/clock/advance", { days: 10 });
    expect(advanced.status).toBe(200);
    const tenDays = 10 * 86_400_000;
    for (const member of fleet.slice(1)) expect(Math.abs((await createdAt(member)) - Date.now() - tenDays)).toBeLessThan(60_000);
  });

  it("decides 100 applications submitted across the fleet exactly once each, and delivers each event once per attempt", async () => {
    // Twenty projects of five, so no project's create limit (5 a second) slows the load.
    const partners = await Promise.all(Array.from({ length: 20 }, () => partner()));
    for (const [index, { token }] of partners.entries()) await registerEndpoint(token, `exactly-once-${index}`);
    const started = performance.now();
    const applicationIds = (
      await Promise.all(
        partners.map(async ({ token }) => {
          const ids: string[] = [];
          for (let count = 0; count < 5; count += 1) ids.push(await createAndSubmit(token));
          return ids;
        }),
      )
    ).flat();
    expect(applicationIds).toHaveLength(100);
    const decided = await eventually(() => decisionsPerApplication(applicationIds), (counts) => counts.every((count) => count >= 1), { timeoutMs: 30_000 });
    expect(decided).toEqual(Array(100).fill(1));
    const projectIds = partners.map(({ project }) => project.project_id);
    // Three events an application (created, submitted, decision.completed), one endpoint a project.
    const delivered = await allDelivered(projectIds, 300, 30_000);
    console.log(`fleet drill, exactly once: 100 applications decided and 300 webhook deliveries made in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const arrivals = arrivalsByDelivery();
    expect(delivered.map((row) => arrivals.get(deliveryKey(row)))).toEqual(Array(300).fill(1));
    expect(delivered.map((row) => row.attemptCount)).toEqual(Array(300).fill(1));
    expect(await decisionsPerApplication(applicationIds)).toEqual(Array(100).fill(1));
  }, 90_000);

  it("loses nothing when a process is killed mid-load: the others serve on and take its claims once they lapse", async () => {
    const partners = await Promise.all(Array.from({ length: 4 }, () => partner()));
    for (const [index, { token }] of partners.entries()) await registerEndpoint(token, `killed-${index}`);
    receiver.hold();
    const before = receiver.arrivals.length;
    // Four creates a project at once: four events an endpoint, soon its four attempts in flight, held by the
    // receiver (each within the attempt's timeout): find a process holding some, and kill it.
    const firstHalf = (await Promise.all(partners.map(({ token }) => Promise.all(Array.from({ length: 4 }, () => create(token)))))).flat();
    await eventually(async () => receiver.heldCount("/killed"), (count) => count === 16, { timeoutMs: 15_000 });
    const held = receiver.arrivals.slice(before).filter((arrival) => arrival.path.startsWith("/killed"));
    const owners = new Map(held.map((arrival) => [arrival, ownerOfConnection(arrival.clientPort)]));
    const victim = fleet.find((member) => [...owners.values()].includes(member.child.pid!));
    expect(victim).toBeDefined();
    victim!.child.kill("SIGKILL");
    await once(victim!.child, "exit");
    const killedAt = Date.now();
    const lost = held.filter((arrival) => owners.get(arrival) === victim!.child.pid);
    // The survivors' attempts are answered well within their claims (a held attempt must not outlive its claim).
    receiver.answer();

    // The others keep serving: the rest of the load goes to them, every request answered.
    const accepted = [...firstHalf];
    await Promise.all(partners.map(async ({ token }, index) => {
      for (const id of firstHalf.slice(index * 4, index * 4 + 4)) await submit(token, id);
      for (let count = 0; count < 2; count += 1) accepted.push(await createAndSubmit(token));
    }));

    const projectIds = partners.map(({ project }) => project.project_id);
    expect(await db().application.count({ where: { id: { in: accepted } } })).toBe(accepted.length);
    await eventually(() => decisionsPerApplication(accepted), (counts) => counts.every((count) => count >= 1), { timeoutMs: 30_000 });
    const expected = accepted.length * 3;
    const delivered = await allDelivered(projectIds, expected, 30_000 + CLAIM_SECONDS * 1000);
    console.log(
      `fleet drill, killed process: ${accepted.length} creates accepted, ${lost.length} attempts lost in flight with the process and made again by the others ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill (claim ${CLAIM_SECONDS} s)`,
    );
    expect(lost.length).toBeGreaterThan(0);
    expect(await decisionsPerApplication(accepted)).toEqual(Array(accepted.length).fill(1));
    // Once per recorded attempt, and once more for each attempt the killed process had under way.
    const arrivals = arrivalsByDelivery();
    const lostKeys = new Set(lost.map((arrival) => `${arrival.path} ${arrival.eventId}`));
    for (const row of delivered) expect(arrivals.get(deliveryKey(row))).toBe(row.attemptCount + (lostKeys.has(deliveryKey(row)) ? 1 : 0));
    // A lost attempt was made again only once its claim had lapsed.
    const retried = await db().webhookAttempt.findMany({ where: { deliveryId: { in: delivered.filter((row) => lostKeys.has(deliveryKey(row))).map((row) => row.id) } } });
    const firstSent = new Map(lost.map((arrival) => [arrival.eventId, arrival.at]));
    for (const attempt of retried) expect(attempt.attemptedAt.getTime() - firstSent.get(attempt.eventId)!).toBeGreaterThanOrEqual(CLAIM_SECONDS * 1000 - 1_000);
  }, 120_000);

  it("stops gracefully on SIGTERM: finishes the request in flight, refuses new connections, gives its claims back at once", async () => {
    const { token } = await partner();
    await registerEndpoint(token, "graceful");
    receiver.hold();
    const before = receiver.arrivals.length;
    // Five events at once: four attempts in flight, held.
    await Promise.all(Array.from({ length: 5 }, () => create(token)));
    await eventually(async () => receiver.heldCount("/graceful"), (count) => count === 4, { timeoutMs: 15_000 });
    const held = receiver.arrivals.slice(before).filter((arrival) => arrival.path.startsWith("/graceful"));
    const owners = new Map(held.map((arrival) => [arrival, ownerOfConnection(arrival.clientPort)]));
    const alive = fleet.filter((member) => member.child.exitCode === null && member.child.signalCode === null);
    expect(alive).toHaveLength(2);
    const stopping = alive.find((member) => [...owners.values()].includes(member.child.pid!))!;
    expect(stopping).toBeDefined();
    const released = held.filter((arrival) => owners.get(arrival) === stopping.child.pid);
    // The other process's attempts are answered now, well within their claims; the stopping one's stay held.
    const stoppingPorts = new Set(released.map((arrival) => arrival.clientPort));
    receiver.answerSome((clientPort) => !stoppingPorts.has(clientPort));

    // A slow request: its headers are in (the server has answered 100-continue), its body not yet.
    const { project: slowProject } = await partner();
    const slowToken = await mintToken(stopping.url, slowProject);
    const body = JSON.stringify({ days: 1 });
    const slow = http.request(`${stopping.url}/partner/v1/test_helpers/clock/advance`, {
      method: "POST",
      agent: false,
      headers: { authorization: `Bearer ${slowToken}`, "content-type": "application/json", "content-length": Buffer.byteLength(body), expect: "100-continue" },
    });
    const answered = new Promise<number>((resolve, reject) => {
      slow.on("response", (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode!));
      });
      slow.on("error", reject);
    });
    await once(slow, "continue");
    slow.write(body.slice(0, 4));

    const exited = once(stopping.child, "exit");
    stopping.child.kill("SIGTERM");
    await eventually(
      () => new Promise<string>((resolve) => net.connect(stopping.port, "127.0.0.1").on("connect", function (this: net.Socket) { this.destroy(); resolve("accepted"); }).on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"))),
      (outcome) => outcome === "ECONNREFUSED",
    );
    slow.end(body.slice(4));
    expect(await answered).toBe(200);
    const [code] = await exited;
    const exitedAt = Date.now();
    expect(code).toBe(0);

    // The attempts it held are free at once: the other process makes them well before their claims would lapse.
    receiver.answer();
    const releasedIds = released.map((arrival) => arrival.eventId);
    const attempts = await eventually(
      () => db().webhookAttempt.findMany({ where: { eventId: { in: releasedIds }, succeeded: true } }),
      (rows) => rows.length === releasedIds.length,
      { timeoutMs: CLAIM_SECONDS * 1000 },
    );
    console.log(`fleet drill, graceful stop: ${released.length} claims given back; made by the other process ${((Date.now() - exitedAt) / 1000).toFixed(1)} s after the exit (claim ${CLAIM_SECONDS} s)`);
    const firstSent = new Map(released.map((arrival) => [arrival.eventId, arrival.at]));
    for (const attempt of attempts) expect(attempt.attemptedAt.getTime() - firstSent.get(attempt.eventId)!).toBeLessThan(CLAIM_SECONDS * 1000);
  }, 60_000);
});
