// What an open event stream costs the platform, and who pays: each holds one of its project's concurrent
// request slots until it closes, closes after STREAM_MAX_SECONDS (here 2), and reads when its project records an
// event (the change feed wakes it) rather than on a timer. The streams' timers are advanced by hand.
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { changeFeed } from "@/lib/change-feed";
import { manualTimers, restoreTimers } from "@/lib/clock";
import { db } from "@/lib/db";
import { recordEvents } from "@/lib/events/events";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { eventually } from "../../helpers/eventually";
import { expectApiError } from "../../helpers/http";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { bearer, createTestProject, mintToken } from "../../helpers/partner";

let server: AppServer;
const streamTimers = manualTimers();
beforeAll(async () => {
  process.env.STREAM_MAX_SECONDS = "2";
  server = await startAppServer();
});
afterAll(async () => {
  await server?.close();
  restoreTimers();
});

interface Stream {
  text: () => string;
  ended: Promise<void>;
  close: () => void;
}

const streams: Stream[] = [];
afterEach(() => {
  for (const stream of streams.splice(0)) stream.close();
});

async function openStream(token: string, lastEventId?: string): Promise<Stream> {
  const controller = new AbortController();
  const response = await fetch(`${server.url}/partner/v1/events/stream`, bearer(token, { signal: controller.signal, headers: lastEventId ? { "last-event-id": lastEventId } : {} }));
  expect(response.status).toBe(200);
  let text = "";
  const decoder = new TextDecoder();
  const ended = (async () => {
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) text += decoder.decode(chunk, { stream: true });
    } catch {
      // closed by the test
    }
  })();
  const stream = { text: () => text, ended, close: () => controller.abort() };
  streams.push(stream);
  await eventually(async () => text, (seen) => seen.includes("\n\n"));
  return stream;
}

async function record(project: ProjectCredentials, id: string): Promise<string> {
  const [eventId] = await db().$transaction((transaction) =>
    recordEvents(transaction, [{ projectId: project.project_id, environment: "sandbox", type: "application.created", object: { id }, createdAt: new Date() }]),
  );
  return eventId!;
}

const internals = async () => (await (await fetch(`${server.url}/healthz/internal`)).json()).event_streams as { open: number; reads: number };

it("holds one of the project's 10 concurrent request slots while open, and gives it back when closed", async () => {
  const project = await createTestProject();
  const token = await mintToken(server.url, project);
  for (let index = 0; index < 10; index += 1) await openStream(token);
  const refused = await fetch(`${server.url}/partner/v1/events`, bearer(token));
  const body = await expectApiError(refused, 429, "rate_limited");
  expect(body.error.message).toBe("Too many concurrent requests (at most 10 for this project and environment).");
  streams.pop()!.close();
  await eventually(async () => (await fetch(`${server.url}/partner/v1/events`, bearer(token))).status, (status) => status === 200);
});

it("closes after STREAM_MAX_SECONDS, having told the client where to resume", async () => {
  const project = await createTestProject();
  const token = await mintToken(server.url, project);
  const before = await record(project, "app_before");
  await eventually(internals, (activity) => activity.open === 0);
  const stream = await openStream(token);
  expect(stream.text()).toContain(`\nid: ${before}\n\n`);
  streamTimers.advance(1_999);
  expect((await internals()).open).toBe(1);
  streamTimers.advance(1);
  await stream.ended;
  expect(stream.text()).toMatch(/: closing after 2 s; reconnect with Last-Event-ID to resume\n\n$/);
  // Resuming from that cursor misses nothing recorded in between.
  const between = await record(project, "app_between");
  const resumed = await openStream(token, before);
  await eventually(async () => resumed.text(), (text) => text.includes(`id: ${between}\n`));
});

it("reads when its project records an event, not on a timer", async () => {
  await eventually(async () => changeFeed().isListening(), Boolean);
  const project = await createTestProject();
  const token = await mintToken(server.url, project);
  const start = await internals();
  for (let index = 0; index < 5; index += 1) await openStream(token);
  await eventually(internals, (activity) => activity.reads - start.reads >= 5);
  streamTimers.advance(1_200); // more than two of the old 500 ms polls
  const idle = await internals();
  expect(idle.open - start.open).toBe(5);
  expect(idle.reads - start.reads).toBe(5); // each stream's first read, and nothing since
  const eventId = await record(project, "app_wakes");
  await eventually(async () => streams.map((stream) => stream.text()), (texts) => texts.every((text) => text.includes(`id: ${eventId}\n`)));
  expect((await internals()).reads - start.reads).toBe(10);
});
