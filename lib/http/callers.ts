// The steps that learn who calls from what the body carries, once it is parsed: an OAuth client's credentials
// (RFC 6749 §2.3: the Authorization header or the form) or a publishable key; then the request's time on the
// caller's clock.
import { ApiError, type ErrorCode } from "../errors";
import { authenticatePublishableKey, type PublishableKeyCaller } from "../keys/publishable";
import { authenticateClient as authenticateOAuthClient, type ClientCredentialsInput } from "../oauth/client-authentication";
import { tenantClockOffsetMs } from "../tenant-clock";
import type { RequestContext } from "../wire/request-context";
import type { Exchange, Step } from "./step";

const PUBLISHABLE_KEY_FAILURES: ErrorCode[] = ["missing_api_key", "invalid_api_key", "key_revoked", "account_suspended"];

export const authenticateClient: Step = {
  name: "authenticate the OAuth client",
  raises: ({ config }) => (config.auth.kind === "client" ? ["invalid_client"] : []),
  async run(exchange, next) {
    if (exchange.config.auth.kind === "client") {
      exchange.client = await authenticateOAuthClient({ authorization: exchange.request.headers.get("authorization"), form: exchange.body as ClientCredentialsInput });
    }
    await next();
  },
};

export const authenticateKey: Step = {
  name: "authenticate the publishable key",
  raises: ({ config }) => (config.auth.kind === "publishable_key" ? PUBLISHABLE_KEY_FAILURES : []),
  async run(exchange, next) {
    if (exchange.config.auth.kind === "publishable_key") exchange.publishableKey = await authenticatePublishableKeyOf(exchange.body, exchange.context);
    await next();
  },
};

/** The key a parsed body presents as `publishable_key` (the endpoint's schema requires it), authenticated. */
async function authenticatePublishableKeyOf(body: unknown, context: RequestContext): Promise<PublishableKeyCaller> {
  const presented = (body as { publishable_key?: unknown } | undefined)?.publishable_key;
  if (typeof presented !== "string") throw new ApiError("missing_api_key", { message: "Send your publishable key (pk_sandbox_… or pk_live_…) as publishable_key." });
  const caller = await authenticatePublishableKey(presented);
  context.logFields.project_id = caller.tenant.projectId;
  context.logFields.environment = caller.tenant.environment;
  return caller;
}

export const takeRequestTime: Step = {
  name: "take the request's time on the caller's clock",
  raises: () => [],
  async run(exchange, next) {
    exchange.now = await requestTimeOf(exchange);
    await next();
  },
};

/**
 * The time the request arrived, moved by its tenant's test-clock offset (the bearer's, read with its project's
 * state at authentication; the publishable key's project's). A request without a tenant keeps real time.
 */
async function requestTimeOf({ context, principal, publishableKey }: Exchange): Promise<Date> {
  const tenant = principal ?? publishableKey?.tenant;
  if (!tenant) return context.receivedAt;
  return new Date(context.receivedAt.getTime() + (await tenantClockOffsetMs(tenant)));
}
