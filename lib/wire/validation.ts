// Turns zod issues into the envelope's errors: unknown fields are 400 `unknown_field`, everything else is
// 422 `validation_failed`, each with one `detail` item per field (`field` is a dotted path) whose message is a
// sentence naming the field and the rule ("amount_pence must be an integer, not a string."), never zod's own
// text. A schema may give its own message (a range with its units, a format with an example); every other
// issue gets one from `describeIssue`, the error map every request is parsed with.
import type { z } from "zod";
import { ApiError, type ErrorDetail } from "../errors";

type Issue = z.core.$ZodIssue;
type RawIssue = z.core.$ZodRawIssue;

const INTEGER_FORMATS = new Set(["safeint", "int32", "uint32", "int64", "uint64"]);

function dottedPath(path: ReadonlyArray<PropertyKey>): string {
  return path.map(String).join(".");
}

/** How a message names the field at `path`: its dotted path, or the body itself at the top. */
export function fieldLabel(path: ReadonlyArray<PropertyKey> | undefined): string {
  return path && path.length > 0 ? dottedPath(path) : "The request body";
}

function valueAt(input: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** What a value is, as a sentence says it: "a string", "an array", "null". */
function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "number" && Number.isFinite(value) && !Number.isInteger(value)) return String(value);
  return `a ${typeof value}`;
}

/** "a, b or c" (or "a, b and c"): strings as they are, other values as JSON. */
function listed(values: ReadonlyArray<unknown>, conjunction: "or" | "and" = "or"): string {
  const shown = values.map((value) => (typeof value === "string" ? value : JSON.stringify(value)));
  return shown.length <= 1 ? (shown[0] ?? "") : `${shown.slice(0, -1).join(", ")} ${conjunction} ${shown.at(-1)}`;
}

/** The internals zod leaves on an issue while its message is chosen: the schema or check that failed. */
function definitionOf(issue: RawIssue): Record<string, unknown> {
  return ((issue.inst as { _zod?: { def?: Record<string, unknown> } } | undefined)?._zod?.def ?? {}) as Record<string, unknown>;
}

function describeType(issue: Extract<RawIssue, { code: "invalid_type" }>, field: string): string {
  const input = issue.input;
  const top = !issue.path || issue.path.length === 0;
  if (top && input === undefined) return "The request body is empty: send a JSON object.";
  if (input === undefined) return `${field} is required.`;
  if (top && issue.expected === "object") return `The request body must be a JSON object, not ${kindOf(input)}.`;
  const integer = issue.expected === "int" || INTEGER_FORMATS.has(String(definitionOf(issue).format));
  if (integer && typeof input === "number") return `${field} must be an integer, not ${kindOf(input)}.`;
  const expected: Record<string, string> = {
    string: "a string",
    number: "a number",
    boolean: "true or false",
    object: "an object",
    array: "an array",
    record: "an object",
    date: "a date",
    null: "null",
  };
  const wanted = integer ? "an integer" : (expected[issue.expected] ?? `a ${issue.expected}`);
  return `${field} must be ${wanted}, not ${kindOf(input)}.`;
}

function describeSize(issue: Extract<RawIssue, { code: "too_small" | "too_big" }>, field: string): string {
  const small = issue.code === "too_small";
  const bound = Number(small ? issue.minimum : issue.maximum);
  const exact = "exact" in issue && issue.exact;
  switch (issue.origin) {
    case "string":
      if (exact) return `${field} must be exactly ${bound} characters long.`;
      if (small && bound === 1) return `${field} must not be empty.`;
      return `${field} must be at ${small ? "least" : "most"} ${bound} characters long.`;
    case "array":
    case "set":
      if (exact) return `${field} must have exactly ${bound} ${bound === 1 ? "item" : "items"}.`;
      if (small && bound === 1) return `${field} must have at least one item.`;
      return `${field} must have at ${small ? "least" : "most"} ${bound} ${bound === 1 ? "item" : "items"}.`;
    default:
      if (!issue.inclusive) return `${field} must be ${small ? "greater" : "less"} than ${bound}.`;
      return `${field} must be at ${small ? "least" : "most"} ${bound}.`;
  }
}

function describeFormat(issue: Extract<RawIssue, { code: "invalid_format" }>, field: string): string {
  switch (issue.format) {
    case "email":
      return `${field} must be an email address, such as name@example.co.uk.`;
    case "url":
      return `${field} must be a full URL, such as https://example.com/path.`;
    case "datetime":
      return `${field} must be an RFC 3339 timestamp, such as 2026-01-31T09:30:00Z.`;
    case "date":
      return `${field} must be a date as YYYY-MM-DD, such as 2026-01-31.`;
    case "starts_with":
      return `${field} must start with ${(issue as { prefix?: string }).prefix}.`;
    case "ends_with":
      return `${field} must end with ${(issue as { suffix?: string }).suffix}.`;
    case "includes":
      return `${field} must include ${(issue as { includes?: string }).includes}.`;
    case "regex":
      return `${field} is not in the expected format.`;
    default:
      return `${field} must be a valid ${issue.format}.`;
  }
}

/** The accepted fields beside an unknown one; `detailFor` names each unknown field before it. */
function describeUnknownKeys(issue: RawIssue): string {
  const shape = definitionOf(issue).shape;
  const accepted = shape && typeof shape === "object" ? Object.keys(shape) : [];
  if (accepted.length === 0) return "no fields are accepted here.";
  if (accepted.length === 1) return `the only field accepted here is ${accepted[0]}.`;
  return `the fields accepted here are ${listed(accepted, "and")}.`;
}

/**
 * The error map every request is parsed with: a sentence for each issue its schema gave no message for. A
 * missing field says it is required; a wrong type names the expected type and what came instead; a bound names
 * itself; an enum lists its values.
 */
export function describeIssue(issue: RawIssue): string {
  const field = fieldLabel(issue.path);
  switch (issue.code) {
    case "invalid_type":
      return describeType(issue, field);
    case "too_small":
    case "too_big":
      return describeSize(issue, field);
    case "invalid_format":
      return describeFormat(issue, field);
    case "invalid_value":
      if (issue.input === undefined && issue.path?.length) return `${field} is required.`;
      return issue.values.length === 1 ? `${field} must be ${listed(issue.values)}.` : `${field} must be one of ${listed(issue.values)}.`;
    case "not_multiple_of":
      return `${field} must be a multiple of ${issue.divisor}.`;
    case "unrecognized_keys":
      return describeUnknownKeys(issue);
    case "invalid_union":
      return `${field} is not in any of the accepted forms.`;
    case "invalid_key":
      return `${field} has a key that is not valid.`;
    case "invalid_element":
      return `${field} has an element that is not valid.`;
    default:
      return `${field} is not valid.`;
  }
}

function withField(field: string, item: Omit<ErrorDetail, "field">): ErrorDetail {
  return field === "" ? item : { field, ...item };
}

function detailFor(issue: Issue, input: unknown): ErrorDetail[] {
  const field = dottedPath(issue.path);
  // A missing field fails as whatever its schema expected (a type, an enum value...): report it as missing.
  // Only a key absent from an object counts: a path into a value a transform reshaped (a comma-separated
  // string turned into an array) names something present.
  const parent = valueAt(input, issue.path.slice(0, -1));
  const missing =
    issue.code !== "unrecognized_keys" && issue.path.length > 0 && typeof parent === "object" && parent !== null && valueAt(input, issue.path) === undefined;
  if (missing && (issue.code === "invalid_type" || issue.code === "invalid_value")) {
    return [{ field, reason: "required", message: `${field} is required.` }];
  }
  switch (issue.code) {
    case "unrecognized_keys":
      return issue.keys.map((key) => {
        const unknown = field === "" ? key : `${field}.${key}`;
        return { field: unknown, reason: "unknown_field", message: `Unknown field \`${unknown}\`: ${issue.message}` };
      });
    case "invalid_type": {
      if (issue.path.length === 0 && input === undefined) return [{ reason: "required", message: issue.message }];
      const reason = issue.expected === "int" ? "not_integer" : "invalid_type";
      return [withField(field, { reason, message: issue.message })];
    }
    case "too_small":
      return [withField(field, { reason: "too_small", message: issue.message })];
    case "too_big":
      return [withField(field, { reason: "too_large", message: issue.message })];
    case "invalid_format": {
      const reasons: Record<string, string> = { email: "invalid_email", url: "invalid_url", datetime: "invalid_timestamp", date: "invalid_date" };
      return [withField(field, { reason: reasons[issue.format] ?? "invalid_format", message: issue.message })];
    }
    case "invalid_value":
      return [withField(field, { reason: "invalid_value", message: issue.message })];
    case "invalid_key": {
      // A record key that failed its own schema (a metadata key too long or empty): report what was wrong with
      // it. Zod words a key's problem before it knows where the key sits, so the sentence names the body; it
      // names the key instead.
      const key = issue.path.at(-1);
      const subject = `The ${dottedPath(issue.path.slice(0, -1))} key ${JSON.stringify(String(key))}`;
      return issue.issues.flatMap((inner) =>
        detailFor({ ...inner, path: [...issue.path, ...inner.path], message: inner.message.replace(/^The request body/, subject) } as Issue, input),
      );
    }
    case "custom": {
      const reason = typeof issue.params?.reason === "string" ? issue.params.reason : "invalid";
      return [withField(field, { reason, message: issue.message })];
    }
    default:
      return [withField(field, { reason: "invalid", message: issue.message })];
  }
}

/** The error for a failed parse of `input`. Unknown fields win: they are a 400 even beside other problems. */
export function validationError(issues: ReadonlyArray<Issue>, input: unknown): ApiError {
  const detail = issues.flatMap((issue) => detailFor(issue, input));
  const unknown = detail.filter((item) => item.reason === "unknown_field");
  if (unknown.length > 0) {
    const names = unknown.map((item) => item.field).join(", ");
    return new ApiError("unknown_field", { message: `Unknown field(s): ${names}.`, detail: unknown });
  }
  return new ApiError("validation_failed", { detail });
}

/** Parses request input with the platform's messages (`describeIssue`). */
export function safeParseInput<T extends z.ZodType>(schema: T, input: unknown): z.ZodSafeParseResult<z.output<T>> {
  return schema.safeParse(input, { error: describeIssue });
}

export function parseWith<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = safeParseInput(schema, input);
  if (!result.success) throw validationError(result.error.issues, input);
  return result.data;
}
