// Requests that keep Node's body stream (lib/wire/node-body-request.ts): the route builder's body reader takes
// the stream directly; every web reader sees the request a web Request made from the same body would be.
import { PassThrough, Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readBody } from "@/lib/http/body";
import { ClientAbortedError } from "@/lib/wire/error-outcome";
import { nodeBodyOf, nodeBodyRequest } from "@/lib/wire/node-body-request";

const URL_OF = new URL("http://127.0.0.1/partner/v1/applications");
const BODY = JSON.stringify({ amount_pence: 2_500_000, note: "café £1" });

function posted(body: string | Readable, headers: Record<string, string> = { "content-type": "application/json" }): Request {
  const stream = typeof body === "string" ? Readable.from([Buffer.from(body.slice(0, 9)), Buffer.from(body.slice(9))]) : body;
  return nodeBodyRequest(URL_OF, { method: "POST", headers }, stream);
}

const readers = {
  text: (request: Request) => request.text(),
  json: async (request: Request) => JSON.stringify(await request.json()),
  arrayBuffer: async (request: Request) => new TextDecoder().decode(await request.arrayBuffer()),
  bytes: async (request: Request) => new TextDecoder().decode(await request.bytes()),
  blob: async (request: Request) => (await request.blob()).text(),
  stream: async (request: Request) => new Response(request.body).text(),
  clone: (request: Request) => request.clone().text(),
};

describe("a request that keeps Node's body stream", () => {
  it("is read by the route builder from Node's stream, in every chunk, as one body", async () => {
    const request = posted(BODY);
    expect(nodeBodyOf(request)).toBeInstanceOf(Readable);
    expect(request.bodyUsed).toBe(false);
    expect(await readBody(request, { format: "json", limit: 1024, ring: "partner" })).toEqual(JSON.parse(BODY));
    expect(request.bodyUsed).toBe(true);
  });

  for (const [name, read] of Object.entries(readers)) {
    it(`reads through ${name} as a web Request with the same body, and then no longer offers Node's stream`, async () => {
      const request = posted(BODY);
      expect([request.method, request.url, request.headers.get("content-type")]).toEqual(["POST", URL_OF.href, "application/json"]);
      expect(await read(request)).toBe(BODY);
      expect(nodeBodyOf(request)).toBeUndefined();
    });
  }

  it("is read by the route builder through the web stream once a web reader has asked for the body", async () => {
    const request = posted(BODY);
    expect(request.body).toBeInstanceOf(ReadableStream);
    expect(await readBody(request, { format: "json", limit: 1024, ring: "partner" })).toEqual(JSON.parse(BODY));
  });

  it("refuses an oversize body and destroys Node's stream past the drain bound", async () => {
    const stream = new PassThrough();
    const request = posted(stream);
    const reading = readBody(request, { format: "json", limit: 10, ring: "partner" });
    for (let chunk = 0; chunk < 20; chunk += 1) stream.write(Buffer.alloc(10, 0x61));
    await expect(reading).rejects.toMatchObject({ code: "payload_too_large", message: "The request body exceeds the 10-byte limit." });
    expect(stream.destroyed).toBe(true);
  });

  it("refuses a declared length past the drain bound before reading, and destroys the stream", async () => {
    const stream = new PassThrough();
    const request = posted(stream, { "content-type": "application/json", "content-length": "1000" });
    await expect(readBody(request, { format: "json", limit: 10, ring: "public" })).rejects.toMatchObject({ code: "request_body_too_large", message: "The request body exceeds the 10-byte limit." });
    expect(stream.destroyed).toBe(true);
  });

  it("says the client left when the connection fails mid-body", async () => {
    const stream = new PassThrough();
    const request = posted(stream);
    const reading = readBody(request, { format: "json", limit: 1024, ring: "partner" });
    stream.write("{\"amount");
    stream.destroy(new Error("socket hang up"));
    await expect(reading).rejects.toBeInstanceOf(ClientAbortedError);
  });
});
