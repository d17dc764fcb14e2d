// Request schemas of the events API (spec 4.6, 6.1).
import { z } from "zod";
import { requestString } from "../http/request-string";
import { listQuerySchema } from "../http/pagination";
import { EVENT_TYPES } from "./events";

export const eventIdParamsSchema = z.strictObject({ id: requestString().startsWith("evt_") });

const timestamp = z.iso.datetime({ offset: true }).transform((value) => new Date(value));

export const listEventsQuerySchema = listQuerySchema({
  type: z.enum(EVENT_TYPES).optional(),
  created_after: timestamp.optional(),
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
