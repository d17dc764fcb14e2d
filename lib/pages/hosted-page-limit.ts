// The hosted pages' per-address bucket (HOSTED_PAGE_LIMIT): each view of a page that reads the database for the
// token in its address spends one. Over it, the page a person is shown instead says how long to wait, with the
// 429 and its Retry-After (lib/errors.ts, `renderErrorPage`). proxy.ts asks before the page renders.
import { config } from "../env";
import { ApiError, renderErrorPage } from "../errors";
import { clientAddress } from "../wire/client-address";
import { newId } from "../ids";
import { rateLimiter } from "../ratelimit/limiter";
import { HOSTED_PAGE_LIMIT, scalePolicy } from "../ratelimit/policies";

export async function refuseHostedPageOverLimit(request: Request): Promise<Response | null> {
  const decision = await rateLimiter().limit(scalePolicy(HOSTED_PAGE_LIMIT, config().RATE_LIMIT_SCALE), clientAddress(request));
  if (decision.allowed) return null;
  const { status, body, headers } = renderErrorPage(new ApiError("rate_limited", { retryAfterMs: decision.retryAfterMs }), newId("correlation"));
  return new Response(body, { status, headers });
}
