// The steps of every endpoint, listed once in the order they run (as node-oidc-provider lists an endpoint's):
// each is a small function that does its part and calls the next, or answers without calling it; each declares
// the error codes it can raise, which the API reference (lib/openapi) documents. A step that does not apply to
// an endpoint passes straight on.
import type { ErrorCode } from "../errors";
import { runForProject } from "../pool-bulkhead";
import { errorResponse } from "../wire/error-outcome";
import { toResponse } from "./reply";
import { principalOf, readerOf, tenantOf } from "./auth-kinds";
import { authenticate, checkCapability, checkSandbox, checkScope, meterAddress, meterProject } from "./admission";
import { authenticateFromBody, takeRequestTime } from "./callers";
import type { HandlerInput } from "./endpoint";
import { idempotency, transaction } from "./idempotent-handler";
import { meterSubLimit } from "./metering";
import { decodeBody, parseParams, parseQuery, validateBody } from "./parsing";
import type { DeclaredEndpoint, Exchange, Step } from "./step";

const mapErrors: Step = {
  name: "map errors",
  raises: () => ["internal_error"],
  async run(exchange, next) {
    try {
      await next();
    } catch (error) {
      exchange.response = errorResponse(error, exchange.context, exchange.config.errorFormat);
    }
  },
};

/** The handler's database work counts against its caller's project's share of the pool (lib/pool-bulkhead.ts). */
const bulkhead: Step = {
  name: "enter the project's share of the pool",
  raises: () => [],
  run: (exchange, next) => {
    const principal = principalOf(exchange.caller);
    return principal ? runForProject(principal.projectId, next) : next();
  },
};

const respond: Step = {
  name: "render the reply",
  raises: () => [],
  async run(exchange, next) {
    await next();
    exchange.response ??= toResponse(exchange.reply!);
  },
};

/**
 * The route's sub-limit (spec 8) meters the operation: a request that never reaches it (invalid input, an
 * Idempotency-Key replay or in-progress answer) spends none.
 */
const limit: Step = {
  name: "spend the route's own limit",
  raises: ({ config }) => (config.rateLimit ? ["rate_limited"] : []),
  async run(exchange, next) {
    await meterSubLimit(exchange.config.rateLimit, exchange, exchange.context);
    await next();
  },
};

const handle: Step = {
  name: "handle",
  raises: ({ config }) => config.errors ?? [],
  async run(exchange) {
    exchange.reply = await exchange.config.handler(handlerInputOf(exchange) as never);
  },
};

function handlerInputOf(exchange: Exchange): HandlerInput<unknown, unknown, unknown, unknown> {
  const { caller, request, context, now, params, query, body, transaction } = exchange;
  const principal = principalOf(caller);
  return {
    request,
    context,
    now,
    tenant: tenantOf(caller),
    reader: readerOf(caller),
    token: principal ? { scopes: principal.scopes, clientId: principal.clientId, tokenId: principal.tokenId } : undefined,
    client: caller?.kind === "client" ? caller.client : undefined,
    publishableKey: caller?.kind === "publishable_key" ? caller.key : undefined,
    member: caller?.kind === "dashboard_member" ? caller.member : undefined,
    transaction,
    params,
    query,
    body,
  } as HandlerInput<unknown, unknown, unknown, unknown>;
}

export const STEPS: readonly Step[] = [
  mapErrors,
  meterAddress,
  authenticate,
  meterProject,
  checkScope,
  checkSandbox,
  checkCapability,
  parseParams,
  parseQuery,
  decodeBody,
  authenticateFromBody,
  takeRequestTime,
  validateBody,
  bulkhead,
  respond,
  idempotency,
  limit,
  transaction,
  handle,
];

/** Runs the steps in order on `exchange`; each calls the next, or answers (sets the response) and stops. */
export function runSteps(exchange: Exchange, steps: readonly Step[] = STEPS): Promise<void> {
  const at = (index: number): Promise<void> => (index < steps.length ? steps[index]!.run(exchange, () => at(index + 1)) : Promise.resolve());
  return at(0);
}

/** Every error code the steps can raise for `endpoint`. */
export function stepErrorCodes(endpoint: DeclaredEndpoint): Set<ErrorCode> {
  return new Set(STEPS.flatMap((step) => step.raises(endpoint)));
}
