// Every kind of zod issue becomes a detail item whose message is a sentence naming the field and the rule
// (lib/wire/validation.ts), never zod's own text; a body that is empty or not an object says so.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiError } from "@/lib/errors";
import { metadataSchema } from "@/lib/wire/metadata";
import { requestString } from "@/lib/wire/request-string";
import { parseWith } from "@/lib/wire/validation";

const probe = z.strictObject({
  count: z.int().min(1).max(10).optional(),
  ratio: z.number().positive().max(1).optional(),
  step: z.number().multipleOf(5).optional(),
  name: requestString().min(1).max(5).optional(),
  code: requestString().length(3).optional(),
  id: requestString().startsWith("app_").optional(),
  slug: requestString().regex(/^[a-z]+$/).optional(),
  email: z.email().optional(),
  url: requestString().pipe(z.url()).optional(),
  at: z.iso.datetime({ offset: true }).optional(),
  on: z.iso.date().optional(),
  colour: z.enum(["red", "green", "blue"]).optional(),
  kind: z.literal("probe").optional(),
  flag: z.boolean().optional(),
  tags: z.array(requestString()).min(1).max(2).optional(),
  nested: z.strictObject({ inner: requestString() }).optional(),
  needed: requestString(),
});

function failure(input: unknown, schema: z.ZodType = probe): ApiError {
  try {
    parseWith(schema, input);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("the input was accepted");
}

const detailOf = (input: unknown, schema?: z.ZodType) => failure(input, schema).detail;
const base = { needed: "x" };

describe("validation messages", () => {
  it.each([
    ["a missing field", {}, { field: "needed", reason: "required", message: "needed is required." }],
    ["a missing nested field", { ...base, nested: {} }, { field: "nested.inner", reason: "required", message: "nested.inner is required." }],
    ["a string for an integer", { ...base, count: "3" }, { field: "count", reason: "invalid_type", message: "count must be an integer, not a string." }],
    ["a fraction for an integer", { ...base, count: 2.5 }, { field: "count", reason: "not_integer", message: "count must be an integer, not 2.5." }],
    ["null for a string", { needed: null }, { field: "needed", reason: "invalid_type", message: "needed must be a string, not null." }],
    ["a number for a string", { needed: 7 }, { field: "needed", reason: "invalid_type", message: "needed must be a string, not a number." }],
    ["a string for a boolean", { ...base, flag: "yes" }, { field: "flag", reason: "invalid_type", message: "flag must be true or false, not a string." }],
    ["an array for an object", { ...base, nested: [] }, { field: "nested", reason: "invalid_type", message: "nested must be an object, not an array." }],
    ["an object for an array", { ...base, tags: {} }, { field: "tags", reason: "invalid_type", message: "tags must be an array, not an object." }],
    ["an integer below its minimum", { ...base, count: 0 }, { field: "count", reason: "too_small", message: "count must be at least 1." }],
    ["an integer above its maximum", { ...base, count: 11 }, { field: "count", reason: "too_large", message: "count must be at most 10." }],
    ["zero for a positive number", { ...base, ratio: 0 }, { field: "ratio", reason: "too_small", message: "ratio must be greater than 0." }],
    ["a number off its step", { ...base, step: 7 }, { field: "step", reason: "invalid", message: "step must be a multiple of 5." }],
    ["an empty string", { ...base, name: "" }, { field: "name", reason: "too_small", message: "name must not be empty." }],
    ["a string too long", { ...base, name: "abcdef" }, { field: "name", reason: "too_large", message: "name must be at most 5 characters long." }],
    ["a string of the wrong exact length", { ...base, code: "ab" }, { field: "code", reason: "too_small", message: "code must be exactly 3 characters long." }],
    ["a string without its prefix", { ...base, id: "dec_1" }, { field: "id", reason: "invalid_format", message: "id must start with app_." }],
    ["a string off its pattern", { ...base, slug: "A1" }, { field: "slug", reason: "invalid_format", message: "slug is not in the expected format." }],
    ["a bad email", { ...base, email: "someone" }, { field: "email", reason: "invalid_email", message: "email must be an email address, such as name@example.co.uk." }],
    ["a bad URL", { ...base, url: "not a url" }, { field: "url", reason: "invalid_url", message: "url must be a full URL, such as https://example.com/path." }],
    ["a bad timestamp", { ...base, at: "yesterday" }, { field: "at", reason: "invalid_timestamp", message: "at must be an RFC 3339 timestamp, such as 2026-01-31T09:30:00Z." }],
    ["a bad date", { ...base, on: "31/01/2026" }, { field: "on", reason: "invalid_date", message: "on must be a date as YYYY-MM-DD, such as 2026-01-31." }],
    ["a value outside an enum", { ...base, colour: "mauve" }, { field: "colour", reason: "invalid_value", message: "colour must be one of red, green or blue." }],
    ["a value other than a literal", { ...base, kind: "other" }, { field: "kind", reason: "invalid_value", message: "kind must be probe." }],
    ["an empty array", { ...base, tags: [] }, { field: "tags", reason: "too_small", message: "tags must have at least one item." }],
    ["an array too long", { ...base, tags: ["a", "b", "c"] }, { field: "tags", reason: "too_large", message: "tags must have at most 2 items." }],
    ["a bad array item", { ...base, tags: ["a", 5] }, { field: "tags.1", reason: "invalid_type", message: "tags.1 must be a string, not a number." }],
  ])("names the field and the rule for %s", (_, input, item) => {
    expect(detailOf(input)).toEqual([item]);
  });

  it("gives the top-level message the field sentences, so a client that shows only the message shows them", () => {
    const error = failure({ count: 0 });
    expect(error.code).toBe("validation_failed");
    expect(error.message).toBe("count must be at least 1. needed is required.");
  });

  it("names each unknown field and the fields accepted beside it", () => {
    const error = failure({ ...base, colour: "red", size: 3, nested: { inner: "x", outer: 1 } });
    expect(error.code).toBe("unknown_field");
    expect(error.message).toBe("Unknown field(s): nested.outer, size.");
    expect(error.detail).toEqual([
      { field: "nested.outer", reason: "unknown_field", message: "Unknown field `nested.outer`: the only field accepted here is inner." },
      { field: "size", reason: "unknown_field", message: expect.stringMatching(/^Unknown field `size`: the fields accepted here are count, ratio, step, .*, nested and needed\.$/) },
    ]);
  });

  it("names a record key that breaks its rule by the record and the key", () => {
    const schema = z.strictObject({ metadata: metadataSchema });
    expect(detailOf({ metadata: { ["k".repeat(41)]: "v", ok: "v" } }, schema)).toEqual([
      { field: `metadata.${"k".repeat(41)}`, reason: "too_large", message: `The metadata key "${"k".repeat(41)}" must be at most 40 characters long.` },
    ]);
    expect(detailOf({ metadata: { "": "v" } }, schema)).toEqual([{ field: "metadata.", reason: "too_small", message: 'The metadata key "" must not be empty.' }]);
    expect(detailOf({ metadata: { note: 7 } }, schema)).toEqual([{ field: "metadata.note", reason: "invalid_type", message: "metadata.note must be a string, not a number." }]);
  });

  it("says when no field is accepted at all", () => {
    expect(detailOf({ surprise: true }, z.strictObject({}))).toEqual([{ field: "surprise", reason: "unknown_field", message: "Unknown field `surprise`: no fields are accepted here." }]);
  });

  it("prefers the schema's own message, such as a range that names its units", () => {
    const schema = z.strictObject({ amount_pence: z.int().min(100, { error: "amount_pence must be between 100 and 200 (£1 to £2)." }).max(200) });
    expect(detailOf({ amount_pence: 99 }, schema)).toEqual([{ field: "amount_pence", reason: "too_small", message: "amount_pence must be between 100 and 200 (£1 to £2)." }]);
  });
});

describe("a body that is empty or not an object", () => {
  it("says an empty body is empty", () => {
    expect(detailOf(undefined)).toEqual([{ reason: "required", message: "The request body is empty: send a JSON object." }]);
  });

  it.each([
    ["an array", [base], "an array"],
    ["a string", "hello", "a string"],
    ["a number", 42, "a number"],
    ["null", null, "null"],
    ["true", true, "a boolean"],
  ])("says a body that is %s must be a JSON object", (_, input, kind) => {
    expect(detailOf(input)).toEqual([{ reason: "invalid_type", message: `The request body must be a JSON object, not ${kind}.` }]);
  });

  it("says so for an endpoint whose body is optional too", () => {
    expect(detailOf([1], probe.optional())).toEqual([{ reason: "invalid_type", message: "The request body must be a JSON object, not an array." }]);
  });
});
