// The steps that read a request's input: path parameters, query and body, each through its schema (the body is
// decoded first and validated once its caller and their time are known). Every failure is a typed 4xx (lib/wire/validation.ts names the field and the rule), never a 500.
import { z } from "zod";
import { config } from "../env";
import { ApiError, notFound, type ErrorCode } from "../errors";
import { readBody, searchParamsToObject } from "./body";
import { parseWith } from "../wire/validation";
import type { Exchange, Step } from "./step";

const SCHEMA_FAILURES: ErrorCode[] = ["unknown_field", "validation_failed"];
const JSON_READ_FAILURES: ErrorCode[] = ["invalid_json", "missing_content_type", "unsupported_media_type", "payload_too_large"];
const FORM_READ_FAILURES: ErrorCode[] = ["invalid_request", "unsupported_media_type", "payload_too_large"];
// An OAuth endpoint's form answers a field the schema refuses as RFC 6749's invalid_request.
const FORM_VALIDATION_FAILURES: ErrorCode[] = ["invalid_request"];

const NO_QUERY = z.strictObject({});
const NO_BODY = z.strictObject({}).optional();
const METHODS_WITH_BODY = new Set(["POST", "PUT", "PATCH"]);

export const parseParams: Step = {
  name: "parse the path parameters",
  raises: ({ config }) => (config.params ? ["not_found"] : []),
  async run(exchange, next) {
    const raw = await exchange.routeContext.params;
    try {
      exchange.params = exchange.config.params ? parseWith(exchange.config.params, raw) : raw;
    } catch {
      // A path segment that cannot be an id of the resource names nothing: 404, not a validation error.
      throw notFound("object");
    }
    await next();
  },
};

export const parseQuery: Step = {
  name: "parse the query",
  raises: ({ config }) => (config.query ? SCHEMA_FAILURES : []),
  async run(exchange, next) {
    exchange.query = parseWith(exchange.config.query ?? NO_QUERY, searchParamsToObject(exchange.context.url.searchParams));
    await next();
  },
};

/** Decodes the body as its format, not yet through its schema: a caller may be named in it (callers.ts). */
export const decodeBody: Step = {
  name: "decode the body",
  raises: ({ config }) => (!config.body ? [] : config.bodyFormat === "form" ? FORM_READ_FAILURES : JSON_READ_FAILURES),
  async run(exchange, next) {
    try {
      exchange.body = await readDeclaredBody(exchange);
    } catch (error) {
      if (!(exchange.config.bodyFailsOpen && error instanceof ApiError)) throw error;
      exchange.body = null;
    }
    await next();
  },
};

/** Validates the body through its schema, once the request's time is on its caller's clock. */
export const validateBody: Step = {
  name: "validate the body",
  raises: ({ config }) => (!config.body ? [] : config.bodyFormat === "form" ? FORM_VALIDATION_FAILURES : SCHEMA_FAILURES),
  async run(exchange, next) {
    exchange.body = validatedBody(exchange);
    await next();
  },
};

/** The decoded body through its schema; throws the schema's refusal unless the body fails open. */
export function validatedBody(exchange: Exchange): unknown {
  if (!bodyIsRead(exchange)) return exchange.body;
  try {
    return parseWith(exchange.config.body ?? NO_BODY, exchange.body);
  } catch (error) {
    if (exchange.config.bodyFailsOpen && error instanceof ApiError) return null;
    throw error;
  }
}

const bodyIsRead = ({ config: declared, request }: Exchange) => Boolean(declared.body) || METHODS_WITH_BODY.has(request.method);

async function readDeclaredBody(exchange: Exchange): Promise<unknown> {
  if (!bodyIsRead(exchange)) return undefined;
  const { config: declared, request, context } = exchange;
  const limit = Math.min(declared.bodyLimitBytes ?? Number.POSITIVE_INFINITY, config().BODY_LIMIT_BYTES);
  return readBody(request, { format: declared.bodyFormat ?? "json", limit, ring: context.ring });
}
