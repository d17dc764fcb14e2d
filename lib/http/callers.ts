// The steps that learn who calls from what the body carries, once it is read (an OAuth client's credentials,
// RFC 6749 §2.3: the Authorization header or the form; a publishable key; a dashboard form's CSRF token, which
// comes before its member's session is read), and the request's time on the caller's clock, taken once every
// kind of caller is known and before any body is validated.
import { tenantClockOffsetMs } from "../tenant-clock";
import { atRequestTime } from "../wire/request-time";
import { authenticateFrom } from "./admission";
import { tenantOf } from "./auth-kinds";
import { validatedBody } from "./parsing";
import type { Step } from "./step";

export const authenticateFromBody = authenticateFrom("body", "authenticate the caller the body names", validatedBody);

/**
 * Runs the rest of the request at the time it arrived, moved by its caller's tenant's test-clock offset (a
 * bearer's, read with its project's state at authentication; a publishable key's project's): the handler's
 * `now`, and the time body validations read (lib/wire/request-time.ts). Without a tenant, real time.
 */
export const takeRequestTime: Step = {
  name: "take the request's time on the caller's clock",
  raises: () => [],
  async run(exchange, next) {
    const tenant = tenantOf(exchange.caller);
    const arrived = exchange.context.receivedAt;
    exchange.now = tenant ? new Date(arrived.getTime() + (await tenantClockOffsetMs(tenant))) : arrived;
    return atRequestTime(exchange.now, next);
  },
};
