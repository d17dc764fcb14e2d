// Turns zod issues into the envelope's errors: unknown fields are 400 `unknown_field`, everything else is
// 422 `validation_failed`, each with one `detail` item per field (`field` is a dotted path).
import type { z } from "zod";
import { ApiError, type ErrorDetail } from "../errors";

type Issue = z.core.$ZodIssue;

function dottedPath(path: ReadonlyArray<PropertyKey>): string {
  return path.map(String).join(".");
}

function valueAt(input: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
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
      return issue.keys.map((key) => ({
        field: field === "" ? key : `${field}.${key}`,
        reason: "unknown_field",
        message: `Unknown field \`${key}\`.`,
      }));
    case "invalid_type": {
      const reason = issue.expected === "int" ? "not_integer" : "invalid_type";
      return [withField(field, { reason, message: issue.message })];
    }
    case "too_small":
      return [withField(field, { reason: "too_small", message: issue.message })];
    case "too_big":
      return [withField(field, { reason: "too_large", message: issue.message })];
    case "invalid_format": {
      const reasons: Record<string, string> = { email: "invalid_email", url: "invalid_url", datetime: "invalid_timestamp" };
      return [withField(field, { reason: reasons[issue.format] ?? "invalid_format", message: issue.message })];
    }
    case "invalid_value":
      return [withField(field, { reason: "invalid_value", message: issue.message })];
    case "invalid_key":
      // A record key that failed its own schema (a metadata key too long or empty): report what was wrong with it.
      return issue.issues.flatMap((inner) => detailFor({ ...inner, path: [...issue.path, ...inner.path] } as Issue, input));
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

export function parseWith<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(result.error.issues, input);
  return result.data;
}
