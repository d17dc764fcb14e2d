// The named catalogue of rate limits (spec 8). Every limit in the platform is one of these policies.
import type { TenantEnvironment } from "../tenant";

export interface TokenBucketPolicy {
  kind: "tokenBucket";
  name: string;
  /** Tokens added per second (the sustained rate); the bucket refills once a second. */
  ratePerSecond: number;
  /** Bucket size: how many requests may arrive at once. */
  burst: number;
}

export interface FixedWindowPolicy {
  kind: "fixedWindow";
  name: string;
  limit: number;
  windowSeconds: number;
}

export type RatePolicy = TokenBucketPolicy | FixedWindowPolicy;

export interface TierLimits {
  ratePerSecond: number;
  burst: number;
  concurrent: number;
}

/** Partner tiers (sustained / burst / concurrent). The sandbox always runs on the build tier's numbers. */
export const TIER_LIMITS: Record<"build" | "launch" | "scale", TierLimits> = {
  build: { ratePerSecond: 10, burst: 50, concurrent: 10 },
  launch: { ratePerSecond: 25, burst: 100, concurrent: 20 },
  scale: { ratePerSecond: 100, burst: 400, concurrent: 50 },
};

export interface ProjectLimitSettings {
  tier: "build" | "launch" | "scale" | "platform";
  platform: { ratePerSecond: number | null; burst: number | null; concurrent: number | null };
}

/** The limits of a project's bucket in one environment: platform projects use their negotiated numbers. */
export function tierLimitsFor(project: ProjectLimitSettings, environment: TenantEnvironment): TierLimits {
  if (environment === "sandbox" || project.tier === "build") return TIER_LIMITS.build;
  if (project.tier !== "platform") return TIER_LIMITS[project.tier];
  const fallback = TIER_LIMITS.scale;
  return {
    ratePerSecond: project.platform.ratePerSecond ?? fallback.ratePerSecond,
    burst: project.platform.burst ?? fallback.burst,
    concurrent: project.platform.concurrent ?? fallback.concurrent,
  };
}

// One policy object per rate and burst, so a partner request neither builds its bucket's policy nor scales it again.
const projectBucketPolicies = new Map<string, TokenBucketPolicy>();

export function projectBucketPolicy(limits: TierLimits): TokenBucketPolicy {
  const name = `project-${limits.ratePerSecond}-${limits.burst}`;
  let policy = projectBucketPolicies.get(name);
  if (!policy) {
    policy = { kind: "tokenBucket", name, ratePerSecond: limits.ratePerSecond, burst: limits.burst };
    projectBucketPolicies.set(name, policy);
  }
  return policy;
}

const perSecond = (name: string, ratePerSecond: number): TokenBucketPolicy => ({ kind: "tokenBucket", name, ratePerSecond, burst: ratePerSecond });

/**
 * A person's reads of their company's accounts with a sign-in access token (docs/sign-in.md), per user: no
 * project's bucket is theirs to spend, so they have their own, the sandbox tier's.
 */
export const PERSON_LIMIT: TokenBucketPolicy = { kind: "tokenBucket", name: "person", ratePerSecond: 10, burst: 50 };

/** The same requests per client address, so many people's tokens from one address cannot flood the API. */
export const PERSON_ADDRESS_LIMIT: TokenBucketPolicy = { kind: "tokenBucket", name: "person-address", ratePerSecond: 20, burst: 100 };

/** Partner-ring requests without a valid token, and the JWKS, per client address. */
export const ANONYMOUS_PARTNER_LIMIT: TokenBucketPolicy = {
  kind: "tokenBucket",
  name: "partner-anonymous",
  ratePerSecond: TIER_LIMITS.build.ratePerSecond,
  burst: TIER_LIMITS.build.burst,
};

/**
 * Requests to the endpoints that authenticate an OAuth client (token, introspection, client secrets), per client
 * address, spent before anything in the request is read: what an unauthenticated caller can make us do. The
 * per-client limits are spent only once the client has authenticated, so nobody can drain another's bucket.
 */
export const CLIENT_AUTHENTICATION_LIMIT: TokenBucketPolicy = { kind: "tokenBucket", name: "oauth-client-address", ratePerSecond: 50, burst: 100 };

/**
 * A route's own limit, on top of the project bucket or the per-address limit, keyed per project and
 * environment (bearer routes), per authenticated OAuth client (the endpoints that authenticate one), per
 * authenticated publishable key (the apply widget's start), per person signed in (their user id) or per client
 * address.
 */
export interface SubLimit {
  policy: RatePolicy;
  per: "project" | "client" | "publishable_key" | "user" | "address";
}

/** The route sub-limits (spec 8), named; each route declares its own on its endpoint config (`rateLimit`). */
export const SUB_LIMITS = {
  applicationsCreate: { policy: perSecond("applications-create", 5), per: "project" },
  decisionsRefresh: { policy: perSecond("decisions-refresh", 1), per: "project" },
  identityChecks: { policy: perSecond("identity-checks", 5), per: "project" },
  paymentLinksCreate: { policy: perSecond("payment-links-create", 10), per: "project" },
  /** Replays queue deliveries to every subscribed endpoint (the spec gives no number): 2 a second, bursts of 10. */
  eventsReplay: { policy: { kind: "tokenBucket", name: "events-replay", ratePerSecond: 2, burst: 10 }, per: "project" },
  /** A recovery queues up to an endpoint's 30 days of failures at once (the spec gives no number): 1 a second, bursts of 5. */
  webhookDeliveriesRecover: { policy: { kind: "tokenBucket", name: "webhook-deliveries-recover", ratePerSecond: 1, burst: 5 }, per: "project" },
  /** The token endpoint (spec 8: 10 requests/s), per authenticated client. */
  oauthToken: { policy: perSecond("oauth-token", 10), per: "client" },
  /** Token introspection, per authenticated client (the spec gives no number; we use the token endpoint's). */
  oauthIntrospect: { policy: perSecond("oauth-introspect", 10), per: "client" },
  /** New client secrets (each one is a key that stays until revoked), per authenticated client: 10 an hour. */
  oauthClientSecrets: { policy: { kind: "fixedWindow", name: "oauth-client-secrets", limit: 10, windowSeconds: 3600 }, per: "client" },
  /** The JWKS shares the per-address bucket of unauthenticated partner requests. */
  oauthJwks: { policy: ANONYMOUS_PARTNER_LIMIT, per: "address" },
  /**
   * Applications the apply widget starts, per publishable key: the partner API's create rate (5 a second), in
   * bursts of 20, whoever's page the key is on.
   */
  widgetStartsPerKey: { policy: { kind: "tokenBucket", name: "widget-start-key", ratePerSecond: 5, burst: 20 }, per: "publishable_key" },
} as const satisfies Record<string, SubLimit>;

/** The public ring: 60 requests per 60 seconds per client address, fixed window. */
export const PUBLIC_LIMIT: FixedWindowPolicy = { kind: "fixedWindow", name: "public", limit: 60, windowSeconds: 60 };

/**
 * The public MCP server (spec 8: its own per-address limit, value ours), on both of its URLs (`/mcp` and
 * `/public/v1/mcp`) and apart from the public ring's window: bursts of 30 (an agent's session opens with
 * initialize, tools/list and a few calls at once), then one request a second.
 */
export const PUBLIC_MCP_LIMIT: TokenBucketPolicy = { kind: "tokenBucket", name: "public-mcp", ratePerSecond: 1, burst: 30 };

/**
 * The hosted journey's form posts, per client address: an applicant answers a step every few seconds at most,
 * and each answer may run an identity check or read a bank, so a burst of 20 refilled at one a second.
 */
export const JOURNEY_FORM_LIMIT: TokenBucketPolicy = { kind: "tokenBucket", name: "journey-form", ratePerSecond: 1, burst: 20 };

/**
 * The site's Apply form posts, per client address: a person corrects a refused answer or two and starts one
 * application, perhaps a few from an office; each start spends the widget starts' share of the registry budget.
 * Bursts of 10, then one every ten seconds.
 */
export const DIRECT_APPLY_FORM_LIMIT: TokenBucketPolicy = { kind: "tokenBucket", name: "direct-apply-form", ratePerSecond: 0.1, burst: 10 };

/**
 * The apply widget's starts, per client address, spent before the body is read: an applicant starts one
 * application, perhaps a few, so ten a minute leaves room for an office behind one address.
 */
export const WIDGET_START_ADDRESS_LIMIT: FixedWindowPolicy = { kind: "fixedWindow", name: "widget-start-address", limit: 10, windowSeconds: 60 };

/** At most `total` in any five minutes: `burst` at once, the rest refilled evenly over the five minutes. */
const perFiveMinutes = (name: string, total: number, burst: number): TokenBucketPolicy => ({ kind: "tokenBucket", name, ratePerSecond: (total - burst) / 300, burst });

/**
 * Calls to Companies House, platform-wide (lib/registry/quota.ts). Its quota is 600 per five minutes for the
 * platform's key; we spend at most 500 in any five minutes (buckets, so the bound holds over every five minutes,
 * not only over aligned windows), of which apply.js widget starts may spend at most 200, leaving 300 that only
 * authenticated partner creates can spend. Not scaled by RATE_LIMIT_SCALE: the quota is Companies House's.
 */
export const REGISTRY_BUDGET = {
  platform: perFiveMinutes("registry-calls", 500, 100),
  widgetStarts: perFiveMinutes("registry-calls-widget", 200, 40),
} as const satisfies Record<string, TokenBucketPolicy>;

/**
 * Views of the pages that read the database for a token in their address (the journey's steps, the payment
 * page), per client address: a person moves a page every few seconds, so bursts of 60, then two a second.
 */
export const HOSTED_PAGE_LIMIT: TokenBucketPolicy = { kind: "tokenBucket", name: "hosted-page", ratePerSecond: 2, burst: 60 };

/** The payment page's sandbox bank (Approve, Fail), per client address: a payer presses one button, once. */
export const PAYMENT_BANK_LIMIT: TokenBucketPolicy = { kind: "tokenBucket", name: "payment-bank", ratePerSecond: 1, burst: 10 };

/** The partner dashboard's form posts (create, roll, revoke a key...), per client address: a person's clicks. */
export const DASHBOARD_FORM_LIMIT: TokenBucketPolicy = { kind: "tokenBucket", name: "dashboard-form", ratePerSecond: 2, burst: 20 };

/** The waiting page's status checks, per client address: one every few seconds from each open page. */
export const JOURNEY_STATUS_LIMIT: TokenBucketPolicy = { kind: "tokenBucket", name: "journey-status", ratePerSecond: 2, burst: 30 };

/**
 * The site assistant's questions (spec 8 leaves the number to us; docs/site.md), per client address, spent before
 * the CSRF token is checked: a person asks a question every few seconds at most, so bursts of 10, then one every
 * 4 seconds (15 a minute): room for an office behind one address, none for a script asking thousands.
 */
export const SITE_ASSISTANT_LIMIT: TokenBucketPolicy = { kind: "tokenBucket", name: "site-assistant", ratePerSecond: 0.25, burst: 10 };

/** `RateLimit-Policy` (draft-ietf-httpapi-ratelimit-headers): `<rate>;w=<seconds>;burst=<n>`. */
export function describePolicy(policy: RatePolicy): string {
  return policy.kind === "tokenBucket" ? `${policy.ratePerSecond};w=1;burst=${policy.burst}` : `${policy.limit};w=${policy.windowSeconds}`;
}

/** A policy with its numbers multiplied (RATE_LIMIT_SCALE); its name changes too, so buckets never mix. */
// Scaled policies by policy and scale, so the fixed policies are scaled once, not on every request.
const scaledPolicies = new WeakMap<RatePolicy, { scale: number; scaled: RatePolicy }>();

export function scalePolicy<P extends RatePolicy>(policy: P, scale: number): P {
  if (scale === 1) return policy;
  const known = scaledPolicies.get(policy);
  if (known?.scale === scale) return known.scaled as P;
  const name = `${policy.name}-x${scale}`;
  const scaled: P =
    policy.kind === "tokenBucket"
      ? { ...policy, name, ratePerSecond: policy.ratePerSecond * scale, burst: policy.burst * scale }
      : { ...policy, name, limit: (policy as FixedWindowPolicy).limit * scale };
  scaledPolicies.set(policy, { scale, scaled });
  return scaled;
}

/**
 * Sign-in attempts at the sign-in provider (lib/oidc/interactions.ts), per client address: an office behind one
 * address may sign several people in, so bursts of 20, then one every five seconds.
 */
export const SIGN_IN_ADDRESS_LIMIT: TokenBucketPolicy = { kind: "tokenBucket", name: "sign-in-address", ratePerSecond: 0.2, burst: 20 };

/**
 * Sign-in attempts per email address (keyed by its hash), wherever they come from: five, then one a minute, so a
 * password cannot be guessed from many addresses at once.
 */
export const SIGN_IN_EMAIL_LIMIT: TokenBucketPolicy = { kind: "tokenBucket", name: "sign-in-email", ratePerSecond: 1 / 60, burst: 5 };
