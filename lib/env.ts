// The one configuration module. Every variable the platform reads is declared and validated here;
// bad configuration fails at start with a message naming the variable.
import { isIP } from "node:net";
import { z } from "zod";

const booleanFlag = z
  .enum(["true", "false", "1", "0"])
  .transform((value) => value === "true" || value === "1");

const httpUrl = z
  .url({ protocol: /^https?$/ })
  .transform((value) => value.replace(/\/+$/, ""));

const ed25519Jwk = z.looseObject({
  kty: z.literal("OKP"),
  crv: z.literal("Ed25519"),
  x: z.string().min(1),
  d: z.string().min(1).optional(),
  kid: z.string().optional(),
});

/** A JSON-encoded value in an environment variable, checked against `schema`. */
function jsonVariable<T extends z.ZodType>(schema: T) {
  return z
    .string()
    .transform((text, context) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        context.addIssue({ code: "custom", message: "must be JSON" });
        return z.NEVER;
      }
    })
    .pipe(schema);
}

const port = z.coerce.number().int().min(1).max(65535).default(3000);

/** A name server as node:dns takes it: an IP address, or `ipv4:port` / `[ipv6]:port`. */
const nameServer = z.string().refine((value) => {
  if (isIP(value) !== 0) return true;
  const withPort = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(value);
  if (!withPort) return false;
  const family = withPort[1] === undefined ? 4 : 6;
  const portNumber = Number(withPort[3]);
  return isIP(withPort[1] ?? withPort[2]!) === family && portNumber >= 1 && portNumber <= 65535;
}, "must be an IP address, with an optional :port ([ipv6]:port)");

const configSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: port,
  /** PostgreSQL server. When unset, the launch scripts start an embedded one and set it. */
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  /** Connections in each app process's PostgreSQL pool. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * The most of the pool one project's work may hold at once in a process (lib/pool-bulkhead.ts); its further
   * work waits in its own queue. Unset: half of DATABASE_POOL_SIZE, at least 1.
   */
  DATABASE_PROJECT_CONNECTIONS: z.coerce.number().int().min(1).max(200).optional(),
  /** Every statement on the pool is cancelled after this long (PostgreSQL's statement_timeout), in milliseconds. */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(1).max(3_600_000).default(10_000),
  /** The spec's hosts (page 1). Each defaults to the one origin the app listens on. */
  BASE_URL: httpUrl.optional(),
  HUB_URL: httpUrl.optional(),
  PARTNER_API_URL: httpUrl.optional(),
  SSO_URL: httpUrl.optional(),
  APPLY_URL: httpUrl.optional(),
  JS_URL: httpUrl.optional(),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  /** Largest accepted request body, in bytes (spec part 8 leaves the value to us): 1 MiB. */
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(50 * 1024 * 1024).default(1024 * 1024),
  /** Embedded PostgreSQL port used when DATABASE_URL is unset. */
  EMBEDDED_POSTGRES_PORT: z.coerce.number().int().min(1024).max(65535).default(54329),
  /** Where `npm run dev` keeps the demo project's sandbox secrets so it can print them on every start. */
  DEMO_CREDENTIALS_FILE: z.string().min(1).default(".data/demo-credentials.json"),
  /** Where `npm run dev` keeps the demo borrower's sign-in (lib/seed/seed-borrower.ts) to print it on every start. */
  DEMO_BORROWER_FILE: z.string().min(1).default(".data/demo-borrower.json"),
  /**
   * Private Ed25519 JWK (JSON) that signs partner access tokens. Unset: a key is generated once and kept in
   * the database. Set it in production so the key lives with your other secrets.
   */
  OAUTH_SIGNING_KEY: jsonVariable(ed25519Jwk.refine((jwk) => jwk.d !== undefined, "must be a private key (with d)")).optional(),
  /**
   * 32 random bytes, base64: seals (AES-256-GCM) the token-signing keys the platform generates and keeps in the
   * database, so no private key rests there in the clear. `npm start` requires it or OAUTH_SIGNING_KEY.
   */
  OAUTH_KEY_ENCRYPTION_KEY: z
    .string()
    .refine((value) => Buffer.from(value, "base64").length === 32, "must be 32 bytes, base64-encoded (openssl rand -base64 32)")
    .optional(),
  /** Public JWKs (JSON array) of keys retired from signing, still listed in the JWKS while their tokens live. */
  OAUTH_PREVIOUS_SIGNING_KEYS: jsonVariable(z.array(ed25519Jwk.omit({ d: true }))).optional(),
  /**
   * Secrets (comma-separated, at least 32 characters each) that sign the sign-in provider's cookies; the first
   * signs, all verify, so a new one can be put first and an old one dropped later. Unset: one random secret is
   * generated once and kept in the database (sealed under OAUTH_KEY_ENCRYPTION_KEY when that is set).
   */
  SSO_COOKIE_KEYS: z
    .string()
    .transform((value) => value.split(",").map((key) => key.trim()).filter(Boolean))
    .pipe(z.array(z.string().min(32, "each key must be at least 32 characters")).min(1))
    .optional(),
  /**
   * The app's own sign-in secret (at least 32 characters): encrypts the borrower area's session cookie (next-auth)
   * and derives the app's client secret at its own sign-in provider (lib/oidc/app-client.ts). npm start requires
   * it; unset in development, one is generated once and kept in the database.
   */
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters (openssl rand -base64 32)").optional(),
  /** Rate-limit store: Upstash over REST when both are set, else a plain Redis at REDIS_URL, else in process. */
  UPSTASH_REDIS_REST_URL: z.url({ protocol: /^https?$/ }).optional(),
  UPSTASH_REDIS_REST_TOKEN: z.string().min(1).optional(),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  /**
   * Header a trusted reverse proxy sets to the client address (e.g. `x-forwarded-for`, `cf-connecting-ip`).
   * Unset: the socket's peer address, so callers cannot choose their own rate-limit bucket.
   */
  TRUSTED_PROXY_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9-]+$/, "must be a header name")
    .transform((name) => name.toLowerCase())
    .optional(),
  /**
   * The operators' bearer token for GET /healthz/internal. In production only its bearer may read the process's
   * internals (unset: nobody, the route answers 404): behind a reverse proxy on the same machine every caller
   * arrives from loopback. Elsewhere a request from this machine that no proxy forwarded may read them too.
   */
  HEALTHZ_INTERNAL_TOKEN: z.string().regex(/^[A-Za-z0-9\-._~+/]{32,}=*$/, "must be at least 32 characters of a bearer token (openssl rand -hex 32)").optional(),
  /**
   * `npm start` answers the route builder's routes (the API rings, OAuth, MCP, /healthz, /openapi) from the build
   * without Next's router (scripts/direct-routes.ts). Set, Next routes every request, as `npm run dev` always does:
   * to compare the two (tests/e2e/direct-parity.spec.ts, `npm run bench`).
   */
  SERVE_API_THROUGH_NEXT: booleanFlag.default(false),
  /** Days an application stays open for the applicant before it expires (spec 2.2 `expires_at`). */
  APPLICATION_EXPIRY_DAYS: z.coerce.number().int().min(1).max(90).default(14),
  /** Companies House public data API key: when set, live company lookups go to Companies House. */
  COMPANIES_HOUSE_API_KEY: z.string().min(1).optional(),
  /** Where the Companies House public data API is; unset, its public address (lib/registry). */
  COMPANIES_HOUSE_API_URL: httpUrl.optional(),
  /**
   * Where live identity checks go (docs/identity.md): `http`, a provider answering our contract at
   * IDENTITY_PROVIDER_URL; `sandbox`, the sandbox rules (for developing a live integration on one machine; `npm
   * start` refuses it). Unset: live identity checks answer 503. Sandbox checks always follow the sandbox rules.
   */
  IDENTITY_PROVIDER: z.enum(["http", "sandbox"]).optional(),
  /** The provider's check endpoint, when IDENTITY_PROVIDER is `http`: each check is POSTed to it. */
  IDENTITY_PROVIDER_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Sent to the provider as `Authorization: Bearer <key>`, when set. */
  IDENTITY_PROVIDER_API_KEY: z.string().min(1).optional(),
  /**
   * Inngest runs the background functions (served at /api/inngest) when an event key or signing key is set
   * (Inngest Cloud or a self-hosted server), or INNGEST_DEV for a local dev server. Unset: the in-process
   * local driver runs the same operations.
   */
  INNGEST_EVENT_KEY: z.string().min(1).optional(),
  INNGEST_SIGNING_KEY: z.string().min(1).optional(),
  INNGEST_DEV: z.string().min(1).optional(),
  /**
   * Lets sandbox webhook endpoints target loopback and private addresses, over https (a platform run locally, and
   * tests). Nothing more: http is refused in every environment, and live endpoints never may.
   */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: booleanFlag.default(false),
  /**
   * Name servers (comma-separated) that resolve webhook hosts, at registration and at every delivery attempt. Unset:
   * the system's (/etc/resolv.conf). Tests point it at a DNS server they run; in production, set it only to use
   * particular resolvers.
   */
  WEBHOOK_DNS_SERVERS: z
    .string()
    .transform((value) => value.split(",").map((server) => server.trim()).filter(Boolean))
    .pipe(z.array(nameServer))
    .default([]),
  /**
   * How long each try waits for a name server's answer when resolving a webhook host, in milliseconds (two tries per
   * record type). Tests shorten it; at most 3 s, so a silent name server leaves time in an attempt's 10 s.
   */
  WEBHOOK_DNS_TIMEOUT_MS: z.coerce.number().int().min(1).max(3_000).default(1_000),
  /**
   * How long a webhook attempt's claim on its delivery lasts, in seconds: a process that dies mid-attempt leaves the
   * delivery to the others once it lapses. Keep it above the 10 s an attempt may take (a claim that lapses mid-attempt
   * lets a second process send it too); the fleet drill shortens it so a killed process's work is seen picked up.
   */
  WEBHOOK_CLAIM_SECONDS: z.coerce.number().int().min(1).max(3_600).default(60),
  /**
   * How long a stopping process (SIGTERM) lets its in-flight requests finish before closing their connections; it
   * then releases the background work it holds and exits. Keep it under the orchestrator's own kill deadline.
   */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
  /** SMTP server for notifications to partner teams, e.g. smtp://user:pass@smtp.example.com:587. Unset: kept in the database only. */
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  /** Sender of notification emails. */
  NOTIFICATIONS_FROM: z.string().min(3).default("Lending Platform <no-reply@lending.invalid>"),
  /** Further site origins (comma-separated) allowed to POST to the public ring from a browser; BASE_URL always is. */
  CORS_ALLOWED_ORIGINS: z
    .string()
    .transform((value) => value.split(",").map((origin) => origin.trim()).filter(Boolean))
    .pipe(z.array(z.url({ protocol: /^https?$/ }).transform((origin) => new URL(origin).origin)))
    .default([]),
  /**
   * Multiplies every rate limit and concurrency cap (1 = the spec's numbers). For load tests and benchmarks
   * (`npm run bench` runs its server with a large scale); leave it at 1 in production.
   */
  RATE_LIMIT_SCALE: z.coerce.number().int().min(1).max(1_000_000).default(1),
  /**
   * The longest a streaming response (GET /partner/v1/events/stream) stays open; the client then reconnects
   * with Last-Event-ID. The stream holds one of its project's concurrent-request slots all that time.
   */
  STREAM_MAX_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
  /**
   * A sandbox test-clock advance that has not finished after this long answers 202 with the clock `advancing`
   * and goes on in the background (docs/sandbox.md, "Test clock"); 0 answers 202 at once. At most 30 s, well
   * within the 60 s a request's concurrency slot lives, so the request holds its slot for as long as it runs.
   */
  SANDBOX_CLOCK_ANSWER_WITHIN_MS: z.coerce.number().int().min(0).max(30_000).default(3_000),
  /** Rows a test-clock advance moves in one transaction (per due-work entry and day). */
  SANDBOX_CLOCK_BATCH_SIZE: z.coerce.number().int().min(1).max(1_000).default(50),
  /**
   * Seed the demo project and print its sandbox secret on start. Unset: yes for `npm run dev`, no for
   * `npm start` (a production process must not create a tenant whose secret it prints); see demoSeedWanted.
   */
  SEED_DEMO: booleanFlag.optional(),
});

export type Config = z.infer<typeof configSchema> & {
  BASE_URL: string;
  HUB_URL: string;
  PARTNER_API_URL: string;
  SSO_URL: string;
  APPLY_URL: string;
  JS_URL: string;
};

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Blank values count as unset, so `FOO=` in a shell behaves like no FOO. */
function parseEnvironment<S extends z.ZodType>(schema: S, environment: Record<string, string | undefined>): z.output<S> {
  const present = Object.fromEntries(Object.entries(environment).filter(([, value]) => value !== undefined && value !== ""));
  const result = schema.safeParse(present);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${problems.join("\n")}`);
  }
  return result.data;
}

/**
 * The sign-in provider's path on its host. Its pages (app/sso) and the provider's endpoints share it, so SSO_URL
 * may name another host but always this path.
 */
export const SSO_PATH = "/sso";

/**
 * The app's configuration from `environment`; each host defaults to BASE_URL, which defaults to the app's origin,
 * and SSO_URL to BASE_URL's `/sso`: the provider's issuer must differ from HUB_URL, the partner OAuth server's.
 */
export function parseConfig(environment: Record<string, string | undefined>): Config {
  const parsed = parseEnvironment(configSchema, environment);
  if (parsed.IDENTITY_PROVIDER === "http" && !parsed.IDENTITY_PROVIDER_URL) {
    throw new ConfigError("Invalid configuration:\n  IDENTITY_PROVIDER_URL: is required when IDENTITY_PROVIDER is http");
  }
  if (parsed.SSO_URL !== undefined && new URL(parsed.SSO_URL).pathname !== SSO_PATH) {
    throw new ConfigError(`Invalid configuration:\n  SSO_URL: must end in the path ${SSO_PATH} (the sign-in pages live there), e.g. https://sso.example.com${SSO_PATH}`);
  }
  const origin = `http://localhost:${parsed.PORT}`;
  const base = parsed.BASE_URL ?? origin;
  return {
    ...parsed,
    BASE_URL: base,
    HUB_URL: parsed.HUB_URL ?? base,
    PARTNER_API_URL: parsed.PARTNER_API_URL ?? base,
    SSO_URL: parsed.SSO_URL ?? `${base}${SSO_PATH}`,
    APPLY_URL: parsed.APPLY_URL ?? base,
    JS_URL: parsed.JS_URL ?? base,
  };
}

let cached: Config | undefined;

export function config(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

/**
 * What `npm start` (production) needs beyond what every start needs: a signing key that does not rest in the
 * database in the clear. Throws a ConfigError naming the variables.
 */
export function assertProductionConfig(settings: Config): void {
  if (!settings.OAUTH_SIGNING_KEY && !settings.OAUTH_KEY_ENCRYPTION_KEY) {
    throw new ConfigError(
      "Invalid configuration for npm start:\n  OAUTH_SIGNING_KEY or OAUTH_KEY_ENCRYPTION_KEY must be set: in production the token-signing key may not rest in the database unencrypted (openssl rand -base64 32 makes an encryption key)",
    );
  }
  if (!settings.AUTH_SECRET) {
    throw new ConfigError(
      "Invalid configuration for npm start:\n  AUTH_SECRET must be set: it keeps people's sessions in the borrower area and the app's own sign-in client secret (openssl rand -base64 32 makes one)",
    );
  }
  if (settings.IDENTITY_PROVIDER === "sandbox") {
    throw new ConfigError(
      "Invalid configuration for npm start:\n  IDENTITY_PROVIDER=sandbox would verify live applicants by the sandbox rules; set it to http with IDENTITY_PROVIDER_URL, or leave it unset (live identity checks then answer 503)",
    );
  }
}

/**
 * What `npm start` warns of at start without refusing to run: settings a production deployment may mean, but
 * whose absence is more often an oversight.
 */
export function productionConfigWarnings(settings: Config): string[] {
  const warnings: string[] = [];
  if (!settings.TRUSTED_PROXY_HEADER) {
    warnings.push(
      "TRUSTED_PROXY_HEADER is not set: per-address limits key on the socket's peer, so behind a reverse proxy every caller shares the proxy's address (one rate-limit bucket for everyone). Set it to the header your proxy writes the client's address to (e.g. x-forwarded-for).",
    );
  }
  if (!settings.OAUTH_KEY_ENCRYPTION_KEY) {
    warnings.push(
      "OAUTH_KEY_ENCRYPTION_KEY is not set: the sign-in provider (SSO_URL) keeps its keys in the database only sealed under it, so it answers 500 until it is set (openssl rand -base64 32 makes one).",
    );
  }
  if (settings.WEBHOOK_CLAIM_SECONDS <= 10) {
    warnings.push(`WEBHOOK_CLAIM_SECONDS is ${settings.WEBHOOK_CLAIM_SECONDS}: a claim that lapses before the 10 s an attempt may take lets a second process send the same attempt.`);
  }
  if (!settings.HEALTHZ_INTERNAL_TOKEN) {
    warnings.push("HEALTHZ_INTERNAL_TOKEN is not set: GET /healthz/internal answers 404 to everyone (openssl rand -hex 32 makes a token).");
  }
  return warnings;
}

/** Whether a start seeds the demo: in development unless SEED_DEMO=false; in production only if SEED_DEMO=true. */
export function demoSeedWanted(mode: "dev" | "start", settings: Pick<Config, "SEED_DEMO">): boolean {
  return settings.SEED_DEMO ?? mode === "dev";
}

/** Points this process at a database found at run time (the admin CLI's embedded one) when DATABASE_URL is unset. */
export function setDatabaseUrl(url: string): void {
  cached = { ...config(), DATABASE_URL: url };
}

/**
 * What `cli listen` reads besides its flags, parsed apart from the app's configuration so the forwarder runs
 * whatever the server's variables hold. The values are checked as the flags they stand in for.
 */
const cliConfigSchema = z.object({
  PORT: port,
  /** The platform's API; unset, the app on this machine at PORT. */
  LENDING_API_URL: z.string().optional(),
  /** The project's sandbox credentials, when not given as --client-id and --api-key. */
  LENDING_CLIENT_ID: z.string().optional(),
  LENDING_API_KEY: z.string().optional(),
  /** Where `cli listen` keeps each project's signing secret on this machine, so it stays the same across runs. */
  LISTEN_SECRETS_FILE: z.string().min(1).default(".data/listen-secrets.json"),
});

export type CliConfig = Omit<z.infer<typeof cliConfigSchema>, "LENDING_API_URL"> & { LENDING_API_URL: string };

export function parseCliConfig(environment: Record<string, string | undefined>): CliConfig {
  const parsed = parseEnvironment(cliConfigSchema, environment);
  return { ...parsed, LENDING_API_URL: parsed.LENDING_API_URL ?? `http://localhost:${parsed.PORT}` };
}

/** The process's environment, for what takes one as a value (the admin CLI, which a test runs with its own). */
export function processEnvironment(): Record<string, string | undefined> {
  return process.env;
}
