// The API reference: an OpenAPI 3.1 document per ring, generated from the endpoint configs the routes declare
// (lib/http/route-registry.ts) and their zod schemas, never written by hand. Each operation documents its
// parameters and body (the request schemas as zod reads them), its success replies (`responses`, the
// serializers' schemas), the scope it needs, its rate limits, Idempotency-Key, and every error code it can
// answer: those its guards imply (authentication, scope, validation, idempotency, limits) and those its
// handler declares (`errors`). scripts/openapi.ts writes the documents; app/openapi serves them.
import { z } from "zod";
import { describeErrorCode, ERROR_CATALOGUE, type ErrorCode, type Ring } from "../errors";
import { authKindOf } from "../http/auth-kinds";
import { addressLimitOf } from "../http/endpoint";
import { RING_BASE_PATHS } from "../http/rings";
import type { RegisteredEndpoint } from "../http/route-registry";
import { stepErrorCodes } from "../http/steps";
import { SSO_PATH } from "../env";
import { GRANTABLE_SCOPES } from "../oauth/scopes";
import { exampleOf } from "./examples";
import { PUBLIC_LIMIT, type RatePolicy } from "../ratelimit/policies";

export const OPENAPI_VERSION = "3.1.0";
export const DOCUMENT_VERSION = "1.0.0";

type JsonSchema = Record<string, unknown>;
type OpenApiDocument = Record<string, unknown> & { paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, JsonSchema> } };

interface RingDescription {
  title: string;
  description: string;
  /** Prefix of every path of the ring, below its server's origin. */
  basePath: string;
}

export const RINGS: Record<Ring, RingDescription> = {
  partner: {
    title: "Partner API",
    basePath: RING_BASE_PATHS.partner,
    description:
      "Applications, decisions, accounts, identity checks, keys, webhook endpoints and events for partners. Authenticate with an access token from " +
      "`POST /partner/v1/oauth/token` (client credentials: your client id and a secret key). The token's environment " +
      "(sandbox or live) chooses the data you see. Errors use the envelope `{error: {code, type, message, detail, " +
      "correlation_id, retryable}}`; quote `correlation_id` to support.",
  },
  public: {
    title: "Public API",
    basePath: RING_BASE_PATHS.public,
    description:
      "Products, pricing, quotes, loyalty tiers, billers, CMS pages, health, consent, enquiries and support chat. " +
      "No authentication; each client address may make 60 requests per 60 seconds.",
  },
  site: {
    title: "Site interface",
    basePath: RING_BASE_PATHS.site,
    description:
      "The marketing site's endpoints: health, the site assistant, the OAuth 2.0 server and its metadata, this reference, the hosted journey's forms, and apply.js with its start endpoint.",
  },
};

/** Every error code the endpoint can answer: those its builder's steps declare (lib/http/steps.ts), with the handler's. */
export function errorCodesOf(ring: Ring, endpoint: RegisteredEndpoint): ErrorCode[] {
  const { config } = endpoint;
  const codes = stepErrorCodes({ ring, config });
  if (config.errorFormat === "oauth") {
    // The OAuth endpoints answer in RFC 6749 form, where validation failures are `invalid_request`.
    for (const code of VALIDATION_FAILURES) codes.delete(code);
    codes.add("invalid_request");
  }
  if (config.errorFormat === "json-rpc") {
    // A JSON-RPC body is any JSON, and one that is not JSON is answered as a JSON-RPC parse error in a 200.
    for (const code of ["invalid_json", "unknown_field", "validation_failed"] as const) codes.delete(code);
  }
  return [...codes].sort((a, b) => statusOf(ring, a) - statusOf(ring, b) || a.localeCompare(b));
}

/** The codes of input the parse steps refuse, which RFC 6749's error form answers as `invalid_request`. */
const VALIDATION_FAILURES: ErrorCode[] = ["unknown_field", "validation_failed", "invalid_json", "missing_content_type", "unsupported_media_type", "payload_too_large"];

function statusOf(ring: Ring, code: ErrorCode): number {
  return describeErrorCode(code, ring).status;
}

/** The rate limits an endpoint is metered by, as a sentence for its description. */
function limitsOf(ring: Ring, endpoint: RegisteredEndpoint): string[] {
  const { auth, rateLimit } = endpoint.config;
  const addressLimit = addressLimitOf(auth);
  const lines: string[] = [];
  if (addressLimit) lines.push(`${describe(addressLimit)} per client address (this endpoint's own bucket, apart from the ring's).`);
  else if (ring === "public") lines.push(`${describe(PUBLIC_LIMIT)} per client address (the public ring's window).`);
  lines.push(...authKindOf(auth).limits(ring, auth, describe));
  if (rateLimit) lines.push(`${describe(rateLimit.policy)} per ${rateLimit.per} (this endpoint's own limit).`);
  return lines;
}

function describe(policy: RatePolicy): string {
  if (policy.kind === "fixedWindow") return `${policy.limit} requests per ${policy.windowSeconds} seconds`;
  const burst = policy.burst === policy.ratePerSecond ? "" : `, bursts of ${policy.burst}`;
  return `${policy.ratePerSecond} requests per second${burst}`;
}

/**
 * A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect): what a request may send (`input`) or what a
 * reply holds (`output`). Named schemas (`.meta({ id })`) go to `components.schemas` and are referenced.
 */
function toJsonSchema(schema: z.ZodType, io: "input" | "output", components: Record<string, JsonSchema>): JsonSchema {
  const converted = z.toJSONSchema(schema, { io, unrepresentable: "any", reused: "inline", override: withoutSafeIntegerBounds }) as JsonSchema;
  const { $schema: _dialect, $defs, ...rest } = JSON.parse(JSON.stringify(converted).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema & {
    $defs?: Record<string, JsonSchema>;
  };
  for (const [name, definition] of Object.entries($defs ?? {})) components[name] = definition;
  const id = typeof rest.id === "string" ? rest.id : undefined;
  if (!id) return rest;
  const { id: _id, ...definition } = rest;
  components[id] = definition;
  return { $ref: `#/components/schemas/${id}` };
}

/**
 * zod bounds every integer by the safe-integer range, which is no rule of ours: left in, it reads as one, and
 * the reference's renderer shows it as the example (-9007199254740991).
 */
function withoutSafeIntegerBounds({ jsonSchema }: { jsonSchema: JsonSchema }): void {
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
}

/** `/keys/{id}/roll` → `postKeysIdRoll`: stable, unique per method and path. */
function operationId(method: string, path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return method.toLowerCase() + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join("");
}

/** The tag (sidebar group) of a path: its first segment, in words. */
function tagOf(path: string): string {
  const first = path.split("/").filter(Boolean)[0] ?? "";
  if (first === "" || first.startsWith(".")) return "Metadata";
  if (first === "healthz") return "Health";
  if (first === "oauth") return "OAuth";
  const words = first.replace(/_/g, " ");
  return words[0]!.toUpperCase() + words.slice(1);
}

function objectProperties(schema: JsonSchema): { properties: Record<string, JsonSchema>; required: string[] } {
  return { properties: (schema.properties as Record<string, JsonSchema> | undefined) ?? {}, required: (schema.required as string[] | undefined) ?? [] };
}

function parametersOf(endpoint: RegisteredEndpoint, components: Record<string, JsonSchema>): JsonSchema[] {
  const parameters: JsonSchema[] = [];
  const pathNames = [...endpoint.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  const pathSchema = endpoint.config.params ? objectProperties(toJsonSchema(endpoint.config.params, "input", components)).properties : {};
  for (const name of pathNames) parameters.push({ name, in: "path", required: true, schema: pathSchema[name] ?? { type: "string" } });
  if (endpoint.config.query) {
    const { properties, required } = objectProperties(toJsonSchema(endpoint.config.query, "input", components));
    for (const [name, schema] of Object.entries(properties)) {
      const { description, ...rest } = schema;
      parameters.push({ name, in: "query", required: required.includes(name), ...(description ? { description } : {}), schema: rest });
    }
  }
  if (endpoint.config.idempotent) parameters.push({ $ref: "#/components/parameters/IdempotencyKey" });
  return parameters;
}

function requestBodyOf(endpoint: RegisteredEndpoint, components: Record<string, JsonSchema>): JsonSchema | undefined {
  const { body, bodyFormat } = endpoint.config;
  if (!body) return undefined;
  const mediaType = bodyFormat === "form" ? "application/x-www-form-urlencoded" : "application/json";
  return { required: !body.safeParse(undefined).success, content: { [mediaType]: { schema: toJsonSchema(body, "input", components) } } };
}

const SUCCESS_DESCRIPTIONS: Record<number, string> = { 200: "OK", 201: "Created", 202: "Accepted", 204: "No content", 303: "See other: the page to show next, in `Location`" };

function responsesOf(ring: Ring, endpoint: RegisteredEndpoint, components: Record<string, JsonSchema>): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  const headers = ring === "site" ? { "X-Request-Id": { $ref: "#/components/headers/RequestId" } } : COMMON_HEADERS;
  for (const [status, schema] of Object.entries(endpoint.config.responses ?? {})) {
    const content = schema ? { content: { [mediaTypeOf(schema)]: documentedReply(schema, components) } } : {};
    responses[status] = { description: SUCCESS_DESCRIPTIONS[Number(status)] ?? "Success", headers, ...content };
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(ring, endpoint)) {
    const status = statusOf(ring, code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const oauthForm = endpoint.config.errorFormat === "oauth";
  // The site's own endpoints answer `{ok: false, error}` (spec 7.4, lib/errors.ts `renderSiteError`).
  const siteForm = endpoint.config.errorFormat === "site";
  // A form a browser posts answers its errors as a page a person reads (lib/errors.ts, `renderErrorPage`).
  const pageForm = endpoint.config.errorFormat === "page";
  for (const [status, codes] of byStatus) {
    if (responses[String(status)]) continue;
    const schema = oauthForm ? { $ref: "#/components/schemas/OAuthError" } : siteForm ? { $ref: "#/components/schemas/SiteError" } : errorSchemaFor(codes);
    responses[String(status)] = {
      description: codes.map((code) => `\`${code}\`: ${ERROR_CATALOGUE[code].message}`).join("\n\n"),
      ...(status === 429 ? { headers: { ...headers, "Retry-After": { $ref: "#/components/headers/RetryAfter" } } } : { headers }),
      content: pageForm ? { "text/html": { schema: { type: "string" } } } : { "application/json": { schema } },
      "x-error-codes": codes,
    };
  }
  return responses;
}

/** A reply's schema, and for JSON an example of it. */
function documentedReply(schema: z.ZodType, components: Record<string, JsonSchema>): JsonSchema {
  const jsonSchema = toJsonSchema(schema, "output", components);
  return mediaTypeOf(schema) === "application/json" ? { schema: jsonSchema, example: exampleOf(jsonSchema, components) } : { schema: jsonSchema };
}

/** A reply that is not JSON says so in its schema's metadata (`contentMediaType`: the support widget's script). */
function mediaTypeOf(schema: z.ZodType): string {
  const meta = z.globalRegistry.get(schema) as { contentMediaType?: string } | undefined;
  return meta?.contentMediaType ?? "application/json";
}

function errorSchemaFor(codes: ErrorCode[]): JsonSchema {
  return {
    allOf: [
      { $ref: "#/components/schemas/ErrorEnvelope" },
      { type: "object", properties: { error: { type: "object", properties: { code: { enum: codes } } } } },
    ],
  };
}

const COMMON_HEADERS = {
  "X-Request-Id": { $ref: "#/components/headers/RequestId" },
  "X-Service-Correlation-Id": { $ref: "#/components/headers/CorrelationId" },
  "RateLimit-Limit": { $ref: "#/components/headers/RateLimitLimit" },
  "RateLimit-Remaining": { $ref: "#/components/headers/RateLimitRemaining" },
  "RateLimit-Reset": { $ref: "#/components/headers/RateLimitReset" },
  "RateLimit-Policy": { $ref: "#/components/headers/RateLimitPolicy" },
};

function descriptionOf(ring: Ring, endpoint: RegisteredEndpoint): string {
  const { config } = endpoint;
  const { auth } = config;
  const parts: string[] = [];
  if (config.description) parts.push(config.description);
  const facts: string[] = [];
  facts.push(...authKindOf(auth).facts(auth));
  if (config.idempotent) facts.push("**Idempotent:** send an `Idempotency-Key` to make a retry safe; the first reply is replayed for 24 hours.");
  if (config.streams) facts.push("**Streams:** the reply is a server-sent event stream that stays open.");
  const limits = limitsOf(ring, endpoint);
  if (limits.length > 0) facts.push(`**Rate limits:** ${limits.join(" ")}`);
  if (facts.length > 0) parts.push(facts.join("\n\n"));
  return parts.join("\n\n");
}

function sharedComponents(ring: Ring): Record<string, unknown> {
  return {
    parameters: {
      IdempotencyKey: {
        name: "Idempotency-Key",
        in: "header",
        required: false,
        description: "1 to 255 printable ASCII characters (a UUID is ideal). A retry with the same key and body returns the first reply.",
        schema: { type: "string", minLength: 1, maxLength: 255 },
      },
    },
    headers: {
      RequestId: { description: "This request's id (`req_…`).", schema: { type: "string" } },
      CorrelationId: { description: "The correlation id (`cor_…`) to quote to support; also in every error body.", schema: { type: "string" } },
      RateLimitLimit: { description: "Burst capacity of the bucket that applied.", schema: { type: "integer" } },
      RateLimitRemaining: { description: "Requests left in that bucket.", schema: { type: "integer" } },
      RateLimitReset: { description: "Seconds until the bucket is full again.", schema: { type: "integer" } },
      RateLimitPolicy: { description: "`<rate>;w=<seconds>;burst=<n>`.", schema: { type: "string" } },
      RetryAfter: { description: "Seconds to wait before retrying.", schema: { type: "integer" } },
    },
    securitySchemes:
      ring === "public"
        ? {}
        : {
            partnerToken: {
              type: "oauth2",
              description: "An access token from the client-credentials grant, sent as `Authorization: Bearer <token>`.",
              flows: {
                clientCredentials: {
                  tokenUrl: `${RINGS.partner.basePath}/oauth/token`,
                  scopes: Object.fromEntries(GRANTABLE_SCOPES.map((scope) => [scope, `The \`${scope}\` scope.`])),
                },
              },
            },
            clientSecretBasic: { type: "http", scheme: "basic", description: "Your client id (`svc_client_…`) and a secret key (`sk_…`)." },
            signInToken: {
              type: "openIdConnect",
              description:
                "A person's access token from our sign-in provider (spec 4.10), sent as `Authorization: Bearer <token>`: only the accounts reads take it, with `accounts.read`, and answer with the person's company's accounts.",
              openIdConnectUrl: `${SSO_PATH}/.well-known/openid-configuration`,
            },
          },
  };
}

const ERROR_ENVELOPE: JsonSchema = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "type", "message", "correlation_id", "retryable"],
      properties: {
        code: { type: "string", description: "A code of the error catalogue; tolerate codes you do not know." },
        type: { type: "string", enum: ["authentication_error", "invalid_request_error", "rate_limit_error", "api_error"] },
        message: { type: "string", description: "A sentence for a person." },
        detail: {
          type: "array",
          items: {
            type: "object",
            required: ["reason"],
            properties: { field: { type: "string" }, reason: { type: "string" }, message: { type: "string" } },
            additionalProperties: false,
          },
        },
        correlation_id: { type: "string" },
        retryable: { type: "boolean" },
        retry_after_ms: { type: "integer" },
      },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};

const SITE_ERROR: JsonSchema = {
  type: "object",
  required: ["ok", "error"],
  properties: { ok: { const: false }, error: { type: "string", description: "A sentence for a person." } },
  additionalProperties: false,
};

const OAUTH_ERROR: JsonSchema = {
  type: "object",
  required: ["error", "error_description"],
  properties: { error: { type: "string" }, error_description: { type: "string" } },
  additionalProperties: false,
};

/** The ring's document, from its registered endpoints; `serverUrl` is the origin the ring is served from. */
export function openApiDocument(ring: Ring, endpoints: RegisteredEndpoint[], serverUrl: string): OpenApiDocument {
  const description = RINGS[ring];
  const schemas: Record<string, JsonSchema> = { ErrorEnvelope: ERROR_ENVELOPE, OAuthError: OAUTH_ERROR, SiteError: SITE_ERROR };
  const paths: OpenApiDocument["paths"] = {};
  const tags = new Set<string>();
  for (const endpoint of endpoints.filter((candidate) => candidate.ring === ring)) {
    const tag = tagOf(endpoint.path);
    tags.add(tag);
    const requestBody = requestBodyOf(endpoint, schemas);
    const { auth } = endpoint.config;
    const operation = {
      operationId: operationId(endpoint.method, endpoint.path),
      summary: endpoint.config.summary,
      description: descriptionOf(ring, endpoint),
      tags: [tag],
      parameters: parametersOf(endpoint, schemas),
      ...(requestBody ? { requestBody } : {}),
      responses: responsesOf(ring, endpoint, schemas),
      security: authKindOf(auth).security(auth),
      ...authKindOf(auth).extensions(auth),
      ...(endpoint.config.rateLimit ? { "x-rate-limit": endpoint.config.rateLimit.policy } : {}),
      ...(endpoint.config.idempotent ? { "x-idempotent": true } : {}),
    };
    const path = endpoint.path === "" ? "/" : endpoint.path;
    paths[path] = { ...paths[path], [endpoint.method.toLowerCase()]: operation };
  }
  return {
    openapi: OPENAPI_VERSION,
    info: { title: description.title, version: DOCUMENT_VERSION, description: description.description },
    servers: [{ url: `${serverUrl.replace(/\/+$/, "")}${description.basePath}` }],
    tags: [...tags].sort().map((name) => ({ name })),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: { schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))), ...sharedComponents(ring) },
  };
}
