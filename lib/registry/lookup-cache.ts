// Companies House's answers, kept in PostgreSQL so every app process shares them: the registry's quota belongs
// to the whole platform, and a company is asked about once a day however many applications name it.
import { clock, DAY_MS } from "../clock";
import { db } from "../db";
import type { Prisma } from "../generated/prisma/client";
import type { CompanyLookup } from "./types";

const HOUR_MS = 3_600_000;

/**
 * How long an answer is kept: a profile (an active company, or one that cannot borrow) changes rarely, so a
 * day; "no such company" an hour, since a company incorporated this morning appears within it.
 */
export function lookupTtlMs(lookup: CompanyLookup): number {
  return !lookup.found && lookup.reason === "company_not_found" ? HOUR_MS : DAY_MS;
}

/** The kept answer for a company number, or null when there is none still fresh. */
export async function readCachedLookup(companyNumber: string): Promise<CompanyLookup | null> {
  const row = await db().registryLookup.findFirst({ where: { companyNumber, expiresAt: { gt: clock.now() } }, select: { answer: true } });
  return row ? (row.answer as unknown as CompanyLookup) : null;
}

export async function cacheLookup(companyNumber: string, lookup: CompanyLookup): Promise<void> {
  const lookedUpAt = clock.now();
  const fields = { answer: lookup as unknown as Prisma.InputJsonValue, lookedUpAt, expiresAt: new Date(lookedUpAt.getTime() + lookupTtlMs(lookup)) };
  await db().registryLookup.upsert({ where: { companyNumber }, create: { companyNumber, ...fields }, update: fields });
}

/** Deletes the answers past their time (the hourly maintenance): a number not asked about again leaves no row. */
export async function pruneExpiredLookups(): Promise<number> {
  return (await db().registryLookup.deleteMany({ where: { expiresAt: { lte: clock.now() } } })).count;
}
