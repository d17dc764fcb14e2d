// The route builder every partner, public and site route goes through. A route file declares, per method,
// its schemas and handler; the builder runs the steps in a fixed order:
//   request context → parse params → parse query → parse body → handler → map errors → finish (headers, log)
// Methods a route does not declare answer 405 with `Allow`; HEAD runs GET without a body.
import { z } from "zod";
import { config } from "../env";
import { readBody, searchParamsToObject, type BodyFormat } from "./body";
import { ApiError, type Ring } from "./errors";
import { errorResponse, finishRequest, startRequest, type RequestContext } from "./request-context";
import { parseWith } from "./validation";

export const HTTP_METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];
type DeclarableMethod = Exclude<HttpMethod, "HEAD" | "OPTIONS">;

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export const ok = (body: unknown, headers?: Record<string, string>): Reply => ({ status: 200, body, headers });
export const created = (body: unknown, headers?: Record<string, string>): Reply => ({ status: 201, body, headers });
export const reply = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({ status, body, headers });

type Output<S, Fallback> = S extends z.ZodType ? z.output<S> : Fallback;

export interface HandlerInput<P, Q, B> {
  request: Request;
  context: RequestContext;
  params: P;
  query: Q;
  body: B;
}

export interface EndpointConfig<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
> {
  params?: P;
  query?: Q;
  body?: B;
  /** Body encoding; JSON unless stated (the OAuth endpoints take forms). */
  bodyFormat?: BodyFormat;
  handler: (
    input: HandlerInput<Output<P, Record<string, string>>, Output<Q, Record<string, never>>, Output<B, undefined>>,
  ) => Promise<Reply | Response> | Reply | Response;
}

/** An endpoint with its types erased, ready for the builder. */
export interface Endpoint {
  readonly config: EndpointConfig<z.ZodType | undefined, z.ZodType | undefined, z.ZodType | undefined>;
}

/** Declares one method's endpoint; exists so TypeScript infers the handler's input from the schemas. */
export function endpoint<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(config: EndpointConfig<P, Q, B>): Endpoint {
  return { config: config as unknown as Endpoint["config"] };
}

type NextRouteContext = { params: Promise<Record<string, string | string[] | undefined>> };
export type RouteHandler = (request: Request, context: NextRouteContext) => Promise<Response>;
export type RouteHandlers = Record<HttpMethod, RouteHandler>;

const NO_QUERY = z.strictObject({});
const NO_BODY = z.strictObject({}).optional();
const METHODS_WITH_BODY = new Set(["POST", "PUT", "PATCH"]);

function toResponse(result: Reply | Response): Response {
  if (result instanceof Response) return result;
  return Response.json(result.body, { status: result.status, headers: result.headers });
}

async function parseParams(schema: z.ZodType | undefined, context: NextRouteContext): Promise<unknown> {
  const raw = await context.params;
  if (!schema) return raw;
  try {
    return parseWith(schema, raw);
  } catch {
    // A path segment that cannot be an id of the resource names nothing: 404, not a validation error.
    throw new ApiError("not_found");
  }
}

async function parseRequestBody(declared: Endpoint["config"], request: Request, context: RequestContext): Promise<unknown> {
  if (!declared.body && !METHODS_WITH_BODY.has(request.method)) return undefined;
  const limit = config().BODY_LIMIT_BYTES;
  const raw = await readBody(request, { format: declared.bodyFormat ?? "json", limit, ring: context.ring });
  return parseWith(declared.body ?? NO_BODY, raw);
}

async function runEndpoint(ring: Ring, target: Endpoint, request: Request, routeContext: NextRouteContext): Promise<Response> {
  const context = startRequest(request, ring);
  let response: Response;
  try {
    const params = await parseParams(target.config.params, routeContext);
    const query = parseWith(target.config.query ?? NO_QUERY, searchParamsToObject(context.url.searchParams));
    const body = await parseRequestBody(target.config, request, context);
    response = toResponse(await target.config.handler({ request, context, params, query, body } as never));
  } catch (error) {
    response = errorResponse(error, context);
  }
  return finishRequest(response, context);
}

function answerWith(ring: Ring, error: () => ApiError): RouteHandler {
  return async (request) => {
    const context = startRequest(request, ring);
    return finishRequest(errorResponse(error(), context), context);
  };
}

function withoutBody(response: Response): Response {
  return new Response(null, { status: response.status, headers: response.headers });
}

/** Builds the full set of method handlers for a route file: `export const { GET, HEAD, ... } = defineRoute(...)`. */
export function defineRoute(ring: Ring, endpoints: Partial<Record<DeclarableMethod, Endpoint>>): RouteHandlers {
  const declared = Object.keys(endpoints) as DeclarableMethod[];
  const allowed = [...declared, ...(endpoints.GET ? ["HEAD"] : []), "OPTIONS"].join(", ");
  const methodNotAllowed = answerWith(ring, () =>
    new ApiError("method_not_allowed", { headers: { Allow: allowed } }),
  );
  const handlerFor = (method: DeclarableMethod): RouteHandler => {
    const target = endpoints[method];
    return target ? (request, context) => runEndpoint(ring, target, request, context) : methodNotAllowed;
  };
  const get = handlerFor("GET");
  return {
    GET: get,
    HEAD: endpoints.GET ? async (request, context) => withoutBody(await get(request, context)) : methodNotAllowed,
    OPTIONS: async (request) => {
      const context = startRequest(request, ring);
      return finishRequest(new Response(null, { status: 204, headers: { Allow: allowed } }), context);
    },
    POST: handlerFor("POST"),
    PUT: handlerFor("PUT"),
    PATCH: handlerFor("PATCH"),
    DELETE: handlerFor("DELETE"),
  };
}

/** Every method of an unmatched path under a ring answers 404 `route_not_found`. */
export function unmatchedRoute(ring: Ring): RouteHandlers {
  const notFound = answerWith(ring, () => new ApiError("route_not_found"));
  return Object.fromEntries(HTTP_METHODS.map((method) => [method, notFound])) as RouteHandlers;
}
