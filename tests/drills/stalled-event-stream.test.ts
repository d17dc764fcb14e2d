// Drill: a client that opens the event stream and stops reading while thousands of events are recorded for its
// project (what a test clock advance does) costs the server no more memory than a page of them, and once it has
// taken nothing for STREAM_STALL_SECONDS the stream is closed; the client resumes from the last frame it received
// and misses nothing. A real HTTP client on 127.0.0.1 that stops reading, the real stream, the real change feed,
// on a database of its own.
import http from "node:http";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { changeFeed } from "@/lib/change-feed";
import { clock as platformClock, freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { CURRENT_API_VERSION } from "@/lib/events/events";
import { newId } from "@/lib/ids";
import { STREAM_STALL_SECONDS } from "@/lib/events/service";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { eventually } from "../helpers/eventually";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { createTestProject, mintToken } from "../helpers/partner";

// Two backlogs of events (about 36 MB) go to a database of this file's own, not the one other files share.

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

/** Events in each backlog, recorded 250 to a transaction as a clock advance records them. */
const EVENTS = 6_000;
const BATCH = 250;
/** Each event's data.object carries this much, so a backlog is about 18 MB. */
const PADDING = "p".repeat(3_000);
const BACKLOG_BYTES = EVENTS * PADDING.length;

let server: AppServer;
beforeAll(async () => {
  server = await startAppServer();
});
afterAll(() => server?.close());

const internals = async () => (await (await fetch(`${server.url}/healthz/internal`)).json()).event_streams as { open: number; reads: number };

/** The memory the process holds after a full collection: the heap and the byte buffers outside it. */
function retainedBytes(): number {
  collectGarbage();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

/** Waits until the stream has done whatever reading it is going to do. */
async function untilReadsSettle(): Promise<void> {
  let previous = -1;
  await eventually(
    async () => (await internals()).reads,
    (reads) => {
      const settled = reads === previous;
      previous = reads;
      return settled;
    },
    { timeoutMs: 20_000 },
  );
}

/**
 * Records `count` events of the project, a batch to a transaction as a clock advance does. One statement per
 * batch, the padding sent once: what the test measures is the stream, not the writer's buffers.
 */
async function record(project: ProjectCredentials, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let done = 0; done < count; done += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, count - done) }, () => newId("event"));
    await db().$executeRaw`INSERT INTO events (id, project_id, environment, type, api_version, object, created_at, recorded_at)
      SELECT event.id, ${project.project_id}, 'sandbox', 'application.created', ${CURRENT_API_VERSION},
        json_build_object('id', 'app_drill_' || (${done}::int + event.ordinality), 'padding', ${PADDING}::text), ${platformClock.now()}::timestamptz,
        ${platformClock.now()}::timestamptz
      FROM unnest(${batch}::text[]) WITH ORDINALITY AS event (id, ordinality)`;
    ids.push(...batch);
  }
  return ids;
}

/** The ids of the complete event frames in a server-sent event text, in order. */
function frameIds(text: string): string[] {
  const blocks = text.split("\n\n").slice(0, -1);
  return blocks.filter((block) => /^data: /m.test(block)).map((block) => /^id: (\S+)$/m.exec(block)![1]!);
}

interface StalledClient {
  /** Reads everything the connection still delivers, until it ends. */
  drain(): Promise<string>;
}

/** Opens the stream, waits for its opening block, then stops reading (the socket fills and stays full). */
function openAndStall(token: string): Promise<StalledClient> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${server.url}/partner/v1/events/stream`, { headers: { authorization: `Bearer ${token}` } }, (response) => {
      expect(response.statusCode).toBe(200);
      response.setEncoding("utf8");
      let text = "";
      response.once("data", (chunk: string) => {
        text += chunk;
        response.pause();
        resolve({
          drain: () =>
            new Promise((done) => {
              const finish = () => done(text);
              response.on("data", (more: string) => (text += more));
              response.once("end", finish);
              response.once("aborted", finish);
              response.once("error", finish);
              response.once("close", finish);
              response.resume();
            }),
        });
      });
    });
    request.on("error", reject);
  });
}

it("keeps the heap flat while a client that stopped reading falls behind, then closes the stream; the client resumes from its cursor", async () => {
  await eventually(async () => changeFeed().isListening(), Boolean);
  const clock = freezeClock(new Date());
  const project = await createTestProject();
  const token = await mintToken(server.url, project);
  const [before] = await record(project, 1);
  const start = await internals();
  const stalled = await openAndStall(token);

  // The first backlog fills the socket and the queues in front of it, and grows the buffers that stay grown (the
  // connections' read buffers); from then on, however many more events are recorded, the stream holds no more.
  const recorded = await record(project, EVENTS);
  await untilReadsSettle();
  const filled = retainedBytes();
  recorded.push(...(await record(project, EVENTS)));
  await untilReadsSettle();
  const grown = retainedBytes() - filled;
  // Before the stream read only as its client took, this grew by the second backlog and more.
  expect(grown).toBeLessThan(BACKLOG_BYTES / 4);
  expect((await internals()).open - start.open).toBe(1);

  // The client has taken nothing for longer than the bound: the next event it would be woken for closes it.
  const late: string[] = [];
  await eventually(
    async () => (await internals()).open - start.open,
    (open) => open === 0,
    {
      drive: async () => {
        clock.advance((STREAM_STALL_SECONDS + 1) * 1000);
        late.push(...(await record(project, 1)));
      },
    },
  );

  const firstText = await stalled.drain();
  expect(firstText.startsWith(`: streaming events of ${project.project_id} (sandbox)\nretry: 1000\nid: ${before}\n\n`)).toBe(true);
  const received = frameIds(firstText);
  expect(received.length).toBeLessThan(EVENTS);
  expect(received).toEqual(recorded.slice(0, received.length));

  // Resuming after the last complete frame delivers the rest, once each and in order.
  const cursor = received.at(-1) ?? before!;
  const expected = [...recorded, ...late];
  const resumed = await fetch(`${server.url}/partner/v1/events/stream`, { headers: { authorization: `Bearer ${token}`, "last-event-id": cursor } });
  expect(resumed.status).toBe(200);
  const chunks: string[] = [];
  const last = `id: ${expected.at(-1)}\n`;
  const reader = resumed.body!.pipeThrough(new TextDecoderStream()).getReader();
  // Until the last event's frame has arrived whole (it ends the page it is sent in).
  for (let tail = "", seen = false; !(seen && tail.endsWith("\n\n")); ) {
    const { value, done } = await reader.read();
    if (done) break;
    chunks.push(value);
    seen ||= (tail + value).includes(last);
    tail = (tail + value).slice(-2 * last.length);
  }
  await reader.cancel();
  expect([...received, ...frameIds(chunks.join(""))]).toEqual(expected);
}, 60_000);
