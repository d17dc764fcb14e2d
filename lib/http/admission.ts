// Admission: the steps a request must pass before its input is read. The per-address meter of its kind of
// caller (AUTH_KINDS) is spent first; a caller the headers name (a bearer token, a person's sign-in token, a
// local signature check; an operator) is authenticated; for a bearer the project's bucket is spent (for a person,
// their own and their address's), then the scope, the sandbox and the project's capability are checked; a
// request without a valid token is metered per client address before its 401 is sent.
import { assertCapability } from "../projects/capabilities";
import { assertPersonScope, assertSandbox, assertScope } from "./auth";
import { authKindOf, personOf, principalOf, tenantOf } from "./auth-kinds";
import { meterAddressRequest, meterPartnerRequest, meterPersonRequest } from "./metering";
import type { DeclaredEndpoint, Exchange, Step } from "./step";

const isBearer = ({ config }: DeclaredEndpoint) => config.auth.kind === "bearer" || config.auth.kind === "person";
/** The sign-in scope a person's token needs on the endpoint, if a person may call it. */
const personScopeOf = ({ config: { auth } }: DeclaredEndpoint) => (auth.kind === "person" ? auth.scope : auth.kind === "bearer" ? auth.person : undefined);
const bearerOf = ({ config }: DeclaredEndpoint) => (config.auth.kind === "bearer" ? config.auth : null);
const addressPolicyOf = ({ ring, config }: DeclaredEndpoint) => authKindOf(config.auth).addressPolicy(ring, config.auth);

export const meterAddress: Step = {
  name: "meter the client address",
  raises: (endpoint) => (addressPolicyOf(endpoint) ? ["rate_limited"] : []),
  async run(exchange, next) {
    const policy = addressPolicyOf(exchange);
    if (policy) await meterAddressRequest(policy, exchange.request, exchange.context);
    await next();
  },
};

/**
 * The caller of a kind that `from` names, authenticated; its tenant, if any, goes in the request's log line. A
 * body the caller is named in is answered by its schema first when the caller is refused (`refusedBody`), so a
 * malformed request hears what is malformed before whether its credential holds.
 */
export function authenticateFrom(from: "headers" | "body", name: string, refusedBody?: (exchange: Exchange) => void): Step {
  return {
    name,
    raises: ({ config }) => (authKindOf(config.auth).authenticatedFrom === from ? authKindOf(config.auth).refusals : []),
    async run(exchange, next) {
      const kind = authKindOf(exchange.config.auth);
      if (kind.authenticatedFrom !== from) return next();
      try {
        exchange.caller = await kind.authenticate(exchange, exchange.config.auth);
      } catch (error) {
        refusedBody?.(exchange);
        if (kind.meteredWhenRefused) await meterAddressRequest(kind.meteredWhenRefused, exchange.request, exchange.context);
        throw error;
      }
      const tenant = tenantOf(exchange.caller);
      if (tenant) {
        exchange.context.logFields.project_id = tenant.projectId;
        exchange.context.logFields.environment = tenant.environment;
      }
      await next();
    },
  };
}

export const authenticate = authenticateFrom("headers", "authenticate the caller");

export const meterProject: Step = {
  name: "spend the project's bucket and hold a concurrency slot",
  raises: (endpoint) => (isBearer(endpoint) ? ["rate_limited"] : []),
  async run(exchange, next) {
    const person = personOf(exchange.caller);
    if (person) await meterPersonRequest(person, exchange.request, exchange.context);
    const principal = principalOf(exchange.caller);
    if (!principal) return next();
    const release = await meterPartnerRequest(principal, exchange.context, { streams: exchange.config.streams ?? false });
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
    const principal = principalOf(exchange.caller);
    if (bearer && principal) assertScope(principal, bearer.scope);
    const person = personOf(exchange.caller);
    const personScope = personScopeOf(exchange);
    if (person && personScope) assertPersonScope(person, personScope);
    await next();
  },
};

export const checkSandbox: Step = {
  name: "keep test helpers to the sandbox",
  raises: (endpoint) => (bearerOf(endpoint)?.sandboxOnly ? ["route_not_found"] : []),
  async run(exchange, next) {
    const principal = principalOf(exchange.caller);
    if (bearerOf(exchange)?.sandboxOnly && principal) assertSandbox(principal);
    await next();
  },
};

export const checkCapability: Step = {
  name: "check the project's capability",
  raises: (endpoint) => (bearerOf(endpoint)?.capability ? ["capability_denied"] : []),
  async run(exchange, next) {
    const capability = bearerOf(exchange)?.capability;
    const principal = principalOf(exchange.caller);
    if (capability && principal) await assertCapability(principal.projectId, capability);
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
