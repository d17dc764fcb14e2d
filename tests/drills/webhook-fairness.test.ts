// Drill: one partner's hanging receivers do not hold back another partner's webhooks. Real HTTPS receivers on
// 127.0.0.1, the real sweep (deliverDueWebhooks, as the local driver runs it) on a database of its own, so the
// sweeps see nobody else's deliveries. Also: at most MAX_IN_FLIGHT_PER_ENDPOINT attempts to one endpoint at once,
// and a delivery one run found is not sent by it while another run is sending it.
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";

import { once } from "node:events";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { afterEach, expect, it } from "vitest";
import { clock, freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { recordEvents } from "@/lib/events/events";
import { BACKGROUND_OPERATIONS } from "@/lib/background/catalogue";
import type { Tenant } from "@/lib/tenant";
import { deliverDueWebhooks, MAX_IN_FLIGHT_PER_ENDPOINT } from "@/lib/webhooks/deliver";
import { createWebhookEndpoint } from "@/lib/webhooks/service";
import { eventually } from "../helpers/eventually";
import { createTestProject } from "../helpers/partner";
import { trustedTestCertificate } from "../helpers/tls";

const T0 = new Date("2030-06-01T09:00:00.000Z");
/** How long a hanging receiver holds an attempt here, instead of the production 10 s. */
const HANG_TIMEOUT_MS = 1_500;

interface Receiver {
  url: string;
  /** When each request arrived (performance.now()), by path. */
  arrivals: { path: string; at: number }[];
  /** The most requests it held open at once, by path. */
  mostOpen: Map<string, number>;
  /** When each request it held was given up by the sender (performance.now()). */
  givenUpAt: number[];
}

const servers: https.Server[] = [];
// Each test starts with no deliveries pending (the database is this file's own).
afterEach(async () => {
  await db().webhookDelivery.deleteMany({});
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function startReceiver(behaviour: "answers" | "answers slowly" | "hangs"): Promise<Receiver> {
  const receiver: Receiver = { url: "", arrivals: [], mostOpen: new Map(), givenUpAt: [] };
  const open = new Map<string, number>();
  const server = https.createServer(trustedTestCertificate(), (request, response) => {
    const path = request.url ?? "";
    receiver.arrivals.push({ path, at: performance.now() });
    open.set(path, (open.get(path) ?? 0) + 1);
    receiver.mostOpen.set(path, Math.max(receiver.mostOpen.get(path) ?? 0, open.get(path)!));
    response.on("close", () => {
      open.set(path, open.get(path)! - 1);
      if (!response.writableEnded) receiver.givenUpAt.push(performance.now());
    });
    request.resume();
    if (behaviour === "answers") request.on("end", () => response.writeHead(200).end("ok"));
    if (behaviour === "answers slowly") request.on("end", () => setTimeout(() => response.writeHead(200).end("ok"), 500));
  });
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  receiver.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}

async function partner(): Promise<Tenant> {
  const project = await createTestProject();
  return { projectId: project.project_id, environment: "sandbox" };
}

async function recordEventsFor(tenant: Tenant, count: number, createdAt: Date): Promise<string[]> {
  return db().$transaction((transaction) =>
    recordEvents(transaction, Array.from({ length: count }, (_, index) => ({ ...tenant, type: "application.created" as const, object: { id: `app_${index}` }, createdAt }))),
  );
}

it("starts another project's delivery in the first wave while 16 of one project's endpoints hang", async () => {
  const time = freezeClock(T0);
  const hanging = await startReceiver("hangs");
  const answering = await startReceiver("answers");
  const busy = await partner();
  for (let index = 0; index < 16; index += 1) await createWebhookEndpoint({ tenant: busy, input: { url: `${hanging.url}/dead-${index}`, enabled_events: ["*"] } });
  await recordEventsFor(busy, 3, T0); // 48 deliveries, all due first
  const other = await partner();
  await createWebhookEndpoint({ tenant: other, input: { url: `${answering.url}/other`, enabled_events: ["*"] } });
  time.advance(1_000);
  await recordEventsFor(other, 1, clock.now());

  // Two waves' worth of the default 8 workers; the busy project alone could fill both.
  await deliverDueWebhooks({ limit: 16, timeoutMs: HANG_TIMEOUT_MS });
  const [delivered] = answering.arrivals;
  expect(delivered?.path).toBe("/other");
  // The first wave: before any of the hanging attempts had timed out, however slow the machine.
  expect(hanging.givenUpAt.length).toBeGreaterThan(0);
  expect(delivered!.at).toBeLessThan(Math.min(...hanging.givenUpAt));
  expect(await db().webhookDelivery.findFirstOrThrow({ where: { projectId: other.projectId } })).toMatchObject({ status: "succeeded", attemptCount: 1 });
});

it(`keeps at most ${MAX_IN_FLIGHT_PER_ENDPOINT} attempts in flight to one endpoint, however many sweeps run`, async () => {
  freezeClock(new Date(T0.getTime() + 3_600_000));
  const hanging = await startReceiver("hangs");
  const tenant = await partner();
  await createWebhookEndpoint({ tenant, input: { url: `${hanging.url}/slow`, enabled_events: ["*"] } });
  await recordEventsFor(tenant, 12, new Date(T0.getTime() + 3_600_000));

  await Promise.all([deliverDueWebhooks({ timeoutMs: HANG_TIMEOUT_MS }), deliverDueWebhooks({ timeoutMs: HANG_TIMEOUT_MS })]);
  expect(hanging.arrivals).toHaveLength(MAX_IN_FLIGHT_PER_ENDPOINT);
  expect(hanging.mostOpen.get("/slow")).toBe(MAX_IN_FLIGHT_PER_ENDPOINT);
});

it("does not send a delivery that another run is sending, after this run's find has gone stale", async () => {
  const time = freezeClock(new Date(T0.getTime() + 7_200_000));
  const slow = await startReceiver("answers slowly");
  const tenant = await partner();
  await createWebhookEndpoint({ tenant, input: { url: `${slow.url}/once`, enabled_events: ["*"] } });
  await recordEventsFor(tenant, 3, clock.now());
  const operation = BACKGROUND_OPERATIONS.find((candidate) => candidate.id === "deliver-webhooks");
  if (operation?.kind !== "rows") throw new Error("deliver-webhooks is a row sweep");

  // One run (an Inngest cron run, say) finds the batch, then is held up past any claim's lifetime ...
  const found = await operation.find(operation.batch);
  expect(found).toHaveLength(3);
  time.advance(61_000);
  // ... while another run is sending all of it.
  const otherRun = deliverDueWebhooks();
  await eventually(async () => slow.arrivals.length, (count) => count === 3);
  for (const id of found) expect(await operation.run(id)).toBe(false);
  expect(await otherRun).toBe(3);
  expect(slow.arrivals).toHaveLength(3);
});
