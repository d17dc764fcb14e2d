// Building blocks of the reply schemas: what the serializers write, for the API reference (lib/openapi) and
// the tests that hold each reply to its documented schema. Replies are objects we build, not input, so their
// strings need none of requestString's guards; every object is strict, so an undocumented field fails the
// tests that compare replies with the reference.
import { z } from "zod";

/** A string we write: an id, a name, a message. */
export const text = () => z.string();

/** An id of one kind: `app_…`. */
export const idOf = (prefix: string) => z.string().regex(new RegExp(`^${prefix}_[0-9a-z]+$`)).meta({ description: `\`${prefix}_…\`` });

/** An instant, as `Date.prototype.toISOString` writes it. */
export const timestamp = () => z.iso.datetime();

/** A calendar date, YYYY-MM-DD. */
export const calendarDate = () => z.iso.date();

/** An absolute URL we made. */
export const absoluteUrl = () => z.string().meta({ format: "uri" });

/** Integer pence. */
export const pence = () => z.number().int();

/** String metadata the partner attached (spec 2.1). */
export const metadataObject = z.record(z.string(), z.string());

/** The list envelope (spec 2.11) around items of one schema. */
export function listEnvelopeSchema<T extends z.ZodType>(item: T) {
  return z.strictObject({ object: z.literal("list"), data: z.array(item), has_more: z.boolean(), url: z.string() });
}
