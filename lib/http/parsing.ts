// The steps that read a request's input: path parameters, query and body, each through its schema. Every failure
// is a typed 4xx (lib/wire/validation.ts names the field and the rule), never a 500.
import { z } from "zod";
import { config } from "../env";
import { ApiError, notFound, type ErrorCode } from "../errors";
import { readBody, searchParamsToObject } from "../wire/body";
import { parseWith } from "../wire/validation";
import type { Exchange, Step } from "./step";

const QUERY_FAILURES: ErrorCode[] = ["unknown_field", "validation_failed"];
const BODY_FAILURES: ErrorCode[] = ["invalid_json", "missing_content_type", "unsupported_media_type", "payload_too_large", "unknown_field", "validation_failed"];
const FORM_FAILURES: ErrorCode[] = ["invalid_request", "unsupported_media_type", "payload_too_large"];

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
  raises: ({ config }) => (config.query ? QUERY_FAILURES : []),
  async run(exchange, next) {
    exchange.query = parseWith(exchange.config.query ?? NO_QUERY, searchParamsToObject(exchange.context.url.searchParams));
    await next();
  },
};

export const parseBody: Step = {
  name: "read and parse the body",
  raises: ({ config }) => (!config.body ? [] : config.bodyFormat === "form" ? FORM_FAILURES : BODY_FAILURES),
  async run(exchange, next) {
    exchange.body = await readDeclaredBody(exchange);
    await next();
  },
};

async function readDeclaredBody({ config: declared, request, context }: Exchange): Promise<unknown> {
  if (!declared.body && !METHODS_WITH_BODY.has(request.method)) return undefined;
  const limit = Math.min(declared.bodyLimitBytes ?? Number.POSITIVE_INFINITY, config().BODY_LIMIT_BYTES);
  try {
    const raw = await readBody(request, { format: declared.bodyFormat ?? "json", limit, ring: context.ring });
    return parseWith(declared.body ?? NO_BODY, raw);
  } catch (error) {
    if (declared.bodyFailsOpen && error instanceof ApiError) return null;
    throw error;
  }
}
