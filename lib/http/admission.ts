// Admission: the steps a request must pass before its input is read. A request without a credential of its own
// is metered per client address (its ring's window, or the endpoint's own bucket), and so is one that will
// authenticate an OAuth client, before its body is read. A bearer token is authenticated (a local signature
// check, so it can come first), the project's bucket is spent, then the scope, the sandbox and the project's
// capability are checked; a request without a valid token is metered per client address before its 401 is sent.
import type { ErrorCode } from "../errors";
import { assertCapability } from "../projects/capabilities";
import { CLIENT_AUTHENTICATION_LIMIT, PUBLIC_LIMIT, type RatePolicy } from "../ratelimit/policies";
import { assertSandbox, assertScope, authenticateBearer } from "./auth";
import { addressLimitOf } from "./endpoint";
import { meterAddressRequest, meterAnonymousPartnerRequest, meterPartnerRequest } from "./metering";
import type { DeclaredEndpoint, Exchange, Step } from "./step";

const BEARER_FAILURES: ErrorCode[] = ["unauthenticated", "invalid_api_key", "token_expired", "token_revoked", "environment_mismatch", "audience_mismatch"];

const isBearer = ({ config }: DeclaredEndpoint) => config.auth.kind === "bearer";
const bearerOf = ({ config }: DeclaredEndpoint) => (config.auth.kind === "bearer" ? config.auth : null);

/** The per-address policy a request is metered by before anything else, if any. */
function addressPolicyOf({ ring, config }: DeclaredEndpoint): RatePolicy | null {
  const own = addressLimitOf(config.auth);
  if (own) return own;
  if (ring === "public") return PUBLIC_LIMIT;
  if (config.auth.kind === "client") return CLIENT_AUTHENTICATION_LIMIT;
  return null;
}

export const meterAddress: Step = {
  name: "meter the client address",
  raises: (endpoint) => (addressPolicyOf(endpoint) ? ["rate_limited"] : []),
  async run(exchange, next) {
    const policy = addressPolicyOf(exchange);
    if (policy) await meterAddressRequest(policy, exchange.request, exchange.context);
    await next();
  },
};

export const authenticate: Step = {
  name: "authenticate the bearer token",
  raises: (endpoint) => (isBearer(endpoint) ? BEARER_FAILURES : []),
  async run(exchange, next) {
    if (!isBearer(exchange)) return next();
    try {
      exchange.principal = await authenticateBearer(exchange.request);
    } catch (error) {
      await meterAnonymousPartnerRequest(exchange.request, exchange.context);
      throw error;
    }
    exchange.context.logFields.project_id = exchange.principal.projectId;
    exchange.context.logFields.environment = exchange.principal.environment;
    await next();
  },
};

export const meterProject: Step = {
  name: "spend the project's bucket and hold a concurrency slot",
  raises: (endpoint) => (isBearer(endpoint) ? ["rate_limited"] : []),
  async run(exchange, next) {
    if (!exchange.principal) return next();
    const release = await meterPartnerRequest(exchange.principal, exchange.context, { streams: exchange.config.streams ?? false });
    try {
      await next();
    } catch (error) {
      await release();
      throw error;
    }
    if (exchange.config.streams && exchange.response) exchange.response = releasingWhenStreamEnds(exchange.response, release, exchange.request.signal);
    else await release();
  },
};

export const checkScope: Step = {
  name: "check the token's scope",
  raises: (endpoint) => (isBearer(endpoint) ? ["insufficient_scope"] : []),
  async run(exchange, next) {
    const bearer = bearerOf(exchange);
    if (bearer && exchange.principal) assertScope(exchange.principal, bearer.scope);
    await next();
  },
};

export const checkSandbox: Step = {
  name: "keep test helpers to the sandbox",
  raises: (endpoint) => (bearerOf(endpoint)?.sandboxOnly ? ["route_not_found"] : []),
  async run(exchange, next) {
    if (bearerOf(exchange)?.sandboxOnly && exchange.principal) assertSandbox(exchange.principal);
    await next();
  },
};

export const checkCapability: Step = {
  name: "check the project's capability",
  raises: (endpoint) => (bearerOf(endpoint)?.capability ? ["capability_denied"] : []),
  async run(exchange, next) {
    const capability = bearerOf(exchange)?.capability;
    if (capability && exchange.principal) await assertCapability(exchange.principal.projectId, capability);
    await next();
  },
};

/** The response, whose body gives the request's slot back when it ends, fails or is cancelled, or the client goes. */
function releasingWhenStreamEnds(response: Response, release: () => Promise<void>, clientGone: AbortSignal): Response {
  let released = false;
  const releaseOnce = () => {
    if (released) return;
    released = true;
    void release();
  };
  if (!response.body) {
    releaseOnce();
    return response;
  }
  clientGone.addEventListener("abort", releaseOnce);
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await reader.read();
        if (!done) return controller.enqueue(value);
        controller.close();
      } catch (error) {
        controller.error(error);
      }
      releaseOnce();
    },
    cancel(reason) {
      releaseOnce();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}
