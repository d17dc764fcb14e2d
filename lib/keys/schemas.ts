import { z } from "zod";
import { requestString } from "../wire/request-string";
import { listQuerySchema } from "../wire/pagination";
import { idOf, listEnvelopeSchema, text, timestamp } from "../wire/response-schema";

export const KEY_TYPES = ["secret", "publishable"] as const;
export const KEY_ENVIRONMENTS = ["sandbox", "live"] as const;
export const KEY_STATUSES = ["active", "expired", "revoked"] as const;

export const keyIdParamsSchema = z.strictObject({ id: requestString().startsWith("key_") });

export const listKeysQuerySchema = listQuerySchema({
  type: z.enum(KEY_TYPES).optional(),
  status: z.enum(KEY_STATUSES).optional(),
});

/** At most this many origins per publishable key. */
export const MAX_ALLOWED_ORIGINS = 20;

// An origin exactly as a browser sends it in the Origin header: https and a host (and a port), or plain http for
// localhost alone; lower case, no path, no trailing slash. Anything else could never match a browser's Origin.
const ALLOWED_ORIGIN_FORM = /^(?:https:\/\/[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|http:\/\/localhost)(?::\d{1,5})?$/;
const ORIGIN_REASON =
  "Each of allowed_origins must be an origin such as https://shop.example.com (https, lower case, no path), or, on a sandbox key, http://localhost with an optional port.";

export const allowedOriginSchema = requestString()
  .max(253, ORIGIN_REASON)
  .refine((origin) => ALLOWED_ORIGIN_FORM.test(origin) && new URL(origin).origin === origin, ORIGIN_REASON);

/**
 * A publishable key's pages (docs/apply-js.md, "Which pages may use a key"). Empty: any origin for a sandbox key,
 * none for a live one. Plain http://localhost is the sandbox's alone, which the key's environment decides
 * (`sandboxOnlyOriginIndex`), so the service checks it, not this schema.
 */
export const allowedOriginsSchema = z
  .array(allowedOriginSchema)
  // A refinement rather than .max(): zod runs a length check even on a string that is not an array.
  .refine((origins) => origins.length <= MAX_ALLOWED_ORIGINS, { message: `allowed_origins must list at most ${MAX_ALLOWED_ORIGINS} origins.`, params: { reason: "too_large" } })
  .refine((origins) => new Set(origins).size === origins.length, { message: "allowed_origins must not list an origin twice.", params: { reason: "duplicate" } });

const ORIGINS_DESCRIPTION =
  `Publishable keys only: the origins whose pages may start applications with the key (at most ${MAX_ALLOWED_ORIGINS}; \`http://localhost[:port]\` for sandbox keys only). ` +
  "Absent or empty: a sandbox key starts applications from any origin, a live key from none.";

/** The first origin a key of `environment` may not list (plain http is for a sandbox key's localhost pages), or -1. */
export function sandboxOnlyOriginIndex(environment: (typeof KEY_ENVIRONMENTS)[number], origins: readonly string[]): number {
  return environment === "live" ? origins.findIndex((origin) => origin.startsWith("http:")) : -1;
}

export const createKeyBodySchema = z
  .strictObject({
    type: z.enum(KEY_TYPES),
    /** Defaults to the token's environment; the other environment is refused (environment_mismatch). */
    environment: z.enum(KEY_ENVIRONMENTS).optional(),
    allowed_origins: allowedOriginsSchema
      .optional()
      .meta({ description: ORIGINS_DESCRIPTION }),
  })
  .superRefine((body, context) => {
    if (body.type === "secret" && body.allowed_origins !== undefined) {
      context.addIssue({
        code: "custom",
        path: ["allowed_origins"],
        message: "allowed_origins applies to publishable keys only: a secret key is never used from a page.",
        params: { reason: "not_allowed" },
      });
    }
  });

/** `POST /partner/v1/keys/{id}`: the whole list replaces the key's (Stripe's update style). */
export const updateKeyBodySchema = z.strictObject({ allowed_origins: allowedOriginsSchema.meta({ description: ORIGINS_DESCRIPTION }) });

export const rollKeyBodySchema = z
  .strictObject({ overlap_hours: z.number().int().min(0).max(168).default(24) })
  .default({ overlap_hours: 24 });

// Replies

const keyFields = {
  id: idOf("key"),
  object: z.literal("api_key"),
  type: z.enum(KEY_TYPES),
  environment: z.enum(KEY_ENVIRONMENTS),
  livemode: z.boolean(),
  prefix: text().meta({ description: "The secret's type prefix, `sk_sandbox_`, shown with `last4` to recognise a key." }),
  last4: text(),
  status: z.enum(KEY_STATUSES),
  last_used_at: timestamp().nullable(),
  expires_at: timestamp().nullable(),
  revoked_at: timestamp().nullable(),
  predecessor: idOf("key").nullable(),
  created_at: timestamp(),
  allowed_origins: z
    .array(text())
    .optional()
    .meta({ description: "Publishable keys only: the origins whose pages may start applications with the key; empty, any origin for a sandbox key and none for a live one." }),
};

export const apiKeySchema = z.strictObject(keyFields).meta({ id: "ApiKey", description: "An API key (spec 2.8); never its secret." });

export const apiKeyListSchema = listEnvelopeSchema(apiKeySchema);

const SECRET_ONCE = "The secret, shown this once: only a hash is stored. A replay of the same Idempotency-Key omits it.";

export const newApiKeySchema = z
  .strictObject({ ...keyFields, secret: text().optional().meta({ description: SECRET_ONCE }) })
  .meta({ id: "NewApiKey", description: "A new API key, with its secret." });

export const rolledApiKeySchema = z
  .strictObject({ ...keyFields, secret: text().optional().meta({ description: SECRET_ONCE }), predecessor_expires_at: timestamp() })
  .meta({ id: "RolledApiKey", description: "The successor key, with its secret and when its predecessor stops working." });

export const clientSecretSchema = z
  .strictObject({
    object: z.literal("client_secret"),
    id: idOf("key"),
    client_id: text(),
    secret: text(),
    environment: z.enum(KEY_ENVIRONMENTS),
    livemode: z.boolean(),
    created_at: timestamp(),
  })
  .meta({ id: "ClientSecret" });
