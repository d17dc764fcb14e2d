// Responses made whole (lib/wire/whole-body.ts) read as the web Responses they stand for, whoever reads them: the
// same status, headers and body through every reader, one read only, and a clone that reads again.
import { describe, expect, it } from "vitest";
import { jsonResponse, wholeBodyOf, wholeBodyResponse } from "@/lib/wire/whole-body";

const readers = {
  text: (response: Response) => response.text(),
  json: (response: Response) => response.json(),
  arrayBuffer: async (response: Response) => new TextDecoder().decode(await response.arrayBuffer()),
  bytes: async (response: Response) => new TextDecoder().decode(await response.bytes()),
  blob: async (response: Response) => (await response.blob()).text(),
  stream: async (response: Response) => new Response(response.body).text(),
};

describe("a response made whole", () => {
  const value = { café: "£1", list: [1, 2] };

  for (const [name, read] of Object.entries(readers)) {
    it(`reads as Response.json's through ${name}, with its headers`, async () => {
      const whole = jsonResponse(value, { status: 201, headers: { "x-kind": "whole" } });
      const standard = Response.json(value, { status: 201, headers: { "x-kind": "whole" } });
      expect([whole.status, [...whole.headers]]).toEqual([standard.status, [...standard.headers]]);
      expect(whole.bodyUsed).toBe(false);
      expect(await read(whole)).toEqual(await read(standard));
      expect(whole.bodyUsed).toBe(true);
      await expect(whole.text()).rejects.toThrow(TypeError);
    });
  }

  it("keeps the text it was made with for the server to write, and says no other response has one", () => {
    expect(wholeBodyOf(jsonResponse(value))).toBe(JSON.stringify(value));
    const bytes = new TextEncoder().encode("{}");
    expect(wholeBodyOf(wholeBodyResponse(bytes, { headers: { "content-type": "application/json" } }))).toBe(bytes);
    expect(wholeBodyOf(Response.json(value))).toBeUndefined();
    expect(wholeBodyOf(new Response(null, { status: 204 }))).toBeUndefined();
  });

  it("names a type as new Response does: plain text for a string, none for bytes, the caller's when given", () => {
    expect(wholeBodyResponse("hello", {}).headers.get("content-type")).toBe(new Response("hello").headers.get("content-type"));
    expect(wholeBodyResponse(new Uint8Array([1]), {}).headers.get("content-type")).toBeNull();
    expect(wholeBodyResponse("<p>hi</p>", { headers: { "content-type": "text/html" } }).headers.get("content-type")).toBe("text/html");
    expect(jsonResponse(value, { headers: { "content-type": "application/problem+json" } }).headers.get("content-type")).toBe("application/problem+json");
  });

  it("clones to a response that reads again, and refuses to clone one already read", async () => {
    const whole = jsonResponse(value, { status: 202 });
    const copy = whole.clone();
    expect(await whole.json()).toEqual(value);
    expect([copy.status, await copy.json()]).toEqual([202, value]);
    expect(() => whole.clone()).toThrow(TypeError);
  });

  it("refuses a body on a status that may carry none, and a value JSON cannot write, as Response does", () => {
    expect(() => wholeBodyResponse("x", { status: 204 })).toThrow(TypeError);
    expect(() => new Response("x", { status: 204 })).toThrow(TypeError);
    expect(() => jsonResponse(undefined)).toThrow(TypeError);
  });
});
