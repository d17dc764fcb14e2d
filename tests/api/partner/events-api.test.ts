// The events API over HTTP (spec 4.6, 6.1, 6.2, 4.11): the history list and its filters and cursors, one event,
// the events the lifecycle writes, and the server-sent stream the CLI forwarder reads.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { changeFeed } from "@/lib/change-feed";
import { db } from "@/lib/db";
import { recordEvents, type EventType } from "@/lib/events/events";
import { eventStreamActivity } from "@/lib/events/service";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { captureLogs } from "../../helpers/logs";
import { expectApiError, jsonRequest, expectJson } from "../../helpers/http";
import { bearer, createTestProject, mintToken } from "../../helpers/partner";
import { decideOnItsClock } from "@/lib/decisions/background";
import { eventually } from "../../helpers/eventually";

let server: AppServer;
let project: ProjectCredentials;
let token: string;

beforeAll(async () => {
  server = await startAppServer();
});
// A project per test: its own events, and its own rate-limit bucket.
beforeEach(async () => {
  project = await createTestProject();
  token = await mintToken(server.url, project);
});
afterAll(() => server?.close());

function call(path: string, accessToken = token, init: RequestInit = {}): Promise<Response> {
  return fetch(`${server.url}/partner/v1${path}`, bearer(accessToken, init));
}

// Recent times: the retention sweep other test files run (30 days, real clock) must never reach these events.
const BASE_TIME = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
const at = (minutes: number) => new Date(BASE_TIME + minutes * 60_000);

interface Recorded {
  id: string;
  type: EventType;
  object: Record<string, unknown>;
  createdAt: Date;
  environment: "sandbox" | "live";
}

/** Writes one event as the services do (no endpoints exist, so nothing is scheduled for delivery). */
async function record(
  type: EventType,
  object: Record<string, unknown>,
  options: { createdAt?: Date; environment?: "sandbox" | "live"; projectId?: string } = {},
): Promise<Recorded> {
  const environment = options.environment ?? "sandbox";
  const createdAt = options.createdAt ?? at(0);
  const [id] = await db().$transaction((transaction) =>
    recordEvents(transaction, [{ projectId: options.projectId ?? project.project_id, environment, type, object, createdAt }]),
  );
  return { id: id!, type, object, createdAt, environment };
}

/** The spec 6.1 envelope, written out by hand from what was recorded. */
function envelope(event: Recorded) {
  return {
    id: event.id,
    object: "event",
    type: event.type,
    api_version: "2026-11-01",
    created_at: event.createdAt.toISOString(),
    livemode: event.environment === "live",
    data: { object: event.object },
  };
}

async function recordFive(): Promise<Recorded[]> {
  const types: EventType[] = ["application.created", "application.submitted", "decision.completed", "application.withdrawn", "application.submitted"];
  const events: Recorded[] = [];
  for (const [index, type] of types.entries()) {
    events.push(await record(type, { id: `app_fixture${index}`, object: "application", sequence: index }, { createdAt: at(index) }));
  }
  return events;
}

async function listIds(query: string, accessToken = token): Promise<{ ids: string[]; has_more: boolean }> {
  const body = await expectJson(await call(`/events${query}`, accessToken), 200);
  return { ids: body.data.map((event: { id: string }) => event.id), has_more: body.has_more };
}

describe("GET /events", () => {
  it("lists the project's events newest first, each in the exact spec 6.1 envelope, inside the list envelope", async () => {
    const created = await record("application.created", { id: "app_one", object: "application", status: "created" }, { createdAt: at(1) });
    const submitted = await record("application.submitted", { id: "app_one", object: "application", status: "submitted" }, { createdAt: at(2) });
    const decided = await record("decision.completed", { id: "dec_one", object: "decision", outcome: "approved" }, { createdAt: at(3) });

    const body = await expectJson(await call("/events"), 200);
    expect(body).toEqual({ object: "list", data: [envelope(decided), envelope(submitted), envelope(created)], has_more: false, url: "/partner/v1/events" });
    expect(created.id).toMatch(/^evt_[0-9a-z]{26}$/);
  });

  it("answers an empty list to a project with no events", async () => {
    expect(await expectJson(await call("/events"), 200)).toEqual({ object: "list", data: [], has_more: false, url: "/partner/v1/events" });
  });

  it("filters by exact type", async () => {
    const events = await recordFive();
    expect(await listIds("?type=application.submitted")).toEqual({ ids: [events[4]!.id, events[1]!.id], has_more: false });
    expect(await listIds("?type=decision.completed")).toEqual({ ids: [events[2]!.id], has_more: false });
    expect(await listIds("?type=payment.settled")).toEqual({ ids: [], has_more: false });
  });

  it.each([["bogus.type"], ["application"], ["application.*"]])("rejects the unknown type %s with 422 validation_failed", async (type) => {
    const body = await expectApiError(await call(`/events?type=${encodeURIComponent(type)}`), 422, "validation_failed");
    expect(body.error.detail?.map(({ field, reason }) => ({ field, reason }))).toEqual([{ field: "type", reason: "invalid_value" }]);
  });

  it("filters by created_after, exclusive of the bound", async () => {
    const events = await recordFive();
    expect(await listIds(`?created_after=${encodeURIComponent(at(2).toISOString())}`)).toEqual({ ids: [events[4]!.id, events[3]!.id], has_more: false });
    expect(await listIds(`?created_after=${encodeURIComponent(at(2).toISOString().replace(".000Z", ".000+01:00"))}`)).toEqual({ ids: events.map((event) => event.id).reverse(), has_more: false });
    expect(await listIds(`?created_after=${encodeURIComponent(at(4).toISOString())}`)).toEqual({ ids: [], has_more: false });
  });

  it("filters by created_before, exclusive of the bound, alone or with created_after as a window", async () => {
    const events = await recordFive();
    expect(await listIds(`?created_before=${encodeURIComponent(at(2).toISOString())}`)).toEqual({ ids: [events[1]!.id, events[0]!.id], has_more: false });
    const window = `created_after=${encodeURIComponent(at(0).toISOString())}&created_before=${encodeURIComponent(at(3).toISOString())}`;
    expect(await listIds(`?${window}`)).toEqual({ ids: [events[2]!.id, events[1]!.id], has_more: false });
    expect(await listIds(`?created_before=${encodeURIComponent(at(0).toISOString())}`)).toEqual({ ids: [], has_more: false });
  });

  it.each([["yesterday"], ["2026-13-01T00:00:00Z"], ["1700000000"]])("rejects created_after=%s with 422 invalid_timestamp", async (value) => {
    const body = await expectApiError(await call(`/events?created_after=${encodeURIComponent(value)}`), 422, "validation_failed");
    expect(body.error.detail?.map(({ field, reason }) => ({ field, reason }))).toEqual([{ field: "created_after", reason: "invalid_timestamp" }]);
  });

  it("pages with limit and starting_after toward older events until has_more is false", async () => {
    const [e1, e2, e3, e4, e5] = (await recordFive()).map((event) => event.id);
    expect(await listIds("?limit=2")).toEqual({ ids: [e5, e4], has_more: true });
    expect(await listIds(`?limit=2&starting_after=${e4}`)).toEqual({ ids: [e3, e2], has_more: true });
    expect(await listIds(`?limit=2&starting_after=${e2}`)).toEqual({ ids: [e1], has_more: false });
  });

  it("pages with ending_before toward newer events, each page still newest first", async () => {
    const [e1, e2, e3, e4, e5] = (await recordFive()).map((event) => event.id);
    expect(await listIds(`?limit=2&ending_before=${e1}`)).toEqual({ ids: [e3, e2], has_more: true });
    expect(await listIds(`?limit=2&ending_before=${e3}`)).toEqual({ ids: [e5, e4], has_more: false });
    expect(await listIds(`?ending_before=${e5}`)).toEqual({ ids: [], has_more: false });
  });

  it("keeps the type filter across pages", async () => {
    const events = await recordFive();
    expect(await listIds("?type=application.submitted&limit=1")).toEqual({ ids: [events[4]!.id], has_more: true });
    expect(await listIds(`?type=application.submitted&limit=1&starting_after=${events[4]!.id}`)).toEqual({ ids: [events[1]!.id], has_more: false });
  });

  it("defaults to 20 a page", async () => {
    const ids: string[] = [];
    await db().$transaction(async (transaction) => {
      ids.push(...(await recordEvents(transaction, Array.from({ length: 21 }, (_, index) => ({ projectId: project.project_id, environment: "sandbox" as const, type: "application.created" as const, object: { sequence: index }, createdAt: at(index) })))));
    });
    expect(await listIds("")).toEqual({ ids: ids.slice(1).reverse(), has_more: true });
  });

  it.each([
    ["limit=0", "limit", "too_small"],
    ["limit=101", "limit", "too_large"],
    ["limit=ten", "limit", "invalid_type"],
  ])("rejects %s with 422 validation_failed", async (query, field, reason) => {
    const body = await expectApiError(await call(`/events?${query}`), 422, "validation_failed");
    expect(body.error.detail?.map((item) => ({ field: item.field, reason: item.reason }))).toEqual([{ field, reason }]);
  });

  it("rejects starting_after with ending_before as mutually exclusive", async () => {
    const [e1, e2] = (await recordFive()).map((event) => event.id);
    const body = await expectApiError(await call(`/events?starting_after=${e2}&ending_before=${e1}`), 422, "validation_failed");
    expect(body.error.detail?.map(({ field, reason }) => ({ field, reason }))).toEqual([{ field: "ending_before", reason: "mutually_exclusive" }]);
  });

  it("rejects an unknown query parameter with 400 unknown_field", async () => {
    const body = await expectApiError(await call("/events?types=application.created"), 400, "unknown_field");
    expect(body.error.detail?.map(({ field, reason }) => ({ field, reason }))).toEqual([{ field: "types", reason: "unknown_field" }]);
  });

  it("answers 404 not_found to a cursor that is an application id", async () => {
    await recordFive();
    const application = await expectJson(
      await call("/applications", token, jsonRequest("POST", { business: { company_number: "12345678" }, amount_pence: 1_000_000, term_months: 12, applicant: { email: "director@example.co.uk" } })),
      201,
    );
    await expectApiError(await call(`/events?starting_after=${application.id}`), 404, "not_found");
    await expectApiError(await call(`/events?ending_before=${application.id}`), 404, "not_found");
  });

  it("answers 404 not_found to a cursor that is another project's event, or an unknown event id", async () => {
    await recordFive();
    const other = await createTestProject();
    const theirs = await record("application.created", { id: "app_theirs" }, { projectId: other.project_id });
    await expectApiError(await call(`/events?starting_after=${theirs.id}`), 404, "not_found");
    await expectApiError(await call(`/events?ending_before=${theirs.id}`), 404, "not_found");
    await expectApiError(await call("/events?starting_after=evt_00000000000000000000000000"), 404, "not_found");
  });

  it("never lists another project's events", async () => {
    const other = await createTestProject();
    await record("application.created", { id: "app_theirs" }, { projectId: other.project_id, createdAt: at(5) });
    const mine = await record("application.created", { id: "app_mine" }, { createdAt: at(1) });
    expect(await listIds("")).toEqual({ ids: [mine.id], has_more: false });
    expect(await listIds("?type=application.created")).toEqual({ ids: [mine.id], has_more: false });
  });

  it("keeps live and sandbox events apart: each token lists only its own environment", async () => {
    const sandbox = await record("application.created", { id: "app_sandbox" }, { createdAt: at(1) });
    const live = await record("application.created", { id: "app_live" }, { createdAt: at(2), environment: "live" });
    const liveToken = await mintToken(server.url, project, { environment: "live" });

    expect((await expectJson(await call("/events"), 200)).data).toEqual([envelope(sandbox)]);
    expect((await expectJson(await call("/events", liveToken), 200)).data).toEqual([envelope(live)]);
    expect(envelope(live).livemode).toBe(true);
    // A cursor from the other environment names nothing here.
    await expectApiError(await call(`/events?starting_after=${live.id}`), 404, "not_found");
  });

  it("answers 403 insufficient_scope to a token without events:read", async () => {
    const readOnly = await mintToken(server.url, project, { scope: "applications:read" });
    const response = await call("/events", readOnly);
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="partner", error="insufficient_scope", scope="events:read"');
    const body = await expectApiError(response, 403, "insufficient_scope");
    expect(body.error.type).toBe("authentication_error");
  });
});

describe("GET /events/{id}", () => {
  it("returns the event exactly as the list shows it", async () => {
    const event = await record("decision.completed", { id: "dec_x", object: "decision", outcome: "declined" }, { createdAt: at(3) });
    const retrieved = await expectJson(await call(`/events/${event.id}`), 200);
    const listed = (await expectJson(await call("/events"), 200)).data[0];
    expect(retrieved).toEqual(envelope(event));
    expect(retrieved).toEqual(listed);
  });

  it("returns a live event to a live token with livemode true", async () => {
    const event = await record("application.created", { id: "app_live" }, { environment: "live" });
    const liveToken = await mintToken(server.url, project, { environment: "live" });
    expect(await expectJson(await call(`/events/${event.id}`, liveToken), 200)).toEqual({ ...envelope(event), livemode: true });
  });

  it("answers 404 not_found for another project's event", async () => {
    const other = await createTestProject();
    const theirs = await record("application.created", { id: "app_theirs" }, { projectId: other.project_id });
    const body = await expectApiError(await call(`/events/${theirs.id}`), 404, "not_found");
    expect(body.error.message).toBe(`No such event: ${theirs.id}.`);
  });

  it("answers 401 environment_mismatch for an event of the other environment, both ways", async () => {
    const live = await record("application.created", { id: "app_live" }, { environment: "live" });
    const sandbox = await record("application.created", { id: "app_sandbox" });
    const liveToken = await mintToken(server.url, project, { environment: "live" });
    await expectApiError(await call(`/events/${live.id}`), 401, "environment_mismatch");
    await expectApiError(await call(`/events/${sandbox.id}`, liveToken), 401, "environment_mismatch");
  });

  it.each([["not-an-id"], ["app_01jzzzzzzzzzzzzzzzzzzzzzzz"], ["evt_00000000000000000000000000"], ["evt_"]])("answers 404 not_found for the id %s", async (id) => {
    await expectApiError(await call(`/events/${id}`), 404, "not_found");
  });

  it("answers 403 insufficient_scope to a token scoped applications:read", async () => {
    const event = await record("application.created", { id: "app_one" });
    const readOnly = await mintToken(server.url, project, { scope: "applications:read" });
    const response = await call(`/events/${event.id}`, readOnly);
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="partner", error="insufficient_scope", scope="events:read"');
    await expectApiError(response, 403, "insufficient_scope");
  });
});

describe("the events the lifecycle writes", () => {
  async function waitForStatus(id: string, settled: (status: string) => boolean) {
    return eventually(async () => expectJson(await call(`/applications/${id}`), 200), (application) => settled(application.status), {
      drive: () => decideOnItsClock(id),
    });
  }

  async function eventOfType(type: string) {
    const body = await expectJson(await call(`/events?type=${type}`), 200);
    expect(body.data).toHaveLength(1);
    return body.data[0];
  }

  it("writes application.created, application.submitted and decision.completed, each with the resource as it was then", async () => {
    const created = await expectJson(
      await call(
        "/applications",
        token,
        jsonRequest("POST", {
          business: { company_number: "12345678" },
          amount_pence: 3_000_000,
          term_months: 18,
          purpose: "stock",
          applicant: { email: "director@example.co.uk" },
          reference: "events-lifecycle",
          metadata: { crm: "42" },
        }),
      ),
      201,
    );
    const submitted = await expectJson(await call(`/test_helpers/applications/${created.id}/submit`, token, { method: "POST" }), 200);
    const decided = await waitForStatus(created.id, (status) => status === "approved");
    const decision = await expectJson(await call(`/decisions/${decided.decision}`), 200);

    const listed = await expectJson(await call("/events"), 200);
    expect(listed.data.map((event: { type: string }) => event.type)).toEqual(["decision.completed", "application.submitted", "application.created"]);

    const createdEvent = await eventOfType("application.created");
    expect(createdEvent).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-z]{26}$/),
      object: "event",
      type: "application.created",
      api_version: "2026-11-01",
      created_at: created.created_at,
      livemode: false,
      data: { object: created },
    });
    expect(createdEvent.data.object.status).toBe("created");

    const submittedEvent = await eventOfType("application.submitted");
    expect(submittedEvent.data.object).toEqual(submitted);
    expect(submittedEvent.data.object).toMatchObject({ id: created.id, status: "submitted", decision: null });
    expect(submittedEvent.created_at).toBe(submitted.submitted_at);

    const decisionEvent = await eventOfType("decision.completed");
    expect(decisionEvent.data.object).toEqual({
      id: decision.id,
      object: "decision",
      application_id: created.id,
      outcome: "approved",
      approved_amount_pence: 3_000_000,
      apr_bps: decision.apr_bps,
      reference: "events-lifecycle",
    });
    expect(Object.keys(decisionEvent.data.object)).toHaveLength(7);
    expect(decisionEvent.created_at).toBe(decision.decided_at);

    // The stored objects are frozen: the application has moved on, its events have not.
    expect(decided.status).toBe("approved");
    expect((await eventOfType("application.created")).data.object.status).toBe("created");
  });

  it("carries a declined decision with approved_amount_pence 0 and the same seven fields", async () => {
    const created = await expectJson(
      await call("/applications", token, jsonRequest("POST", { business: { company_number: "12340001" }, amount_pence: 2_000_000, term_months: 12, applicant: { email: "director@example.co.uk" } })),
      201,
    );
    await expectJson(await call(`/test_helpers/applications/${created.id}/submit`, token, { method: "POST" }), 200);
    const decided = await waitForStatus(created.id, (status) => status === "declined");
    const decisionEvent = await eventOfType("decision.completed");
    expect(decisionEvent.data.object).toEqual({
      id: decided.decision,
      object: "decision",
      application_id: created.id,
      outcome: "declined",
      approved_amount_pence: 0,
      apr_bps: expect.any(Number),
      reference: null,
    });
  });
});

describe("GET /events/stream", () => {
  interface Frame {
    id?: string;
    event?: string;
    data?: string;
  }

  interface OpenStream {
    response: Response;
    text(): string;
    frames(): Frame[];
    waitFor(done: (text: string) => boolean, timeoutMs?: number): Promise<void>;
    close(): void;
    /** Resolves when the client's reading loop ends, with the error it ended on (null for a clean end). */
    ended: Promise<unknown>;
  }

  const open: OpenStream[] = [];
  afterEach(() => {
    for (const stream of open.splice(0)) stream.close();
  });

  /** A server-sent-events client written from the format, independent of the CLI's parser. */
  function parseFrames(text: string): Frame[] {
    const complete = text.slice(0, text.lastIndexOf("\n\n") + 2);
    return complete
      .split("\n\n")
      .filter(Boolean)
      .map((block) => {
        const frame: Frame = {};
        for (const line of block.split("\n")) {
          const match = /^(id|event|data): (.*)$/.exec(line);
          if (match) frame[match[1] as keyof Frame] = match[2];
        }
        return frame;
      })
      // As EventSource dispatches: a block without data (the opening cursor, a heartbeat) is no event.
      .filter((frame) => frame.data !== undefined);
  }

  async function openStream(accessToken = token, query = "", headers: Record<string, string> = {}): Promise<OpenStream> {
    const controller = new AbortController();
    const response = await fetch(`${server.url}/partner/v1/events/stream${query}`, bearer(accessToken, { headers: { accept: "text/event-stream", ...headers }, signal: controller.signal }));
    let buffer = "";
    let ended: Promise<unknown> = Promise.resolve(null);
    if (response.status === 200 && response.body) {
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      ended = (async () => {
        try {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) return null;
            buffer += decoder.decode(value, { stream: true });
          }
        } catch (error) {
          return error;
        }
      })();
    }
    const stream: OpenStream = {
      response,
      text: () => buffer,
      frames: () => parseFrames(buffer),
      async waitFor(done, timeoutMs = 3_000) {
        await eventually(async () => buffer, done, { timeoutMs });
      },
      close: () => controller.abort(),
      ended,
    };
    open.push(stream);
    return stream;
  }

  it("answers text/event-stream and starts with a comment line", async () => {
    const stream = await openStream();
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(stream.response.headers.get("cache-control")).toBe("no-cache");
    await stream.waitFor((text) => text.includes("\n\n"));
    expect(stream.text()).toBe(`: streaming events of ${project.project_id} (sandbox)\nretry: 1000\n\n`);
  });

  it("sends an event recorded after connecting as one frame whose data is GET /events/{id}'s body", async () => {
    await record("application.created", { id: "app_before" });
    const stream = await openStream();
    const event = await record("application.submitted", { id: "app_after", object: "application", status: "submitted", note: "£ and ✓" }, { createdAt: at(1) });
    await stream.waitFor((text) => text.includes(`id: ${event.id}\n`));
    const retrieved = await call(`/events/${event.id}`);
    const body = await retrieved.text();
    expect(stream.text()).toContain(`\n\nid: ${event.id}\nevent: application.submitted\ndata: ${body}\n\n`);
    // Only what happened after connecting: the earlier event is not replayed.
    expect(stream.frames()).toEqual([{ id: event.id, event: "application.submitted", data: body }]);
    expect(JSON.parse(body)).toEqual(envelope(event));
  });

  it("sends several new events oldest first", async () => {
    const stream = await openStream();
    const first = await record("application.created", { id: "app_one" }, { createdAt: at(1) });
    const second = await record("application.submitted", { id: "app_one" }, { createdAt: at(2) });
    const third = await record("decision.completed", { id: "dec_one" }, { createdAt: at(3) });
    await stream.waitFor((text) => text.includes(`id: ${third.id}\n`));
    expect(stream.frames().map((frame) => [frame.id, frame.event])).toEqual([
      [first.id, "application.created"],
      [second.id, "application.submitted"],
      [third.id, "decision.completed"],
    ]);
  });

  it("sends only the types asked for with ?types=", async () => {
    const stream = await openStream(token, "?types=application.submitted");
    const created = await record("application.created", { id: "app_one" }, { createdAt: at(1) });
    const submitted = await record("application.submitted", { id: "app_one" }, { createdAt: at(2) });
    await stream.waitFor((text) => text.includes(`id: ${submitted.id}\n`));
    // Frames go out in id order, so had the earlier application.created been sent it would already be here.
    expect(stream.frames().map((frame) => frame.id)).toEqual([submitted.id]);
    expect(stream.text()).not.toContain(created.id);
  });

  it("accepts several comma-separated types", async () => {
    const stream = await openStream(token, `?types=${encodeURIComponent("application.created, decision.completed")}`);
    const created = await record("application.created", { id: "app_one" }, { createdAt: at(1) });
    await record("application.submitted", { id: "app_one" }, { createdAt: at(2) });
    const decided = await record("decision.completed", { id: "dec_one" }, { createdAt: at(3) });
    await stream.waitFor((text) => text.includes(`id: ${decided.id}\n`));
    expect(stream.frames().map((frame) => frame.id)).toEqual([created.id, decided.id]);
  });

  it("rejects an unknown type in ?types= with 422 validation_failed", async () => {
    const body = await expectApiError(await call("/events/stream?types=bogus"), 422, "validation_failed");
    expect(body.error.detail?.map(({ field, reason }) => ({ field, reason }))).toEqual([{ field: "types.0", reason: "invalid_value" }]);
    const mixed = await expectApiError(await call("/events/stream?types=application.created,bogus"), 422, "validation_failed");
    expect(mixed.error.detail?.map(({ field, reason }) => ({ field, reason }))).toEqual([{ field: "types.1", reason: "invalid_value" }]);
  });

  it("resumes after Last-Event-ID, sending the events recorded in between", async () => {
    const seen = await record("application.created", { id: "app_one" }, { createdAt: at(1) });
    const missedOne = await record("application.submitted", { id: "app_one" }, { createdAt: at(2) });
    const missedTwo = await record("decision.completed", { id: "dec_one" }, { createdAt: at(3) });
    const stream = await openStream(token, "", { "last-event-id": seen.id });
    await stream.waitFor((text) => text.includes(`id: ${missedTwo.id}\n`));
    const later = await record("application.withdrawn", { id: "app_one" }, { createdAt: at(4) });
    await stream.waitFor((text) => text.includes(`id: ${later.id}\n`));
    expect(stream.frames().map((frame) => [frame.id, frame.event])).toEqual([
      [missedOne.id, "application.submitted"],
      [missedTwo.id, "decision.completed"],
      [later.id, "application.withdrawn"],
    ]);
  });

  it("never streams another project's or the live environment's events", async () => {
    const stream = await openStream();
    const other = await createTestProject();
    const theirs = await record("application.created", { id: "app_theirs" }, { projectId: other.project_id });
    const live = await record("application.created", { id: "app_live" }, { environment: "live" });
    const mine = await record("application.created", { id: "app_mine" }, { createdAt: at(1) });
    await stream.waitFor((text) => text.includes(`id: ${mine.id}\n`));
    expect(stream.frames().map((frame) => frame.id)).toEqual([mine.id]);
    expect(stream.text()).not.toContain(theirs.id);
    expect(stream.text()).not.toContain(live.id);
  });

  it("does not exist for a live token: 404 route_not_found", async () => {
    const liveToken = await mintToken(server.url, project, { environment: "live" });
    await expectApiError(await call("/events/stream", liveToken), 404, "route_not_found");
  });

  it("answers 403 insufficient_scope to a token without events:read", async () => {
    const readOnly = await mintToken(server.url, project, { scope: "applications:read" });
    await expectApiError(await call("/events/stream", readOnly), 403, "insufficient_scope");
  });

  it("stops reading the database once the client disconnects, without an error", async () => {
    const database = db();
    const findMany = vi.spyOn(database.event, "findMany");
    const readsOfThisProject = () =>
      findMany.mock.calls.filter(([query]) => (query?.where as { projectId?: string } | undefined)?.projectId === project.project_id).length;
    try {
      const { entries } = await captureLogs(async () => {
        const stream = await openStream();
        await stream.waitFor(() => readsOfThisProject() >= 1, 2_000);
        stream.close();
        expect(await stream.ended).toMatchObject({ name: "AbortError" });
        await eventually(async () => eventStreamActivity().open, (open) => open === 0);
        // A second stream of the project, still open, is woken by the same event: once it has sent the event, the
        // closed stream would have read by then had it still been listening.
        await eventually(async () => changeFeed().isListening(), Boolean);
        const afterClose = readsOfThisProject();
        const witness = await openStream();
        await eventually(async () => readsOfThisProject(), (reads) => reads === afterClose + 1);
        const event = await record("application.created", { id: "app_after_close" }, { createdAt: at(1) });
        await witness.waitFor((text) => text.includes(`id: ${event.id}\n`));
        expect(readsOfThisProject()).toBe(afterClose + 2);
      });
      expect(entries.filter((entry) => entry.level === "error")).toEqual([]);
    } finally {
      findMany.mockRestore();
    }
  });
});
