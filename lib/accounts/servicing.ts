// Daily servicing (docs/accounts.md, "Collections"): on each due date a direct-debit collection is taken for
// the instalment falling due plus any arrears. A pure function of the account, its instalments and the date
// plans it (lib/accounts/allocation.ts `planCollection`); this module carries the plan out, one account per
// transaction, so the scheduler (lib/background/catalogue.ts) and a sandbox test clock's advance (lib/sandbox-clock)
// drive the same code. "Today" is the account's project's (lib/tenant-clock.ts): a sandbox project whose test
// clock was advanced collects on its own days. An account several due dates behind (a scheduler that was down,
// a test clock moved on) has each due date collected in turn, each as of its own day.
import { Prisma, type Account } from "../generated/prisma/client";
import { clock } from "../clock";
import { db } from "../db";
import { collectionOutcome } from "../payments/rails";
import { createPayment } from "../payments/create";
import { tenantWhere, type Tenant } from "../tenant";
import { planCollection } from "./allocation";
import { utcDate } from "./calendar";
import { periodContaining, periodEnd } from "./interest";
import { endLapsedForbearance, forbearanceLapsed } from "./forbearance";
import { failAccountPayment, instalmentsOf, settleAccountPayment } from "./ledger";
import { lockAccount, revokeMandate } from "./transition";

const OPEN_STATUSES = ["performing", "in_arrears", "forborne"] as const;

function tenantDueWhere(tenant: Tenant, asOf: string): Prisma.AccountWhereInput {
  return {
    ...tenantWhere(tenant),
    status: { in: [...OPEN_STATUSES] },
    OR: [
      {
        nextDueOn: { lte: asOf },
        // A term loan waits for its disbursement to settle; a Flex facility's months pass whether or not it is drawn.
        OR: [{ disbursedAt: { not: null } }, { product: "flex_facility" }],
      },
      { status: "forborne", forborneUntil: { lte: asOf } },
    ],
  };
}

/**
 * Accounts with a due date still to collect, each on its project's clock: live and never-advanced sandboxes on
 * today's date (the next_due_on index), each advanced sandbox on today plus its offset.
 */
function accountsDueSql(limit: number): Prisma.Sql {
  const today = utcDate(clock.now());
  const serviceable = Prisma.sql`account.status IN ('performing', 'in_arrears', 'forborne')
    AND (account.disbursed_at IS NOT NULL OR account.product = 'flex_facility')`;
  const sandboxToday = Prisma.sql`to_char(${today}::date + clock.offset_days, 'YYYY-MM-DD')`;
  // A forbearance arrangement ends on its date even when no collection falls due that day.
  return Prisma.sql`(SELECT account.id, account.next_due_on FROM accounts account
      WHERE account.next_due_on <= ${today} AND ${serviceable} ORDER BY account.next_due_on LIMIT ${limit})
    UNION
    (SELECT account.id, account.next_due_on FROM accounts account
      WHERE account.status = 'forborne' AND account.forborne_until <= ${today} LIMIT ${limit})
    UNION
    (SELECT account.id, account.next_due_on FROM sandbox_clocks clock
      JOIN accounts account ON account.project_id = clock.project_id AND account.environment = 'sandbox'
      WHERE ((account.next_due_on <= ${sandboxToday} AND ${serviceable}) OR (account.status = 'forborne' AND account.forborne_until <= ${sandboxToday}))
      ORDER BY account.next_due_on LIMIT ${limit})`;
}

/** Accounts with a due date to collect today (on their project's clock), oldest due first. */
export async function findAccountsDue(limit: number): Promise<string[]> {
  const rows = await db().$queryRaw<{ id: string }[]>`SELECT id FROM (${accountsDueSql(limit)}) due ORDER BY next_due_on, id LIMIT ${limit}`;
  return rows.map((row) => row.id);
}

export async function countAccountsDue(): Promise<number> {
  const [row] = await db().$queryRaw<{ count: number }[]>`SELECT count(*)::int AS count FROM (${accountsDueSql(2_147_483_647)}) due`;
  return row?.count ?? 0;
}

/** Takes the collection of one due date on a locked account; returns the account as it ends and whether it collected. */
async function collectDueDate(transaction: Prisma.TransactionClient, account: Account, dueDate: string, now: Date): Promise<{ account: Account; collected: boolean }> {
  const instalments = await instalmentsOf(transaction, account.id);
  const plan = planCollection(account, instalments, dueDate);
  const nextDueOn = periodEnd(account.openedOn, periodContaining(account.openedOn, dueDate));
  let current = await transaction.account.update({ where: { id: account.id }, data: { nextDueOn, updatedAt: now } });
  if (!plan) return { account: current, collected: false };
  if (plan.newInstalment && plan.instalment) {
    const { number, principalPence, interestPence, amountPence } = plan.instalment;
    await transaction.instalment.create({ data: { accountId: account.id, number, dueDate, principalPence, interestPence, amountPence } });
  }
  const outcome = collectionOutcome({ environment: current.environment, companyNumber: current.companyNumber, mandateStatus: current.mandateStatus });
  if (outcome.kind === "failed" && outcome.revokesMandate) {
    current = await revokeMandate(transaction, current, now);
  }
  const payment = await createPayment(
    transaction,
    { projectId: current.projectId, environment: current.environment, accountId: current.id, type: "collection", amountPence: plan.amountPence, reference: current.reference, status: "pending" },
    now,
  );
  if (outcome.kind === "settled") current = (await settleAccountPayment(transaction, current, payment, { now, asOf: dueDate })).account;
  if (outcome.kind === "failed") current = (await failAccountPayment(transaction, current, payment, { now, asOf: dueDate, failureCode: outcome.failureCode })).account;
  return { account: current, collected: true };
}

/**
 * `collected`: at least one collection was taken; `forbearance_ended`: none was, but an arrangement reached its
 * end date; `nothing_due`: due dates passed with nothing owed, or none due.
 */
export type ServicingResult = "collected" | "forbearance_ended" | "nothing_due" | "busy";

/** Collects every due date of a locked account up to the day of `now`, each as of its own day. */
async function collectDueDates(transaction: Prisma.TransactionClient, locked: Account, now: Date): Promise<ServicingResult> {
  const asOf = utcDate(now);
  let account = locked;
  let collected = false;
  const serviceable = (current: Account) => (current.disbursedAt !== null || current.product === "flex_facility") && (OPEN_STATUSES as readonly string[]).includes(current.status);
  while (account.nextDueOn !== null && account.nextDueOn <= asOf && serviceable(account)) {
    account = await endLapsedForbearance(transaction, account, { now, asOf: account.nextDueOn });
    const result = await collectDueDate(transaction, account, account.nextDueOn!, now);
    account = result.account;
    collected ||= result.collected;
  }
  const lapsed = forbearanceLapsed(account, asOf);
  await endLapsedForbearance(transaction, account, { now, asOf });
  return collected ? "collected" : lapsed ? "forbearance_ended" : "nothing_due";
}

/**
 * Collects every due date of one account up to the day of `now` (its project's time, which the caller takes), in
 * its own transaction. Idempotent: a due date is collected once (the account's `next_due_on` moves past it in the
 * same transaction), and an account another worker holds is skipped as busy.
 */
export async function serviceAccount(id: string, now: Date): Promise<ServicingResult> {
  return db().$transaction(async (transaction) => {
    const account = await lockAccount(transaction, id, { skipLocked: true });
    if (!account) return "busy";
    return collectDueDates(transaction, account, now);
  });
}

/**
 * Everything due today on the tenant's clock: what a test calls after moving the clock on. Returns how many
 * accounts had a due date collected.
 */
export async function runDueServicing(options: { tenant: Tenant; now: Date; batch?: number }): Promise<{ serviced: number }> {
  const asOf = utcDate(options.now);
  let serviced = 0;
  const seen = new Set<string>();
  for (;;) {
    const rows = await db().account.findMany({ where: tenantDueWhere(options.tenant, asOf), select: { id: true }, orderBy: [{ nextDueOn: "asc" }, { id: "asc" }], take: options.batch ?? 100 });
    const ids = rows.map((row) => row.id).filter((id) => !seen.has(id));
    if (ids.length === 0) return { serviced };
    // Accounts whose due dates pass with nothing owed are found again only until next_due_on moves past asOf.
    for (const id of ids) {
      seen.add(id);
      if ((await serviceAccount(id, options.now)) === "collected") serviced += 1;
    }
  }
}

/**
 * A sandbox clock's advance (lib/sandbox-clock): the collections due by the day of `to` of a batch of the
 * tenant's accounts (the first `limit` after the id `after`, in id order), in the advance's transaction, stamped
 * `to`; returns the ids it found. A row the scheduler holds is waited for, not skipped.
 */
export async function collectDuePayments(options: { transaction: Prisma.TransactionClient; tenant: Tenant; to: Date; after: string | null; limit: number }): Promise<string[]> {
  const { transaction, tenant, to, after, limit } = options;
  const where = { ...tenantDueWhere(tenant, utcDate(to)), ...(after === null ? {} : { id: { gt: after } }) };
  const due = await transaction.account.findMany({ where, select: { id: true }, orderBy: { id: "asc" }, take: limit });
  for (const { id } of due) await collectDueDates(transaction, (await lockAccount(transaction, id))!, to);
  return due.map((row) => row.id);
}
