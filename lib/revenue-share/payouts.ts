// Payouts (beta, spec 2.5; docs/beta.md, "Payouts"): once a month closes (UTC, on the project's clock), each
// sub-account is paid the shares of its introductions funded that month: one payout per sub-account and month,
// whose statement lists those introductions and sums exactly to `gross_pence`. A payout opens `pending`; in the
// sandbox it is paid at once (`payout.paid`), as the sandbox's disbursements settle at once, while in live no
// payout provider is connected yet, so it stays pending until one is (lib/payments/rails.ts says the same of
// payments). The sandbox test helper pays what has been funded so far without waiting for the month to close.
import { Prisma, type Payout } from "../generated/prisma/client";
import { clock } from "../clock";
import { db, inTransaction } from "../db";
import { notFound } from "../errors";
import { newId } from "../ids";
import { transition } from "../lifecycle";
import { lockRow } from "../row-lock";
import { tenantObjectOrThrow, tenantWhere, type Tenant } from "../tenant";
import { paginate, wholeList } from "../wire/pagination";
import type { ListPayoutsQuery } from "./schemas";
import { serializePayout, serializeStatementLine } from "./serialize";
import { PAYOUT_LIFECYCLE } from "./state-machine";

/** The month (UTC) an instant falls in, as a payout's period: `2026-11`. */
export const periodOf = (instant: Date): string => instant.toISOString().slice(0, 7);

/** The first instant of the month (UTC) `instant` falls in: fundings before it are in closed months. */
export function startOfMonth(instant: Date): Date {
  return new Date(Date.UTC(instant.getUTCFullYear(), instant.getUTCMonth(), 1));
}

/**
 * Pays out one sub-account's funded introductions not yet paid for and funded before `fundedBefore`: a payout
 * per month they were funded in, each taking its introductions, and in the sandbox paid at once. Runs under the
 * sub-account's row lock (with `skipLocked`, a sub-account another run holds is passed over: nothing is done),
 * so two runs never pay one introduction twice. Returns the payouts made.
 */
export async function payOutSubAccount(
  transaction: Prisma.TransactionClient,
  subAccountId: string,
  options: { fundedBefore: Date; now: Date; skipLocked?: boolean },
): Promise<Payout[]> {
  if (!(await lockRow(transaction, "sub_accounts", subAccountId, { skipLocked: options.skipLocked }))) return [];
  const due = await transaction.introduction.findMany({
    where: { subAccountId, stage: "funded", payoutId: null, fundedAt: { lt: options.fundedBefore } },
    orderBy: [{ fundedAt: "asc" }, { id: "asc" }],
  });
  const byPeriod = new Map<string, typeof due>();
  for (const introduction of due) {
    const period = periodOf(introduction.fundedAt!);
    byPeriod.set(period, [...(byPeriod.get(period) ?? []), introduction]);
  }
  const { now } = options;
  const payouts: Payout[] = [];
  for (const [period, introductions] of byPeriod) {
    const [first] = introductions;
    let payout = await transaction.payout.create({
      data: {
        id: newId("payout"),
        projectId: first!.projectId,
        environment: first!.environment,
        subAccountId,
        period,
        status: "pending",
        grossPence: introductions.reduce((sum, introduction) => sum + BigInt(introduction.sharePence!), 0n),
        introductionCount: introductions.length,
        createdAt: now,
        updatedAt: now,
      },
    });
    await transaction.introduction.updateMany({ where: { id: { in: introductions.map((introduction) => introduction.id) } }, data: { payoutId: payout.id, updatedAt: now } });
    if (payout.environment === "sandbox") payout = await payPayout(transaction, payout, now);
    payouts.push(payout);
  }
  return payouts;
}

/** A pending payout becomes `paid`, with `payout.paid`. */
function payPayout(transaction: Prisma.TransactionClient, payout: Payout, now: Date): Promise<Payout> {
  return transition(transaction, PAYOUT_LIFECYCLE, "pay", {
    status: payout.status,
    now,
    write: (to) => transaction.payout.update({ where: { id: payout.id }, data: { status: to, paidAt: now, updatedAt: now } }),
    object: serializePayout,
  });
}

/**
 * Sub-accounts with funded introductions waiting for a payout whose month has closed on their project's clock:
 * live and never-advanced sandboxes on real time, an advanced sandbox on real time plus its offset.
 */
function dueSubAccountsSql(now: Date): Prisma.Sql {
  return Prisma.sql`SELECT DISTINCT introduction.sub_account_id AS id FROM introductions introduction
    LEFT JOIN sandbox_clocks clock ON clock.project_id = introduction.project_id AND introduction.environment = 'sandbox'
    WHERE introduction.payout_id IS NULL AND introduction.stage = 'funded'
      AND introduction.funded_at < date_trunc('month', ${now}::timestamptz + COALESCE(clock.offset_days, 0) * interval '1 day', 'UTC')`;
}

export async function findSubAccountsDuePayout(limit: number): Promise<string[]> {
  const rows = await db().$queryRaw<{ id: string }[]>`SELECT id FROM (${dueSubAccountsSql(clock.now())}) due ORDER BY id LIMIT ${limit}`;
  return rows.map((row) => row.id);
}

export async function countSubAccountsDuePayout(): Promise<number> {
  const [row] = await db().$queryRaw<{ count: number }[]>`SELECT count(*)::int AS count FROM (${dueSubAccountsSql(clock.now())}) due`;
  return row?.count ?? 0;
}

/** The monthly run for one sub-account at `now`, its project's time: the months closed by then paid out; true when it made a payout. */
export async function payOutClosedMonths(subAccountId: string, now: Date): Promise<boolean> {
  const payouts = await db().$transaction((transaction) => payOutSubAccount(transaction, subAccountId, { fundedBefore: startOfMonth(now), now, skipLocked: true }));
  return payouts.length > 0;
}

/** The project and environment of a sub-account, or null for an unknown id: whose clock the monthly run reads. */
export function subAccountTenant(id: string): Promise<Tenant | null> {
  return db().subAccount.findUnique({ where: { id }, select: { projectId: true, environment: true } });
}

/**
 * A sandbox clock's advance (lib/sandbox-clock): the months closed by `to` paid out for a batch of the tenant's
 * sub-accounts (the first `limit` after `after`, in id order) in the advance's transaction, as of `to`.
 */
export async function payOutDueOnTestClock(options: { transaction: Prisma.TransactionClient; tenant: Tenant; to: Date; after: string | null; limit: number }): Promise<string[]> {
  const { transaction, tenant, to, after, limit } = options;
  const fundedBefore = startOfMonth(to);
  const due = await transaction.subAccount.findMany({
    where: {
      ...tenantWhere(tenant),
      ...(after === null ? {} : { id: { gt: after } }),
      introductions: { some: { stage: "funded", payoutId: null, fundedAt: { lt: fundedBefore } } },
    },
    select: { id: true },
    orderBy: { id: "asc" },
    take: limit,
  });
  for (const { id } of due) await payOutSubAccount(transaction, id, { fundedBefore, now: to });
  return due.map(({ id }) => id);
}

/** The sandbox test helper: every sub-account of the tenant paid now for all it has had funded so far. */
export async function payOutNow({ tenant, now, transaction: outer }: { tenant: Tenant; now: Date; transaction?: Prisma.TransactionClient }) {
  const payouts = await inTransaction(outer ?? db(), async (transaction) => {
    const subAccounts = await transaction.subAccount.findMany({ where: tenantWhere(tenant), select: { id: true }, orderBy: { id: "asc" } });
    const made: Payout[] = [];
    for (const { id } of subAccounts) made.push(...(await payOutSubAccount(transaction, id, { fundedBefore: new Date(now.getTime() + 1), now })));
    return made;
  });
  return wholeList(payouts.map(serializePayout), "/partner/v1/payouts");
}

export async function listPayouts(options: { tenant: Tenant; query: ListPayoutsQuery; url: string }) {
  const { query } = options;
  const where: Prisma.PayoutWhereInput = {
    ...tenantWhere(options.tenant),
    ...(query.status ? { status: query.status } : {}),
    ...(query.sub_account_id ? { subAccountId: query.sub_account_id } : {}),
    ...(query.period ? { period: query.period } : {}),
  };
  return paginate({
    kind: "payout",
    page: query,
    url: options.url,
    fetch: (window) => db().payout.findMany({ where: { AND: [where, window.id ? { id: window.id } : {}] }, orderBy: window.orderBy, take: window.take }),
    exists: async (id) => (await db().payout.count({ where: { AND: [where, { id }] } })) === 1,
    serialize: serializePayout,
  });
}

/** One payout with its statement: a line per introduction it pays for, oldest funding first. */
export async function retrievePayout({ tenant, id }: { tenant: Tenant; id: string }) {
  const payout = tenantObjectOrThrow(tenant, await db().payout.findFirst({ where: { id, projectId: tenant.projectId } }), () => notFound("payout", id));
  const lines = await db().introduction.findMany({ where: { payoutId: payout.id }, orderBy: [{ fundedAt: "asc" }, { id: "asc" }] });
  return { ...serializePayout(payout), statement: lines.map(serializeStatementLine) };
}
