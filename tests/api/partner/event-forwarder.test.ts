// The forwarder behind `cli listen`, run in this process against a real server with the CLI's own printing: it
// rides out a server restart (resuming after the last event it forwarded, with a new token when the old one
// expired meanwhile) and says why a forward failed. The back-off is shortened to milliseconds.
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, it } from "vitest";
import * as tokenRoute from "@/app/partner/v1/oauth/token/route";
import { listenReporter } from "@/bin/commands/listen";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { recordEvents } from "@/lib/events/events";
import type { RouteHandlers } from "@/lib/http/route";
import { ACCESS_TOKEN_LIFETIME_SECONDS } from "@/lib/oauth/signing-keys";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { forwardEvents, type ForwarderOptions } from "@/lib/webhooks/forwarder";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { eventually } from "../../helpers/eventually";
import { createTestProject } from "../../helpers/partner";

const SECRET = "whsec_0123456789ABCDEFGHIJabcdefghij0123456789";
const RECONNECT_DELAY_MS = 20;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function listenOnLoopback(server: http.Server): Promise<string> {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  cleanups.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
}

/** A local receiver answering `status` with `body`, recording the event id of each delivery. */
async function startReceiver(status = 200, body = "ok"): Promise<{ url: string; received: string[] }> {
  const received: string[] = [];
  const server = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      received.push(request.headers["service-event-id"] as string);
      response.writeHead(status, { "content-type": "text/plain" }).end(body);
    });
  });
  return { url: await listenOnLoopback(server), received };
}

async function record(project: ProjectCredentials, applicationId: string): Promise<string> {
  const [eventId] = await db().$transaction((transaction) =>
    recordEvents(transaction, [{ projectId: project.project_id, environment: "sandbox", type: "application.created", object: { id: applicationId }, createdAt: new Date() }]),
  );
  return eventId!;
}

/** Starts the forwarder with the CLI's printing into `lines`; resolves once it printed Ready. */
async function startForwarder(server: AppServer, project: ProjectCredentials, forwardTo: string, extra: Partial<ForwarderOptions> = {}) {
  const lines: string[] = [];
  const controller = new AbortController();
  const running = forwardEvents({
    apiUrl: server.url,
    clientId: project.client_id,
    apiKey: project.sandbox.secret_key,
    forwardTo,
    secret: SECRET,
    signal: controller.signal,
    reconnectDelay: () => RECONNECT_DELAY_MS,
    ...listenReporter({ apiUrl: server.url, forwardTo, secret: SECRET, print: (line) => lines.push(line) }),
    ...extra,
  });
  // Handled here so that a forwarder failing before the test awaits it fails the test, not the run.
  void running.catch(() => undefined);
  cleanups.push(async () => {
    controller.abort();
    await running.catch(() => undefined);
  });
  await eventually(async () => lines, (seen) => seen.length > 0);
  expect(lines).toEqual([`Ready. Forwarding sandbox events to ${forwardTo}. Your webhook signing secret is ${SECRET} (^C to quit)`]);
  return { lines, running, stop: () => controller.abort() };
}

it("resumes after the server restarts: the events recorded meanwhile arrive once, under a token minted anew", async () => {
  const time = freezeClock();
  let tokenRequests = 0;
  const countingTokens: Record<string, RouteHandlers> = {
    "/partner/v1/oauth/token": {
      ...tokenRoute,
      POST: (request, context) => {
        tokenRequests += 1;
        return tokenRoute.POST(request, context);
      },
    },
  };
  // A project with no events yet: its stream opens with no cursor to resume from.
  const project = await createTestProject();
  const receiver = await startReceiver();
  let server = await startAppServer(countingTokens);
  const apiUrl = server.url;
  const forwarder = await startForwarder(server, project, receiver.url);

  const before = await record(project, "app_before");
  await eventually(async () => receiver.received.length, (count) => count === 1);
  await server.close();
  const whileDown = [await record(project, "app_down_1"), await record(project, "app_down_2")];
  await eventually(async () => forwarder.lines.filter((line) => line.startsWith("Still cannot reach")).length, (count) => count >= 2);
  // The token it holds expires while the server is away.
  time.advance((ACCESS_TOKEN_LIFETIME_SECONDS + 1) * 1000);
  server = await startAppServer(countingTokens, { port: Number(new URL(apiUrl).port) });
  cleanups.push(() => server.close());
  await eventually(async () => receiver.received.length, (count) => count === 3);
  const after = await record(project, "app_after");
  await eventually(async () => receiver.received.length, (count) => count === 4);
  forwarder.stop();

  expect(await forwarder.running).toBe(4);
  expect(receiver.received).toEqual([before, ...whileDown, after]);
  expect(tokenRequests).toBe(2);
  const [ready, lost, ...rest] = forwarder.lines.filter((line) => !line.includes("-->"));
  expect(ready).toMatch(/^Ready\. /);
  expect(lost).toBe(`Lost the connection to ${apiUrl} (connection closed); reconnecting in 20ms…`);
  expect(rest.at(-1)).toBe("Reconnected.");
  expect(rest.slice(0, -1).length).toBeGreaterThanOrEqual(2);
  for (const line of rest.slice(0, -1)) expect(line).toBe(`Still cannot reach ${apiUrl} (connection refused); trying again in 20ms…`);
  const forwarded = forwarder.lines.filter((line) => line.includes("-->"));
  expect(forwarded.map((line) => /\[(evt_\w+)\]  <-- 200$/.exec(line)?.[1])).toEqual([before, ...whileDown, after]);
});

it("misses nothing recorded while the server was away even when the project had no event to resume after", async () => {
  const project = await createTestProject();
  const receiver = await startReceiver();
  let server = await startAppServer();
  const apiUrl = server.url;
  const forwarder = await startForwarder(server, project, receiver.url);
  await server.close();
  const whileDown = await record(project, "app_down");
  await eventually(async () => forwarder.lines.length, (count) => count >= 2);
  server = await startAppServer({}, { port: Number(new URL(apiUrl).port) });
  cleanups.push(() => server.close());
  await eventually(async () => forwarder.lines.includes("Reconnected."), (reconnected) => reconnected);
  const after = await record(project, "app_after");
  await eventually(async () => receiver.received.length, (count) => count === 2);
  expect(receiver.received).toEqual([whileDown, after]);
});

/** The line the CLI prints for one event forwarded to `forwardTo`. */
async function forwardedLine(forwardTo: string, extra: Partial<ForwarderOptions> = {}): Promise<string> {
  const server = await startAppServer();
  cleanups.push(() => server.close());
  const project = await createTestProject();
  const forwarder = await startForwarder(server, project, forwardTo, { maxEvents: 1, ...extra });
  const eventId = await record(project, "app_failing");
  expect(await forwarder.running).toBe(1);
  expect(forwarder.lines).toHaveLength(2);
  const line = forwarder.lines[1]!;
  expect(line).toContain(`--> application.created [${eventId}]  <-- `);
  return line.slice(line.indexOf("<-- "));
}

it("says the connection was refused when nothing listens at the local URL", async () => {
  const closed = http.createServer();
  const url = await listenOnLoopback(closed);
  closed.close();
  await once(closed, "close");
  expect(await forwardedLine(url)).toBe("<-- failed: connection refused");
});

it("says how long it waited when the local receiver does not answer", async () => {
  const url = await listenOnLoopback(http.createServer(() => undefined));
  expect(await forwardedLine(url, { forwardTimeoutMs: 200 })).toBe("<-- failed: timed out after 200ms");
});

it("gives the status and the start of the body, on one line, when the receiver refuses an event", async () => {
  const body = `Traceback (most recent call last):\n  File "app.py", line 12\n${"x".repeat(400)}`;
  const receiver = await startReceiver(500, body);
  const expected = body.replace(/\s+/g, " ").slice(0, 200);
  expect(await forwardedLine(receiver.url)).toBe(`<-- 500, body: ${expected}…`);
});

it("says so when a refusal comes with no body", async () => {
  const receiver = await startReceiver(404, "");
  expect(await forwardedLine(receiver.url)).toBe("<-- 404, empty body");
});
