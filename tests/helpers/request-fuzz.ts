// Arbitrary requests for the property-based tests of every endpoint (tests/api/<ring>/fuzz.test.ts), which
// assert that none is answered with a 5xx. For an endpoint of the route registry, the path parameters, query and
// body are drawn from the endpoint's own zod schemas, from a valid request the ring's test gives for it, and from
// values the platform gives meaning to (ids of real objects, credentials), so that many requests pass validation
// and reach the services and the database; hostile values are mixed in at every level: NUL and unpaired
// surrogates (alone, or slipped into a valid value), numbers beyond a double, nesting deeper than any schema,
// JSON of the wrong shape, text that is not JSON, unknown fields, repeated query parameters, bad tokens and
// Idempotency-Keys.
import http from "node:http";
import fc from "fast-check";
import { z } from "zod";
import { config } from "@/lib/env";
import type { RegisteredEndpoint } from "@/lib/http/route-registry";

/** A number written into the JSON text as it is, for literals no double holds (`1e400`, 30 digits). */
class NumberLiteral {
  constructor(readonly text: string) {}
}

/** JSON text of a generated value; unlike JSON.stringify it writes NumberLiteral as a bare number, and nothing for no value. */
function jsonText(value: unknown): string {
  if (value === undefined) return "";
  if (value instanceof NumberLiteral) return value.text;
  if (Array.isArray(value)) return `[${value.map(jsonText).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}:${jsonText(item)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** Any UTF-16 code unit, NUL and unpaired surrogates included. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));

const HOSTILE_STRINGS = [
  "", " ", "\u0000", "a\u0000b", "\ud800", "\udfff", "x\ud83d", "\ude00x", "🙂", "\u202e", "%00", "%", "../..", "\\", '"',
  "'; DROP TABLE applications; --", "$1", "null", "[]", "{}", "-1", "0", "1e400", "99999999999999999999", "0.5", "NaN",
  "a".repeat(300), "é".repeat(2_000),
];

/** Characters PostgreSQL cannot store as text (NUL) or that have no UTF-8 form (unpaired surrogates). */
const UNSTORABLE_CHARACTERS = ["\u0000", "\ud800", "\udbff", "\udc00", "\udfff"];

/** `strings` with one unstorable character slipped in somewhere: a valid value made invalid by a single character. */
function corrupted(strings: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(strings, fc.nat(), fc.constantFrom(...UNSTORABLE_CHARACTERS)).map(([value, position, character]) => {
    const at = position % (value.length + 1);
    return `${value.slice(0, at)}${character}${value.slice(at)}`;
  });
}

function hostileString(known: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ unit: codeUnit, maxLength: 24 }),
    fc.string({ unit: "binary", maxLength: 24 }),
    fc.constantFrom(...HOSTILE_STRINGS),
    corrupted(fc.constantFrom(...known)),
  );
}

const hostileNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(-0, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 64, 5e-324),
  fc.constantFrom("1e400", "-1e400", "1e-400", "123456789012345678901234567890", "-0.0").map((text) => new NumberLiteral(text)),
);

/** Any JSON value, a few levels deep, with hostile strings as keys and leaves. */
function anyJson(known: readonly string[]): fc.Arbitrary<unknown> {
  const leaf = fc.oneof(hostileString(known), hostileNumber, fc.boolean(), fc.constant(null));
  return fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof({ depthSize: "small" }, leaf, fc.array(tie("value"), { maxLength: 4 }), fc.dictionary(hostileString(known), tie("value"), { maxKeys: 4 })),
  })).value;
}

/** `arbitrary` one time in ten, null otherwise. */
function rarely<T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | null> {
  return fc.oneof({ weight: 9, arbitrary: fc.constant(null) }, { weight: 1, arbitrary });
}

/** The schema beneath optional, nullable, default and pipe wrappers: the shape a request must have. */
function innermost(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault) return innermost(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodPipe) return innermost(schema.in as z.ZodType);
  return schema;
}

/** Strings of the schema's own format or pattern, when it has one. */
function formatted(schema: z.ZodType): fc.Arbitrary<string> | undefined {
  if (schema instanceof z.ZodEmail) return fc.emailAddress();
  if (schema instanceof z.ZodISODateTime) return fc.date({ min: new Date("2000-01-01"), max: new Date("2039-12-31"), noInvalidDate: true }).map((date) => date.toISOString());
  const { pattern } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as { pattern?: string };
  if (pattern === undefined) return undefined;
  try {
    return fc.stringMatching(new RegExp(pattern));
  } catch {
    return undefined;
  }
}

/** A string `schema` accepts (one the platform knows, or one of its format), or a hostile one. */
function stringFor(schema: z.ZodType, known: readonly string[]): fc.Arbitrary<string> {
  const inner = innermost(schema);
  const options = inner instanceof z.ZodEnum ? (inner.options as string[]) : [];
  const accepted = [...new Set([...options, ...known])].filter((value) => schema.safeParse(value).success);
  const ofFormat = formatted(inner);
  return fc.oneof(
    ...(accepted.length > 0 ? [{ weight: 6, arbitrary: fc.constantFrom(...accepted) }, { weight: 1, arbitrary: corrupted(fc.constantFrom(...accepted)) }] : []),
    ...(ofFormat ? [{ weight: 2, arbitrary: ofFormat }] : []),
    { weight: accepted.length > 0 || ofFormat ? 1 : 3, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
    { weight: 1, arbitrary: hostileString(known) },
  );
}

function numberFor(schema: z.ZodNumber): fc.Arbitrary<unknown> {
  const min = Math.max(schema.minValue ?? Number.MIN_SAFE_INTEGER, Number.MIN_SAFE_INTEGER);
  const max = Math.min(schema.maxValue ?? Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  const inRange = schema.isInt ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true });
  return fc.oneof({ weight: 4, arbitrary: inRange }, { weight: 1, arbitrary: hostileNumber });
}

/** A value for `schema`: mostly one it could accept, sometimes anything at all. */
function valueFor(schema: z.ZodType, known: readonly string[]): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 9, arbitrary: plausibleValueFor(schema, known) }, { weight: 1, arbitrary: anyJson(known) });
}

function plausibleValueFor(schema: z.ZodType, known: readonly string[]): fc.Arbitrary<unknown> {
  const inner = innermost(schema);
  if (schema instanceof z.ZodNullable) return fc.oneof(fc.constant(null), plausibleValueFor(inner, known));
  if (inner instanceof z.ZodObject) return objectFor(inner, known);
  if (inner instanceof z.ZodRecord) {
    return fc.dictionary(stringFor(inner.keyType as z.ZodType, known), valueFor(inner.valueType as z.ZodType, known), { maxKeys: 22 });
  }
  if (inner instanceof z.ZodArray) return fc.array(valueFor(inner.element as z.ZodType, known), { maxLength: 6 });
  if (inner instanceof z.ZodUnion) return fc.oneof(...(inner.options as z.ZodType[]).map((option) => valueFor(option, known)));
  if (inner instanceof z.ZodBoolean) return fc.boolean();
  if (inner instanceof z.ZodNumber) return numberFor(inner);
  if (inner instanceof z.ZodUnknown || inner instanceof z.ZodAny) return anyJson(known);
  return stringFor(schema, known);
}

const ABSENT = Symbol("absent");

/** An object of the schema's fields: the required ones always, each other one as often as not, now and then one it does not know. */
function objectFor(schema: z.ZodObject, known: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  const fields = Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, field]) => {
    const value = valueFor(field, known);
    const required = !field.safeParse(undefined).success;
    return fc.tuple(fc.constant(name), required ? value : fc.oneof(fc.constant(ABSENT), value));
  });
  const unknownField = rarely(fc.tuple(hostileString(known), anyJson(known)));
  return fc.tuple(fc.tuple(...fields), unknownField).map(([entries, unknown]) =>
    Object.fromEntries([...entries.filter(([, value]) => value !== ABSENT), ...(unknown ? [unknown] : [])]),
  );
}

type Path = Array<string | number>;

/** The path of every value in `value`, itself included. */
function pathsIn(value: unknown, path: Path = []): Path[] {
  const children: Array<[string | number, unknown]> = Array.isArray(value)
    ? value.map((item, index) => [index, item])
    : value !== null && typeof value === "object"
      ? Object.entries(value)
      : [];
  return [path, ...children.flatMap(([key, child]) => pathsIn(child, [...path, key]))];
}

/** `value` with the value at `path` replaced (or, for ABSENT, its key removed). */
function replaceAt(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  // An earlier change replaced what the path went through: nothing left to change.
  if (value === null || typeof value !== "object") return value;
  const [key, ...rest] = path;
  if (Array.isArray(value)) {
    const replaced = replaceAt(value[key as number], rest, replacement);
    return replaced === ABSENT ? value.filter((_, index) => index !== key) : value.map((item, index) => (index === key ? replaced : item));
  }
  const { [key!]: current, ...others } = value as Record<string, unknown>;
  const replaced = replaceAt(current, rest, replacement);
  return replaced === ABSENT ? others : { ...others, [key!]: replaced };
}

/** The value at `path`, or undefined when the path does not lead anywhere. */
function valueAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((current, key) => (current !== null && typeof current === "object" ? (current as Record<string | number, unknown>)[key] : undefined), value);
}

/**
 * A valid example as it is, or with one or two of its values replaced by hostile ones, removed, or (a string)
 * given an unstorable character.
 */
function mutated(example: unknown, known: readonly string[]): fc.Arbitrary<unknown> {
  const paths = pathsIn(example);
  const replacement = fc.oneof(anyJson(known), hostileString(known), hostileNumber, fc.constant(ABSENT));
  const stringPaths = paths.filter((path) => typeof valueAt(example, path) === "string");
  const mutation = fc.oneof(
    fc.tuple(fc.constantFrom(...paths), replacement),
    ...(stringPaths.length > 0 ? [fc.constantFrom(...stringPaths).chain((path) => fc.tuple(fc.constant(path), corrupted(fc.constant(valueAt(example, path) as string))))] : []),
  );
  return fc
    .array(mutation, { maxLength: 2 })
    .map((mutations) => mutations.reduce((value, [path, next]) => replaceAt(value, path, next), example))
    .map((value) => (value === ABSENT ? undefined : value));
}

/** Nesting far deeper than any schema, within the endpoint's body limit (past it the answer is a 413 or 422). */
function deeplyNested(limitBytes: number): fc.Arbitrary<string> {
  const levels = { open: '{"a":', close: "}" };
  const maxDepth = Math.floor((limitBytes - 1) / (levels.open.length + levels.close.length));
  return fc
    .tuple(fc.integer({ min: Math.min(100, maxDepth), max: maxDepth }), fc.constantFrom(["[", "]"], [levels.open, levels.close]))
    .map(([depth, [open, close]]) => `${open!.repeat(depth)}1${close!.repeat(depth)}`);
}

const notJson = fc.oneof(fc.constantFrom("", "{", '{"a":', "[1,]", "nul", "\u0000", "{}{}", '"\\ud800"', "1e400"), fc.string({ unit: "binary", maxLength: 40 }));

/** UTF-8 percent-encoding of every byte but the unreserved ones; a lone surrogate goes as U+FFFD. */
function percentEncode(value: string): string {
  return [...Buffer.from(value, "utf8")].map((byte) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).padStart(2, "0")}`)).join("");
}

export interface FuzzRequest {
  method: string;
  /** Path and query, percent-encoded, from the ring's root (`/partner/v1/keys?limit=2`). */
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface FuzzContext {
  /** The ring's root: `/partner/v1`, `/public/v1`, or "" for the site. */
  root: string;
  /** Strings the platform gives meaning to (ids of real objects, valid company numbers, credentials…): drawn often. */
  known: readonly string[];
  /** The Authorization header of a caller holding every scope, for the endpoints that need one. */
  authorization?: string;
  /**
   * Valid requests, by `METHOD /path` within the ring, as seeds: drawn as they are or with a value or two
   * changed, they reach the checks a schema cannot express (a company the registry knows, an https URL).
   */
  examples?: Record<string, { query?: Record<string, string>; body?: unknown }>;
  /** Ids of objects made to be deleted: DELETE routes get only these, so the objects other routes act on stay. */
  disposable?: readonly string[];
  /** The schema of a body the route takes raw and parses itself (the public intake forms), by `METHOD /path`. */
  bodySchemas?: Record<string, z.ZodType>;
}

const endpointKey = (declared: RegisteredEndpoint) => `${declared.method} ${declared.path}`;

function pathFor(declared: RegisteredEndpoint, context: FuzzContext): fc.Arbitrary<string> {
  const names = [...declared.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  const disposable = context.disposable ?? [];
  const candidates = declared.method === "DELETE" && disposable.length > 0 ? disposable : context.known.filter((value) => !disposable.includes(value));
  // Known values this route's params schema accepts, so most requests name a real object.
  const accepted = candidates.filter((value) => names.every((name) => declared.config.params?.safeParse({ [name]: value }).success ?? true));
  const real = fc.constantFrom(...(accepted.length > 0 ? accepted : context.known));
  const segment = fc.oneof({ weight: 6, arbitrary: real }, { weight: 1, arbitrary: corrupted(real) }, { weight: 1, arbitrary: hostileString(context.known) });
  return fc.tuple(...names.map(() => segment)).map((values) => names.reduce((path, name, index) => path.replace(`{${name}}`, percentEncode(values[index]!)), declared.path));
}

function asText(value: unknown): string {
  return typeof value === "string" ? value : jsonText(value);
}

function formEncode(pairs: Array<[string, unknown]>): string {
  return pairs.map(([name, value]) => `${percentEncode(name)}=${percentEncode(asText(value))}`).join("&");
}

function queryFor(declared: RegisteredEndpoint, context: FuzzContext): fc.Arbitrary<string> {
  const schema = declared.config.query && innermost(declared.config.query);
  const fields =
    schema instanceof z.ZodObject
      ? objectFor(schema, context.known)
      : rarely(fc.dictionary(hostileString(context.known), hostileString(context.known), { minKeys: 1, maxKeys: 2 })).map((query) => query ?? {});
  const example = context.examples?.[endpointKey(declared)]?.query;
  const drawn = example ? fc.oneof({ weight: 1, arbitrary: fields }, { weight: 2, arbitrary: mutated(example, context.known).map((query) => (query ?? {}) as Record<string, unknown>) }) : fields;
  const names = schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
  const repeated = rarely(fc.constantFrom(...names, "limit"));
  return fc.tuple(drawn, repeated).map(([query, repeat]) => {
    const fieldsOf = query !== null && typeof query === "object" && !Array.isArray(query) ? Object.entries(query) : [["q", query] as [string, unknown]];
    const pairs: Array<[string, unknown]> = [...fieldsOf, ...(repeat ? ([[repeat, "1"], [repeat, "2"]] as Array<[string, unknown]>) : [])];
    return pairs.length === 0 ? "" : `?${formEncode(pairs)}`;
  });
}

interface FuzzBody {
  body?: string;
  contentType?: string;
}

function bodyFor(declared: RegisteredEndpoint, context: FuzzContext): fc.Arbitrary<FuzzBody> {
  const schema = context.bodySchemas?.[endpointKey(declared)] ?? declared.config.body ?? z.strictObject({});
  const example = context.examples?.[endpointKey(declared)]?.body;
  const fromSchema = valueFor(schema, context.known);
  const drawn = example === undefined ? fromSchema : fc.oneof({ weight: 1, arbitrary: fromSchema }, { weight: 2, arbitrary: mutated(example, context.known) });
  if (declared.config.bodyFormat === "form") {
    return drawn.map((fields): FuzzBody => {
      const pairs = fields !== null && typeof fields === "object" && !Array.isArray(fields) ? Object.entries(fields) : [["form", fields] as [string, unknown]];
      return { body: formEncode(pairs), contentType: "application/x-www-form-urlencoded" };
    });
  }
  const text = fc.oneof(
    { weight: 12, arbitrary: drawn.map(jsonText) },
    { weight: 2, arbitrary: anyJson(context.known).map(jsonText) },
    { weight: 1, arbitrary: deeplyNested(Math.min(declared.config.bodyLimitBytes ?? Number.POSITIVE_INFINITY, config().BODY_LIMIT_BYTES)) },
    { weight: 1, arbitrary: notJson },
  );
  const none: FuzzBody = {};
  return fc.option(text.map((body): FuzzBody => ({ body, contentType: "application/json" })), { freq: 10, nil: none });
}

const METHODS_WITH_BODY = new Set(["POST", "PUT", "PATCH"]);

/** Requests to one endpoint. */
function arbitraryRequest(declared: RegisteredEndpoint, context: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const hasBody = METHODS_WITH_BODY.has(declared.method);
  const authorization = declared.config.auth.kind === "bearer" && context.authorization
    ? fc.oneof({ weight: 19, arbitrary: fc.constant(context.authorization) }, { weight: 1, arbitrary: fc.stringMatching(/^Bearer [\x21-\x7e]{0,60}$/) })
    : fc.constant(undefined);
  const idempotencyKey = declared.config.idempotent ? rarely(fc.stringMatching(/^[\x21-\x7e]{0,300}$/)) : fc.constant(null);
  return fc
    .record({
      path: pathFor(declared, context),
      query: queryFor(declared, context),
      body: hasBody ? bodyFor(declared, context) : fc.constant<FuzzBody>({}),
      authorization,
      idempotencyKey,
    })
    .map(({ path, query, body, authorization, idempotencyKey }) => ({
      method: declared.method,
      url: `${context.root}${path}${query}`,
      headers: {
        ...(authorization ? { authorization } : {}),
        ...(idempotencyKey !== null ? { "idempotency-key": idempotencyKey } : {}),
        ...(body.contentType ? { "content-type": body.contentType } : {}),
      },
      body: body.body,
    }));
}

/** Requests to any of `endpoints`, each endpoint as likely as the others. */
export function requestsTo(endpoints: readonly RegisteredEndpoint[], context: FuzzContext): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(...endpoints.map((declared) => arbitraryRequest(declared, context)));
}

/**
 * Sends the request on a connection of its own (a keep-alive connection the server closed after an earlier
 * request would fail this one for no fault of its own) and returns the status and the answer's first bytes.
 */
function send(baseUrl: string, request: FuzzRequest): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(`${baseUrl}${request.url}`, { method: request.method, headers: request.headers, agent: false, timeout: 15_000 }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        // A stream (server-sent events) never ends: its status and first bytes are enough.
        if (incoming.headers["content-type"]?.startsWith("text/event-stream")) incoming.destroy();
      });
      incoming.on("close", () => resolve({ status: incoming.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
    });
    outgoing.on("timeout", () => outgoing.destroy(new Error("no answer within 15 s")));
    outgoing.on("error", reject);
    outgoing.end(request.body);
  });
}

/** A short description of a request, for a counterexample. */
function describeRequest(request: FuzzRequest): string {
  const body = request.body === undefined ? "" : ` ${request.body.length > 300 ? `${request.body.slice(0, 300)}… (${request.body.length} characters)` : request.body}`;
  return `${request.method} ${request.url} ${JSON.stringify(request.headers)}${body}`;
}

/** Runs `numRuns` requests drawn from `requests` (the same ones on every run: `seed`), failing on any 5xx. */
export async function assertNoServerError(baseUrl: string, requests: fc.Arbitrary<FuzzRequest>, options: { seed: number; numRuns: number }): Promise<void> {
  await fc.assert(
    fc.asyncProperty(requests, async (request) => {
      const { status, text } = await send(baseUrl, request);
      if (status >= 500) throw new Error(`${describeRequest(request)}\nanswered ${status}: ${text.slice(0, 500)}`);
    }),
    options,
  );
}
