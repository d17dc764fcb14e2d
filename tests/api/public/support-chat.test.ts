// The support chat and widget over HTTP (spec 4.8, 7.3): sessions start, continue and close (30 minutes idle,
// 50 messages), the body limits answer in the chat's codes, replies are inert HTML, and the widget's script and
// stylesheet are cacheable, versioned and self-contained.
// The public ring allows 60 requests a minute per address, shared by every test in this file: it makes about 36.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { config } from "@/lib/env";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError, jsonRequest } from "../../helpers/http";

let server: AppServer;

beforeAll(async () => {
  server = await startAppServer();
});
afterAll(() => server?.close());

interface ChatReply {
  session_id: string;
  reply: string;
  handoff: boolean;
  sign_in_url?: string;
}

function chat(body: unknown): Promise<Response> {
  return fetch(`${server.url}/public/v1/support/chat`, jsonRequest("POST", body));
}

async function expectReply(response: Response): Promise<ChatReply> {
  const text = await response.text();
  expect({ status: response.status, body: text }).toMatchObject({ status: 200 });
  expect(response.headers.get("content-type")).toContain("application/json");
  expect(response.headers.get("cache-control")).toBe("no-store");
  return JSON.parse(text) as ChatReply;
}

async function sessionRow(id: string) {
  return db().supportSession.findUniqueOrThrow({ where: { id } });
}

describe("sessions", () => {
  it("starts a session with the first message and answers an eligibility question", async () => {
    const body = await expectReply(await chat({ message: "Who can borrow?" }));
    expect(Object.keys(body).sort()).toEqual(["handoff", "reply", "session_id"]);
    expect(body.session_id).toMatch(/^sess_[0-9a-z]{26}$/);
    expect(body.handoff).toBe(false);
    expect(body.reply).toContain("We lend only to UK limited companies and LLPs");
    expect(await sessionRow(body.session_id)).toMatchObject({ status: "open", messageCount: 1, closedAt: null });
  });

  it("keeps the session when the next message names it, and counts the message", async () => {
    const first = await expectReply(await chat({ message: "What is Flex?" }));
    const second = await expectReply(await chat({ message: "How do I apply?", session_id: first.session_id }));
    expect(second.session_id).toBe(first.session_id);
    expect(second.reply).toContain("You can apply online");
    expect(await sessionRow(first.session_id)).toMatchObject({ status: "open", messageCount: 2 });
  });

  it("hands an account question off to the borrower area's sign-in, as the site assistant does", async () => {
    const body = await expectReply(await chat({ message: "What is my balance?" }));
    expect(body.handoff).toBe(true);
    expect(body.sign_in_url).toBe(`${config().BASE_URL}/account`);
    expect(body.reply).toContain(`<a href="${config().BASE_URL}/account" rel="noopener noreferrer">sign in</a>`);
  });

  it("answers 404 not_found for a well-formed session id that names no session", async () => {
    const body = await expectApiError(await chat({ message: "Hello", session_id: "sess_01hzzzzzzzzzzzzzzzzzzzzzzz" }), 404, "not_found");
    expect(body.error.type).toBe("invalid_request_error");
  });

  it("closes a session after 30 minutes without a message: 409 support_session_closed, marked closed when noticed", async () => {
    const time = freezeClock("2029-03-01T09:00:00.000Z");
    const { session_id: sessionId } = await expectReply(await chat({ message: "What is Slice?" }));
    time.advance(29 * 60 * 1000);
    await expectReply(await chat({ message: "How much does it cost?", session_id: sessionId }));
    const noticedAt = time.advance(31 * 60 * 1000);
    const body = await expectApiError(await chat({ message: "Are you there?", session_id: sessionId }), 409, "support_session_closed");
    expect(body.error).toMatchObject({ type: "invalid_request_error", retryable: false });
    expect(await sessionRow(sessionId)).toMatchObject({ status: "closed", messageCount: 2, closedAt: noticedAt });
  });

  it("keeps a closed session closed even when the visitor comes back quickly", async () => {
    const time = freezeClock("2029-04-01T09:00:00.000Z");
    const { session_id: sessionId } = await expectReply(await chat({ message: "What is Flex?" }));
    const closedAt = time.advance(31 * 60 * 1000);
    await expectApiError(await chat({ message: "Hello again", session_id: sessionId }), 409, "support_session_closed");
    time.advance(1000);
    await expectApiError(await chat({ message: "Hello again", session_id: sessionId }), 409, "support_session_closed");
    expect(await sessionRow(sessionId)).toMatchObject({ status: "closed", closedAt });
  });

  it("accepts the 50th message and refuses the 51st with 409 support_session_closed", async () => {
    const { session_id: sessionId } = await expectReply(await chat({ message: "What is Flex?" }));
    // 48 more messages are stood in by the count, so the file stays inside the public rate limit.
    await db().supportSession.update({ where: { id: sessionId }, data: { messageCount: 49 } });
    await expectReply(await chat({ message: "What does Slice cost?", session_id: sessionId }));
    expect(await sessionRow(sessionId)).toMatchObject({ status: "open", messageCount: 50 });
    await expectApiError(await chat({ message: "One more?", session_id: sessionId }), 409, "support_session_closed");
    const row = await sessionRow(sessionId);
    expect(row).toMatchObject({ status: "closed", messageCount: 50 });
    expect(row.closedAt).toBeInstanceOf(Date);
  });
});

describe("the message body", () => {
  it("refuses an empty message with 422 validation_failed on message (too_small)", async () => {
    const body = await expectApiError(await chat({ message: "" }), 422, "validation_failed");
    expect(body.error.detail).toEqual([{ field: "message", reason: "too_small", message: "message must not be empty." }]);
  });

  it("refuses a whitespace-only message with 422 validation_failed on message (too_small)", async () => {
    const body = await expectApiError(await chat({ message: " \n\t " }), 422, "validation_failed");
    expect(body.error.detail).toEqual([{ field: "message", reason: "too_small", message: "message must not be empty." }]);
  });

  it("refuses a missing message with 422 validation_failed on message (required)", async () => {
    const body = await expectApiError(await chat({}), 422, "validation_failed");
    expect(body.error.detail).toEqual([{ field: "message", reason: "required", message: "message is required." }]);
  });

  it("refuses a 1001-character message with 422 support_message_too_long", async () => {
    const body = await expectApiError(await chat({ message: "a".repeat(1001) }), 422, "support_message_too_long");
    expect(body.error).toMatchObject({
      type: "invalid_request_error",
      retryable: false,
      message: "The message is longer than 1000 characters.",
      detail: [{ field: "message", reason: "too_long", message: "message must be at most 1000 characters." }],
    });
  });

  it("accepts a message of exactly 1000 characters", async () => {
    const body = await expectReply(await chat({ message: `What is Flex? ${"x".repeat(986)}` }));
    expect(body.session_id).toMatch(/^sess_/);
  });

  it("refuses a message with a NUL character with 422 validation_failed on message (invalid_characters)", async () => {
    const body = await expectApiError(await chat({ message: "What is Flex?\u0000" }), 422, "validation_failed");
    expect(body.error.detail).toEqual([{ field: "message", reason: "invalid_characters", message: "message must not contain NUL (U+0000) or unpaired surrogate characters." }]);
  });

  it("refuses a malformed session id with 422 validation_failed on session_id (invalid_format)", async () => {
    const body = await expectApiError(await chat({ message: "Hello", session_id: "abc" }), 422, "validation_failed");
    expect(body.error.detail).toEqual([{ field: "session_id", reason: "invalid_format", message: "session_id must be a support session id (sess_...)." }]);
  });

  it("refuses an unknown field with 400 unknown_field", async () => {
    const body = await expectApiError(await chat({ message: "Hello", name: "Ada" }), 400, "unknown_field");
    expect(body.error.detail).toEqual([{ field: "name", reason: "unknown_field", message: "Unknown field `name`: the fields accepted here are message and session_id." }]);
  });

  it("refuses a body over 8 KiB with 422 request_body_too_large", async () => {
    await expectApiError(await chat({ message: "a".repeat(9 * 1024) }), 422, "request_body_too_large");
  });

  it("answers a message carrying markup with inert HTML that does not echo it", async () => {
    const body = await expectReply(await chat({ message: "<script>alert(1)</script><img src=x onerror=alert(2)> loan" }));
    expect(body.reply).not.toMatch(/<script|onerror|<img|alert\(/);
    expect(body.reply).toContain("Short-term Business Loan (the scale our online quote uses): from £");
  });

  it("answers GET on the chat path with 405 and Allow", async () => {
    const response = await fetch(`${server.url}/public/v1/support/chat`);
    await expectApiError(response, 405, "method_not_allowed");
    expect(response.headers.get("allow")).toBe("POST, OPTIONS");
  });
});

describe("the widget", () => {
  const assets = [
    { path: "widget.js", contentType: "text/javascript; charset=utf-8" },
    { path: "widget.css", contentType: "text/css; charset=utf-8" },
  ];

  it.each(assets)("serves $path with its content type, an hour's caching, an ETag and the widget version", async ({ path, contentType }) => {
    const response = await fetch(`${server.url}/public/v1/support/${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(contentType);
    expect(response.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(response.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(response.headers.get("x-widget-version")).toBe("1.0.0");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect((await response.text()).startsWith("/* Support chat widget 1.0.0 */")).toBe(true);
  });

  it.each(assets)("answers 304 with no body to $path when If-None-Match carries its ETag", async ({ path }) => {
    const first = await fetch(`${server.url}/public/v1/support/${path}`);
    await first.arrayBuffer();
    const etag = first.headers.get("etag")!;
    const revalidated = await fetch(`${server.url}/public/v1/support/${path}`, { headers: { "If-None-Match": `"other", W/${etag}` } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get("etag")).toBe(etag);
    expect(revalidated.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(await revalidated.text()).toBe("");
  });

  it("serves the script again in full when If-None-Match names another version", async () => {
    const response = await fetch(`${server.url}/public/v1/support/widget.js`, { headers: { "If-None-Match": `"an-older-version"` } });
    expect(response.status).toBe(200);
    expect((await response.text()).length).toBeGreaterThan(1000);
  });

  it("keeps the script self-contained: no absolute URLs, and it posts to the chat endpoint on its own origin", async () => {
    const script = await (await fetch(`${server.url}/public/v1/support/widget.js`)).text();
    expect(script).not.toMatch(/https?:\/\//);
    expect(script).toContain(`var CHAT_PATH = "/public/v1/support/chat";`);
    expect(script).toContain(`var STYLE_PATH = "/public/v1/support/widget.css";`);
    expect(script).toContain("new URL(script.src).origin");
    expect(script).not.toMatch(/\beval\(|new Function|document\.write/);
  });

  it("refuses an unknown query parameter on the script with 400 unknown_field", async () => {
    await expectApiError(await fetch(`${server.url}/public/v1/support/widget.js?callback=x`), 400, "unknown_field");
  });
});
