// The steps that learn who calls from what the body carries, once it is parsed (an OAuth client's credentials,
// RFC 6749 §2.3: the Authorization header or the form; a publishable key), and the request's time on the
// caller's clock, as soon as the caller is known.
import { ApiError, type ErrorCode } from "../errors";
import { authenticatePublishableKey, type PublishableKeyCaller } from "../keys/publishable";
import { authenticateClient as authenticateOAuthClient, type ClientCredentialsInput } from "../oauth/client-authentication";
import { tenantClockOffsetMs } from "../tenant-clock";
import type { Tenant } from "../tenant";
import type { RequestContext } from "../wire/request-context";
import { atRequestTime } from "../wire/request-time";
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
    if (exchange.config.auth.kind !== "publishable_key") return next();
    exchange.publishableKey = await authenticatePublishableKeyOf(exchange.body, exchange.context);
    await continueAtTenantTime(exchange, exchange.publishableKey.tenant, next);
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
  run: (exchange, next) => continueAtTenantTime(exchange, exchange.principal, next),
};

/**
 * Runs the rest of the request at the time it arrived, moved by `tenant`'s test-clock offset (a bearer's, read
 * with its project's state at authentication; a publishable key's project's, once the key is known): the
 * handler's `now`, and the time its validations read (lib/wire/request-time.ts). Without a tenant, real time.
 */
async function continueAtTenantTime(exchange: Exchange, tenant: Pick<Tenant, "projectId" | "environment" | "sandboxClockOffsetDays"> | null, next: () => Promise<void>): Promise<void> {
  const arrived = exchange.context.receivedAt;
  exchange.now = tenant ? new Date(arrived.getTime() + (await tenantClockOffsetMs(tenant))) : arrived;
  return atRequestTime(exchange.now, next);
}
