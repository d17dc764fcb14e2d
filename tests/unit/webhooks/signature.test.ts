// Webhook signatures (spec 6.3) and the forwarder's server-sent-events reader. Expected signatures are computed
// here with node:crypto straight from the spec ("<t>.<raw body>", HMAC-SHA256, hex), not with the helper under test.
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { readServerSentEvents } from "@/lib/webhooks/forwarder";
import { SIGNATURE_HEADER, SIGNATURE_TOLERANCE_SECONDS, signWebhookPayload, verifyWebhookSignature, WebhookSignatureError } from "@/lib/webhooks/signature";

const SECRET = "whsec_0123456789ABCDEFGHIJabcdefghij0123456789";
const OLD_SECRET = "whsec_ZYXWVUTSRQponmlkjihg9876543210ZYXWVUTSRQ";
const T = 1_798_761_600; // 2027-01-01T00:00:00Z
// A body as the platform sends it: compact JSON, with non-ASCII text to make bytes and characters differ.
const BODY = '{"id":"evt_01jabcdefghjkmnpqrstvwxyz0","object":"event","type":"application.created","data":{"object":{"name":"Café £ Ltd"}}}';

function independentHmac(secret: string, timestamp: number, body: string | Uint8Array): string {
  return createHmac("sha256", secret).update(Buffer.concat([Buffer.from(`${timestamp}.`, "utf8"), Buffer.from(body)])).digest("hex");
}

/** The error code `work` throws with, failing the test if it returns or throws something else. */
function signatureErrorOf(work: () => unknown): string {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookSignatureError);
    return (error as WebhookSignatureError).code;
  }
  throw new Error("expected a WebhookSignatureError, but verification passed");
}

describe("signWebhookPayload", () => {
  it("produces t=<timestamp>,v1=<hex HMAC-SHA256 of \"<t>.<body>\">", () => {
    expect(signWebhookPayload(BODY, [SECRET], T)).toBe(`t=${T},v1=${independentHmac(SECRET, T, BODY)}`);
  });

  it("signs bytes exactly as it signs the same text", () => {
    const bytes = new TextEncoder().encode(BODY);
    expect(signWebhookPayload(bytes, [SECRET], T)).toBe(`t=${T},v1=${independentHmac(SECRET, T, bytes)}`);
    expect(signWebhookPayload(bytes, [SECRET], T)).toBe(signWebhookPayload(BODY, [SECRET], T));
  });

  it("gives one v1 per secret, in the order given, during a roll's overlap", () => {
    expect(signWebhookPayload(BODY, [SECRET, OLD_SECRET], T)).toBe(`t=${T},v1=${independentHmac(SECRET, T, BODY)},v1=${independentHmac(OLD_SECRET, T, BODY)}`);
  });

  it("refuses to sign with no secret", () => {
    expect(() => signWebhookPayload(BODY, [], T)).toThrow("at least one secret is needed to sign");
  });

  it("names the header Service-Signature with a 300-second tolerance", () => {
    expect(SIGNATURE_HEADER).toBe("Service-Signature");
    expect(SIGNATURE_TOLERANCE_SECONDS).toBe(300);
  });
});

describe("verifyWebhookSignature", () => {
  const header = `t=${T},v1=${independentHmac(SECRET, T, BODY)}`;

  it("accepts the raw body as a string and returns the parsed event", () => {
    expect(verifyWebhookSignature({ payload: BODY, header, secret: SECRET, now: T })).toEqual(JSON.parse(BODY));
  });

  it("accepts the raw body as bytes and returns the parsed event", () => {
    const bytes = new TextEncoder().encode(BODY);
    const event = verifyWebhookSignature<{ data: { object: { name: string } } }>({ payload: bytes, header, secret: SECRET, now: T });
    expect(event).toEqual(JSON.parse(BODY));
    expect(event.data.object.name).toBe("Café £ Ltd");
  });

  it("accepts a header signed by signWebhookPayload", () => {
    expect(verifyWebhookSignature({ payload: BODY, header: signWebhookPayload(BODY, [SECRET], T), secret: SECRET, now: T })).toEqual(JSON.parse(BODY));
  });

  it("accepts when any v1 matches: the valid one first or second", () => {
    const valid = independentHmac(SECRET, T, BODY);
    const other = independentHmac(OLD_SECRET, T, BODY);
    expect(verifyWebhookSignature({ payload: BODY, header: `t=${T},v1=${valid},v1=${other}`, secret: SECRET, now: T })).toEqual(JSON.parse(BODY));
    expect(verifyWebhookSignature({ payload: BODY, header: `t=${T},v1=${other},v1=${valid}`, secret: SECRET, now: T })).toEqual(JSON.parse(BODY));
  });

  it("accepts a header whose parts are separated by spaces too", () => {
    expect(verifyWebhookSignature({ payload: BODY, header: `t=${T}, v1=${independentHmac(SECRET, T, BODY)}`, secret: SECRET, now: T })).toEqual(JSON.parse(BODY));
  });

  it("rejects the same event re-serialised with different whitespace as webhook_signature_invalid", () => {
    const reserialised = JSON.stringify(JSON.parse(BODY), null, 2);
    expect(JSON.parse(reserialised)).toEqual(JSON.parse(BODY));
    expect(signatureErrorOf(() => verifyWebhookSignature({ payload: reserialised, header, secret: SECRET, now: T }))).toBe("webhook_signature_invalid");
  });

  it("rejects a tampered body as webhook_signature_invalid", () => {
    const tampered = BODY.replace("application.created", "application.approved");
    expect(signatureErrorOf(() => verifyWebhookSignature({ payload: tampered, header, secret: SECRET, now: T }))).toBe("webhook_signature_invalid");
  });

  it("rejects a signature made with another secret as webhook_signature_invalid", () => {
    expect(signatureErrorOf(() => verifyWebhookSignature({ payload: BODY, header, secret: OLD_SECRET, now: T }))).toBe("webhook_signature_invalid");
  });

  it("rejects a header whose t was changed after signing as webhook_signature_invalid", () => {
    const moved = `t=${T + 1},v1=${independentHmac(SECRET, T, BODY)}`;
    expect(signatureErrorOf(() => verifyWebhookSignature({ payload: BODY, header: moved, secret: SECRET, now: T }))).toBe("webhook_signature_invalid");
  });

  it.each([
    ["300 s old", -300],
    ["300 s ahead", 300],
  ])("accepts a timestamp %s (the boundary)", (_, offset) => {
    const signed = signWebhookPayload(BODY, [SECRET], T + offset);
    expect(verifyWebhookSignature({ payload: BODY, header: signed, secret: SECRET, now: T })).toEqual(JSON.parse(BODY));
  });

  it.each([
    ["301 s old", -301],
    ["301 s ahead", 301],
    ["a day old", -86_400],
  ])("rejects a correctly signed timestamp %s as webhook_signature_invalid", (_, offset) => {
    const signed = signWebhookPayload(BODY, [SECRET], T + offset);
    expect(signatureErrorOf(() => verifyWebhookSignature({ payload: BODY, header: signed, secret: SECRET, now: T }))).toBe("webhook_signature_invalid");
  });

  it("honours a custom tolerance", () => {
    const signed = signWebhookPayload(BODY, [SECRET], T - 10);
    expect(signatureErrorOf(() => verifyWebhookSignature({ payload: BODY, header: signed, secret: SECRET, now: T, toleranceSeconds: 5 }))).toBe("webhook_signature_invalid");
    expect(verifyWebhookSignature({ payload: BODY, header: signed, secret: SECRET, now: T, toleranceSeconds: 10 })).toEqual(JSON.parse(BODY));
  });

  it("checks the timestamp against the platform clock when no now is given", () => {
    freezeClock(new Date(T * 1000));
    const fresh = T;
    expect(verifyWebhookSignature({ payload: BODY, header: signWebhookPayload(BODY, [SECRET], fresh), secret: SECRET })).toEqual(JSON.parse(BODY));
    expect(signatureErrorOf(() => verifyWebhookSignature({ payload: BODY, header: signWebhookPayload(BODY, [SECRET], fresh - 600), secret: SECRET }))).toBe(
      "webhook_signature_invalid",
    );
  });

  it.each([
    ["null", null],
    ["undefined", undefined],
    ["empty", ""],
  ])("treats a %s header as webhook_signature_missing", (_, missing) => {
    expect(signatureErrorOf(() => verifyWebhookSignature({ payload: BODY, header: missing, secret: SECRET, now: T }))).toBe("webhook_signature_missing");
  });

  it("treats a header without t as webhook_signature_missing", () => {
    expect(signatureErrorOf(() => verifyWebhookSignature({ payload: BODY, header: `v1=${independentHmac(SECRET, T, BODY)}`, secret: SECRET, now: T }))).toBe(
      "webhook_signature_missing",
    );
  });

  it("treats a header with a non-numeric t as webhook_signature_missing", () => {
    const header = `t=yesterday,v1=${independentHmac(SECRET, T, BODY)}`;
    expect(signatureErrorOf(() => verifyWebhookSignature({ payload: BODY, header, secret: SECRET, now: T }))).toBe("webhook_signature_missing");
  });

  it("treats a header without v1 as webhook_signature_missing", () => {
    expect(signatureErrorOf(() => verifyWebhookSignature({ payload: BODY, header: `t=${T}`, secret: SECRET, now: T }))).toBe("webhook_signature_missing");
    // Only v1 counts: a signature under another scheme name is no signature at all.
    const v0 = `t=${T},v0=${independentHmac(SECRET, T, BODY)}`;
    expect(signatureErrorOf(() => verifyWebhookSignature({ payload: BODY, header: v0, secret: SECRET, now: T }))).toBe("webhook_signature_missing");
  });

  it("ignores malformed v1 values and still accepts a valid one beside them", () => {
    const valid = independentHmac(SECRET, T, BODY);
    const header = `t=${T},v1=not-hex,v1=${valid.slice(0, 63)},v1=${valid}zz,v1=${valid}`;
    expect(verifyWebhookSignature({ payload: BODY, header, secret: SECRET, now: T })).toEqual(JSON.parse(BODY));
  });

  it("treats a header whose only v1 values are malformed as webhook_signature_missing", () => {
    const valid = independentHmac(SECRET, T, BODY);
    const header = `t=${T},v1=not-hex,v1=${valid.slice(0, 62)}`;
    expect(signatureErrorOf(() => verifyWebhookSignature({ payload: BODY, header, secret: SECRET, now: T }))).toBe("webhook_signature_missing");
  });

  it("gives the error the WebhookSignatureError name and a message", () => {
    try {
      verifyWebhookSignature({ payload: BODY, header, secret: OLD_SECRET, now: T });
      throw new Error("verification passed");
    } catch (error) {
      expect(error).toMatchObject({ name: "WebhookSignatureError", code: "webhook_signature_invalid", message: "No signature matches the payload." });
    }
  });
});

describe("readServerSentEvents", () => {
  function streamOf(chunks: Array<string | Uint8Array>): ReadableStream<Uint8Array> {
    const encoder = new TextEncoder();
    return new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
        controller.close();
      },
    });
  }

  async function framesOf(chunks: Array<string | Uint8Array>) {
    const frames = [];
    for await (const frame of readServerSentEvents(streamOf(chunks))) frames.push(frame);
    return frames;
  }

  it("reads the frames the platform's stream writes: id, event and data", async () => {
    expect(
      await framesOf([": streaming events of proj_x (sandbox)\nretry: 1000\n\n", 'id: evt_1\nevent: application.created\ndata: {"id":"evt_1"}\n\n', 'id: evt_2\nevent: decision.completed\ndata: {"id":"evt_2"}\n\n']),
    ).toEqual([
      { id: "evt_1", event: "application.created", data: '{"id":"evt_1"}' },
      { id: "evt_2", event: "decision.completed", data: '{"id":"evt_2"}' },
    ]);
  });

  it("joins a frame split across chunks, even inside a multi-byte character", async () => {
    const frame = 'id: evt_1\nevent: application.created\ndata: {"name":"Café £ Ltd"}\n\n';
    const bytes = new TextEncoder().encode(frame);
    const pound = bytes.indexOf(0xc2);
    const chunks = [bytes.slice(0, 5), bytes.slice(5, pound + 1), bytes.slice(pound + 1, bytes.length - 1), bytes.slice(bytes.length - 1)];
    expect(await framesOf(chunks)).toEqual([{ id: "evt_1", event: "application.created", data: '{"name":"Café £ Ltd"}' }]);
  });

  it("splits several frames arriving in one chunk", async () => {
    expect(await framesOf(["id: a\ndata: 1\n\nid: b\ndata: 2\n\nid: c\ndata: 3\n\n"])).toEqual([
      { id: "a", data: "1" },
      { id: "b", data: "2" },
      { id: "c", data: "3" },
    ]);
  });

  it("skips comments: heartbeat frames and comment lines inside a frame", async () => {
    expect(await framesOf([": heartbeat\n\n", "id: a\n: a remark\nevent: t\ndata: x\n\n", ": heartbeat\n\n"])).toEqual([{ id: "a", event: "t", data: "x" }]);
  });

  it("joins multi-line data with \\n", async () => {
    expect(await framesOf(["id: a\nevent: t\ndata: first\ndata: second\ndata:\ndata: fourth\n\n"])).toEqual([{ id: "a", event: "t", data: "first\nsecond\n\nfourth" }]);
  });

  it("strips one space after the colon and keeps the rest of the value, colons included", async () => {
    expect(await framesOf(["id:a\ndata:  two spaces: and a colon\n\n"])).toEqual([{ id: "a", data: " two spaces: and a colon" }]);
  });

  it("yields nothing for a frame with neither data nor id, such as the retry hint", async () => {
    expect(await framesOf(["retry: 1000\n\n", ": heartbeat\n\n"])).toEqual([]);
  });

  it("yields a cursor without data for a frame with an id and no data (the stream's starting point)", async () => {
    expect(await framesOf([": streaming\nretry: 1000\nid: evt_a\n\n", "id: b\nevent: t\n\n"])).toEqual([
      { id: "evt_a", data: null },
      { id: "b", data: null },
    ]);
  });

  it("drops an unterminated frame at the end of the stream", async () => {
    expect(await framesOf(["id: a\ndata: 1\n\n", "id: b\ndata: 2\n"])).toEqual([{ id: "a", data: "1" }]);
  });

  // The SSE format also allows CRLF and CR line endings; the platform's stream writes "\n" only, and this reader
  // splits frames on "\n\n" only, so a CRLF stream never completes a frame.
  it("does not recognise CRLF line endings: a CRLF-framed stream yields no frames", async () => {
    expect(await framesOf(["id: a\r\nevent: t\r\ndata: x\r\n\r\n", "id: b\r\ndata: y\r\n\r\n"])).toEqual([]);
  });
});
