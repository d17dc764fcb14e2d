// Cursor pagination (spec 4.11) and the list envelope (2.11). Ids sort by creation time (lib/ids.ts), so a
// cursor is just an id: pages are stable while new objects arrive, and data is always newest first.
import { z } from "zod";
import { requestString } from "./request-string";
import { fieldLabel } from "./validation";
import { isIdOf, type IdKind } from "../ids";
import { notFound } from "../errors";
import { RenderedJson } from "./rendered-json";

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

const wholeNumber = requestString()
  .refine((value) => /^\d{1,6}$/.test(value), { error: (issue) => `${fieldLabel(issue.path)} must be a whole number.`, params: { reason: "invalid_type" } })
  .transform(Number);

function paginationFields(defaultLimit: number) {
  return {
    limit: wholeNumber
      .pipe(z.number().min(1).max(MAX_PAGE_SIZE))
      .default(defaultLimit),
    starting_after: requestString().min(1).optional(),
    ending_before: requestString().min(1).optional(),
  };
}

export interface PageRequest {
  limit: number;
  starting_after?: string;
  ending_before?: string;
}

/**
 * The query schema of a list endpoint: its filters plus `limit`, `starting_after`, `ending_before`.
 * Unknown parameters are rejected; both cursors at once is a 422.
 */
export function listQuerySchema<F extends z.ZodRawShape>(filters: F, options: { defaultLimit?: number } = {}) {
  return z
    .strictObject({ ...filters, ...paginationFields(options.defaultLimit ?? DEFAULT_PAGE_SIZE) })
    .superRefine((query, context) => {
      const { starting_after, ending_before } = query as PageRequest;
      if (starting_after !== undefined && ending_before !== undefined) {
        context.addIssue({
          code: "custom",
          path: ["ending_before"],
          message: "starting_after and ending_before are mutually exclusive.",
          params: { reason: "mutually_exclusive" },
        });
      }
    });
}

/** The id window and order of one page, shaped to spread into a Prisma `findMany`. */
export interface PageWindow {
  id?: { lt: string } | { gt: string };
  orderBy: { id: "asc" | "desc" };
  take: number;
}

export interface ListEnvelope<T> {
  object: "list";
  data: T[];
  has_more: boolean;
  url: string;
}

/** A short list returned whole (spec 2.11's envelope, `has_more` false): a public catalogue such as the billers. */
export function wholeList<T>(data: T[], url: string): ListEnvelope<T> {
  return { object: "list", data, has_more: false, url };
}

/** The list envelope around items PostgreSQL rendered (see RenderedJson), as JSON text. */
export function renderListEnvelope(envelope: ListEnvelope<RenderedJson>): RenderedJson {
  const data = envelope.data.map((item) => item.text).join(",");
  return new RenderedJson(`{"object":"list","data":[${data}],"has_more":${envelope.has_more},"url":${JSON.stringify(envelope.url)}}`);
}

export interface PaginateOptions<Row extends { id: string }, Item> {
  /** The id kind of the listed resource: a cursor of any other kind names nothing here. */
  kind: IdKind;
  page: PageRequest;
  /** The path that produced the list, for the envelope's `url`. */
  url: string;
  /** Fetches rows in the window, with the endpoint's filters and tenant scope applied. */
  fetch: (window: PageWindow) => Promise<Row[]>;
  /** Whether a cursor names an object visible to the caller (tenant scope applied). */
  exists: (id: string) => Promise<boolean>;
  serialize: (row: Row) => Item;
}

async function assertCursor(kind: IdKind, cursor: string, exists: (id: string) => Promise<boolean>): Promise<void> {
  if (!isIdOf(kind, cursor) || !(await exists(cursor))) {
    throw notFound("object", cursor);
  }
}

export async function paginate<Row extends { id: string }, Item>(options: PaginateOptions<Row, Item>): Promise<ListEnvelope<Item>> {
  const { page, kind } = options;
  const take = page.limit + 1;
  let rows: Row[];
  if (page.ending_before !== undefined) {
    await assertCursor(kind, page.ending_before, options.exists);
    // Walk toward newer objects, then present the page newest first like every other page.
    rows = await options.fetch({ id: { gt: page.ending_before }, orderBy: { id: "asc" }, take });
    const hasMore = rows.length > page.limit;
    const data = rows.slice(0, page.limit).reverse();
    return { object: "list", data: data.map(options.serialize), has_more: hasMore, url: options.url };
  }
  if (page.starting_after !== undefined) await assertCursor(kind, page.starting_after, options.exists);
  rows = await options.fetch({
    ...(page.starting_after !== undefined ? { id: { lt: page.starting_after } } : {}),
    orderBy: { id: "desc" },
    take,
  });
  return {
    object: "list",
    data: rows.slice(0, page.limit).map(options.serialize),
    has_more: rows.length > page.limit,
    url: options.url,
  };
}
