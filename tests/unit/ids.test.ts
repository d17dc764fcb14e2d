import { describe, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { ID_PREFIXES, isIdOf, newId, randomToken } from "@/lib/ids";

describe("prefixed ids", () => {
  it("carries the spec's prefix for each kind", () => {
    expect(newId("application")).toMatch(/^app_[0-9a-z]{26}$/);
    expect(newId("webhookEndpoint")).toMatch(/^whe_[0-9a-z]{26}$/);
    expect(newId("oauthClient")).toMatch(/^svc_client_[0-9a-z]{26}$/);
    expect(Object.values(ID_PREFIXES)).toEqual(expect.arrayContaining(["dec", "acc", "evt", "key", "cor", "req", "pay", "txn"]));
  });

  it("sorts by creation time, even many within one millisecond", () => {
    freezeClock("2026-01-01T00:00:00.000Z");
    const sameInstant = Array.from({ length: 200 }, () => newId("event"));
    expect([...sameInstant].sort()).toEqual(sameInstant);
  });

  it("never sorts a later id before an earlier one when the clock moves back", () => {
    const clock = freezeClock("2027-06-01T00:00:00.000Z");
    const first = newId("event");
    clock.set("2020-01-01T00:00:00.000Z");
    const second = newId("event");
    expect(second > first).toBe(true);
  });

  it("encodes the creation time in its leading characters", () => {
    freezeClock("2031-01-01T00:00:00.000Z");
    const early = newId("payment");
    freezeClock("2032-01-01T00:00:00.000Z");
    const late = newId("payment");
    expect(early.slice(4, 14) < late.slice(4, 14)).toBe(true);
  });

  it("recognises ids of a kind and rejects others", () => {
    expect(isIdOf("application", newId("application"))).toBe(true);
    expect(isIdOf("application", newId("decision"))).toBe(false);
    expect(isIdOf("application", "app_short")).toBe(false);
    expect(isIdOf("application", `app_${"U".repeat(26)}`)).toBe(false);
    expect(isIdOf("oauthClient", newId("oauthClient"))).toBe(true);
  });
});

describe("random tokens", () => {
  it("are base62 of the requested length and do not repeat", () => {
    const tokens = new Set(Array.from({ length: 500 }, () => randomToken(40)));
    expect(tokens.size).toBe(500);
    for (const token of tokens) expect(token).toMatch(/^[0-9A-Za-z]{40}$/);
  });
});
