// Request schemas of the webhook endpoints API (spec 4.6, 2.7).
import { z } from "zod";
import { requestString } from "../wire/request-string";
import { CURRENT_API_VERSION, EVENT_TYPES } from "../events/events";
import { metadataSchema } from "../wire/metadata";
import { listQuerySchema } from "../wire/pagination";
import { absoluteUrl, idOf, listEnvelopeSchema, metadataObject, text, timestamp } from "../wire/response-schema";

/** Date versions an endpoint may pin (spec 9). */
export const API_VERSIONS = [CURRENT_API_VERSION] as const;
export const WEBHOOK_ENDPOINTS_PER_PROJECT = 16;

const URL_MAX_LENGTH = 2048;
const DESCRIPTION_MAX_LENGTH = 500;

export const webhookEndpointIdParamsSchema = z.strictObject({ id: requestString().startsWith("whe_") });

// Event names are checked against the catalogue in the service, so an unknown one is `webhook_event_unknown`
// (spec 7.3) rather than a generic validation failure.
const enabledEventsSchema = z
  .array(requestString().min(1).max(100))
  .min(1)
  .max(EVENT_TYPES.length + 1)
  .refine((events) => !events.includes("*") || events.length === 1, {
    message: `"*" subscribes to every event and must be the only entry.`,
    params: { reason: "wildcard_not_alone" },
  });

export const createWebhookEndpointBodySchema = z.strictObject({
  url: requestString().min(1).max(URL_MAX_LENGTH),
  enabled_events: enabledEventsSchema,
  description: requestString().max(DESCRIPTION_MAX_LENGTH).optional(),
  api_version: z.enum(API_VERSIONS).optional(),
  metadata: metadataSchema.optional(),
});

export const updateWebhookEndpointBodySchema = z.strictObject({
  url: requestString().min(1).max(URL_MAX_LENGTH).optional(),
  enabled_events: enabledEventsSchema.optional(),
  description: requestString().max(DESCRIPTION_MAX_LENGTH).nullable().optional(),
  metadata: metadataSchema.optional(),
  /** true turns the endpoint off (no deliveries); false turns it back on, like POST /enable. */
  disabled: z.boolean().optional(),
});

export const rollWebhookSecretBodySchema = z
  .strictObject({ overlap_hours: z.int().min(0).max(168).default(24) })
  .default({ overlap_hours: 24 });

export const listWebhookEndpointsQuerySchema = listQuerySchema({});

// Replies

const webhookEndpointFields = {
  id: idOf("whe"),
  object: z.literal("webhook_endpoint"),
  livemode: z.boolean(),
  url: absoluteUrl(),
  enabled_events: z.array(text()),
  status: z.enum(["enabled", "disabled"]),
  disabled_reason: z
    .enum(["manual", "failing", "insecure_url"])
    .nullable()
    .meta({ description: "`manual`: you turned it off. `failing`: 72 hours without a successful delivery. `insecure_url`: its url is not https (registered before https was required); enable it with an https url." }),
  api_version: text(),
  description: text().nullable(),
  metadata: metadataObject,
  previous_secret_expires_at: timestamp().nullable().meta({ description: "After a secret roll, when the old secret stops signing." }),
  created_at: timestamp(),
  updated_at: timestamp(),
};

export const webhookEndpointSchema = z.strictObject(webhookEndpointFields).meta({ id: "WebhookEndpoint", description: "A webhook receiver (spec 2.7); never its secret." });

export const webhookEndpointListSchema = listEnvelopeSchema(webhookEndpointSchema);

export const webhookEndpointWithSecretSchema = z
  .strictObject({
    ...webhookEndpointFields,
    secret: text().optional().meta({ description: "The signing secret (`whsec_…`), shown on create and roll. A replay of the same Idempotency-Key omits it." }),
  })
  .meta({ id: "WebhookEndpointWithSecret" });

export const deletedWebhookEndpointSchema = z.strictObject({ id: idOf("whe"), object: z.literal("webhook_endpoint"), deleted: z.literal(true) }).meta({ id: "DeletedWebhookEndpoint" });

// Recovering failed deliveries (the dashboard's "Recover failed since", POST /webhook_endpoints/{id}/recover)

export const recoverWebhookDeliveriesBodySchema = z.strictObject({
  since: z.iso
    .datetime({ offset: true })
    .transform((value) => new Date(value))
    .meta({ description: "RFC 3339. Deliveries created at or after this time are recovered; at most 30 days ago (the events' retention), never in the future." }),
});

export const webhookRecoverySchema = z
  .strictObject({
    object: z.literal("webhook_recovery"),
    endpoint: idOf("whe"),
    since: timestamp(),
    count: z.int().min(0).meta({ description: "Deliveries queued again: one per event whose delivery to this endpoint failed or was abandoned since `since`, and has not been delivered since." }),
  })
  .meta({ id: "WebhookRecovery", description: "Failed deliveries queued again for one endpoint." });
