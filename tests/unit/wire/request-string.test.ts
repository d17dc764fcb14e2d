// The one string schema for input from outside (lib/wire/request-string.ts): text PostgreSQL can store as sent
// is accepted, NUL and unpaired surrogates are refused with the reason the envelope reports.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { requestString } from "@/lib/wire/request-string";
import { parseWith } from "@/lib/wire/validation";

const note = z.strictObject({ note: requestString().max(5) });

function detailFor(value: string) {
  try {
    parseWith(note, { note: value });
  } catch (error) {
    return (error as { code: string; detail?: unknown }).detail;
  }
  return "accepted";
}

describe("requestString", () => {
  it.each([
    ["an empty string", ""],
    ["accented letters and an emoji (a surrogate pair)", "café🙂"],
    ["other control characters", "a\tb\u0001"],
  ])("accepts %s", (_, value) => {
    expect(detailFor(value)).toBe("accepted");
  });

  it.each([
    ["a NUL", "a\u0000b"],
    ["a lone high surrogate", "a\ud83d"],
    ["a lone low surrogate", "\ude00a"],
    ["surrogates in the wrong order", "\ude00\ud83d"],
  ])("refuses %s as invalid_characters, and reports nothing else about the value", (_, value) => {
    expect(detailFor(`${value}, and longer than five`)).toEqual([
      { field: "note", reason: "invalid_characters", message: "note must not contain NUL (U+0000) or unpaired surrogate characters." },
    ]);
  });

  it("keeps the checks chained after it", () => {
    expect(detailFor("longer than five")).toEqual([expect.objectContaining({ field: "note", reason: "too_large" })]);
  });
});
