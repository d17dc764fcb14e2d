// Request schemas of the events API (spec 4.6, 6.1).
import { z } from "zod";
import { requestString } from "../wire/request-string";
import { listQuerySchema } from "../wire/pagination";
import { EVENT_TYPES } from "./events";
import { idOf, listEnvelopeSchema, text, timestamp as instant } from "../wire/response-schema";

export const eventIdParamsSchema = z.strictObject({ id: requestString().startsWith("evt_") });

const timestamp = z.iso.datetime({ offset: true }).transform((value) => new Date(value));

export const listEventsQuerySchema = listQuerySchema({
  type: z.enum(EVENT_TYPES).optional(),
  created_after: timestamp.optional(),
  // Ours (spec 4.6 names `type` and `created_after`): the upper bound, for a window such as the dashboard's dates.
  created_before: timestamp.optional(),
});

export const replayEventBodySchema = z.strictObject({ endpoint_id: requestString().startsWith("whe_").optional() }).optional();

export const streamEventsQuerySchema = z.strictObject({
  /** Comma-separated event types; every type when absent. */
  types: requestString()
    .max(2000)
    .transform((value) => value.split(",").map((type) => type.trim()).filter(Boolean))
    .pipe(z.array(z.enum(EVENT_TYPES)).min(1))
    .optional(),
});

// Replies

export const eventSchema = z
  .strictObject({
    id: idOf("evt"),
    object: z.literal("event"),
    type: z.enum(EVENT_TYPES),
    api_version: text(),
    created_at: instant(),
    livemode: z.boolean(),
    data: z.strictObject({ object: z.unknown().meta({ description: "The resource as it was when the event fired." }) }),
  })
  .meta({ id: "Event", description: "Something that happened to your objects (spec 6.1)." });

export const eventListSchema = listEnvelopeSchema(eventSchema);

export const eventReplaySchema = z
  .strictObject({
    object: z.literal("event_replay"),
    event: idOf("evt"),
    deliveries: z.array(z.strictObject({ id: idOf("whd"), endpoint_id: idOf("whe"), status: z.literal("pending") })),
  })
  .meta({ id: "EventReplay" });

export const eventStreamSchema = text().meta({
  contentMediaType: "text/event-stream",
  description: "Server-sent events: an opening `id:` frame with the cursor, then one `event:`/`id:`/`data:` frame per event (data is the event object), and comment heartbeats.",
});
