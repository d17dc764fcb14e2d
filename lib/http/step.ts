// One step of the route builder (steps.ts lists them in order): a small function that does its part of a request
// and calls the next step, and the error codes it can raise for an endpoint, which the API reference documents.
import type { ErrorCode, Ring } from "../errors";
import type { HeldClaim } from "../idempotency/idempotency";
import type { Reply } from "./reply";
import type { RequestContext } from "../wire/request-context";
import type { Caller } from "./auth-kinds";
import type { DeclaredConfig } from "./endpoint";

export type NextRouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

/** An endpoint as a step sees it when declaring what it raises. */
export interface DeclaredEndpoint {
  ring: Ring;
  config: DeclaredConfig;
}

/** One request on its way through the steps: what it brought, and what each step has learnt of it so far. */
export interface Exchange extends DeclaredEndpoint {
  readonly request: Request;
  readonly routeContext: NextRouteContext;
  readonly context: RequestContext;
  /** Who calls, once a step has authenticated them; null for an endpoint without a credential. */
  caller: Caller | null;
  /** The request's time on its tenant's clock, once the caller is known. */
  now: Date;
  params: unknown;
  query: unknown;
  body: unknown;
  transaction: unknown;
  /** The Idempotency-Key this request holds, whose outcome its transaction records. */
  idempotencyClaim?: HeldClaim;
  /** What the handler answered. */
  reply?: Reply | Response;
  /** The response, once a step has one (a replay, an error, the reply rendered). */
  response?: Response;
}

export interface Step {
  readonly name: string;
  /** The codes the step can raise for `endpoint`; none where it does not apply. */
  raises(endpoint: DeclaredEndpoint): readonly ErrorCode[];
  run(exchange: Exchange, next: () => Promise<void>): Promise<void>;
}
