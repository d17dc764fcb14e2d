// What a page reads from its address (path parameters, the query): each value through its request schema, built
// on the APIs' one string rule (lib/wire/request-string.ts), so nothing PostgreSQL cannot store reaches a query
// from a page either. A page has no error envelope to answer with: a value that fails its schema, or comes more
// than once, is read as absent, so the page says what it says of a missing value (a link that names nothing, a
// journey without `state`) rather than failing.
import type { z } from "zod";

type AddressValues = Record<string, string | string[] | undefined>;

export type PageValues<Shape extends z.ZodRawShape> = { [Key in keyof Shape]?: z.output<Shape[Key]> };

/** The values of `shape` found well formed in `values`; the rest are absent. Values the shape does not name are ignored. */
export function readPageValues<Shape extends z.ZodRawShape>(shape: Shape, values: AddressValues): PageValues<Shape> {
  const read: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(shape)) {
    const value = values[name];
    if (typeof value !== "string") continue;
    const parsed = (schema as z.ZodType).safeParse(value);
    if (parsed.success) read[name] = parsed.data;
  }
  return read as PageValues<Shape>;
}
