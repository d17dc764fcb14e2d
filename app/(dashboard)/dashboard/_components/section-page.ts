// What every page of the dashboard's read sections does before its own reads: its address's values (a value of
// the wrong form names nothing: 404), the signed-in member with the `read` permission (not signed in: to sign in;
// not in the team: 404), its query through the section's schema (a filter value we do not know: 404, never a
// 500), and the API services' refusals of an id (unknown, or another project's: 404).
import { notFound } from "next/navigation";
import type { z } from "zod";
import { dashboardMemberOrThrow, type DashboardMember } from "@/lib/dashboard/access";
import type { DashboardParams } from "@/lib/dashboard/schemas";
import { dashboardView, type DashboardView } from "@/lib/dashboard/view";
import { ApiError } from "@/lib/errors";
import { readPageValues } from "@/lib/wire/page-values";
import { signedInOrRedirect } from "./signed-in";

type AddressValues = Record<string, string | string[] | undefined>;

/** Every value `shape` names, read from the address; any missing or malformed one makes the page a 404. */
export function pageParamsOrNotFound<Shape extends z.ZodRawShape>(shape: Shape, values: AddressValues): { [Key in keyof Shape]: z.output<Shape[Key]> } {
  const read = readPageValues(shape, values);
  if (Object.keys(shape).some((name) => read[name] === undefined)) notFound();
  return read as { [Key in keyof Shape]: z.output<Shape[Key]> };
}

/** The page's frame and the member reading it; someone signed out comes back to `returnTo` once signed in. */
export async function readerOrNotFound(params: DashboardParams, returnTo: string): Promise<{ view: DashboardView; member: DashboardMember }> {
  const userId = await signedInOrRedirect(returnTo);
  const view = await dashboardView({ userId, params });
  if (!view) notFound();
  const member = await dashboardMemberOrThrow({ userId, params, action: "read" });
  return { view, member };
}

/** As `readerOrNotFound`, for the beta sections (docs/beta.md): a project without the `beta` capability has none of them (404). */
export async function betaReaderOrNotFound(params: DashboardParams, returnTo: string): Promise<{ view: DashboardView; member: DashboardMember }> {
  const reader = await readerOrNotFound(params, returnTo);
  if (!reader.view.beta) notFound();
  return reader;
}

/**
 * The page's query as its schema reads it (the partner API's list query), with the values given, to show again in
 * its filter form; a value the schema refuses makes the page a 404.
 */
export function queryOrNotFound<Schema extends z.ZodType>(schema: Schema, values: AddressValues): { query: z.output<Schema>; given: Record<string, string> } {
  const given = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
  const parsed = schema.safeParse(given);
  if (!parsed.success) notFound();
  return { query: parsed.data, given: given as Record<string, string> };
}

/** A service's read, where an id it refuses (unknown, another project's, the other environment's, a stale cursor) is a 404. */
export async function foundOrNotFound<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof ApiError && (error.code === "not_found" || error.code === "environment_mismatch")) notFound();
    throw error;
  }
}

/** A list page's address with `values` as its query, leaving out the empty ones. */
export function withQuery(path: string, values: Record<string, string | undefined>): string {
  const query = new URLSearchParams(Object.entries(values).filter((entry): entry is [string, string] => Boolean(entry[1])));
  return query.size > 0 ? `${path}?${query}` : path;
}
