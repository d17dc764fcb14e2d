// What a request carries from its first step to its last: its ids, its route, its time, the fields its log line
// gathers and the rate-limit decision its headers describe. The route builder (lib/http) fills it in; services
// that answer a protocol of their own (lib/mcp) add to its log line.
import type { Ring } from "../errors";
import type { RatePolicy } from "../ratelimit/policies";
import type { LimitDecision } from "../ratelimit/store";

export interface RateLimitState {
  policy: RatePolicy;
  decision: LimitDecision;
}

export interface RequestContext {
  readonly requestId: string;
  readonly ring: Ring;
  readonly method: string;
  readonly url: URL;
  /**
   * What the logs name the request by: the route's pattern (`/apply/{token}/status`), never the path, whose
   * segments may be capabilities (a journey's handoff token, a payment link's token).
   */
  readonly route: string;
  readonly startedAt: number;
  /** When the request arrived, on the platform's clock (lib/clock.ts): its one time, read once. */
  readonly receivedAt: Date;
  /** Fields later steps learn (project, environment) for the request log line. */
  readonly logFields: Record<string, unknown>;
  /** The rate-limit decision the response's RateLimit-* headers describe. */
  rateLimit?: RateLimitState;
}
