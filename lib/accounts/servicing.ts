// Daily servicing (docs/accounts.md, "Collections"): on each due date a direct-debit collection is taken for
// the instalment falling due plus any arrears. A pure function of the account, its instalments and the date
// plans it (lib/accounts/allocation.ts `planCollection`); this module carries the plan out, one account per
// transaction, so the scheduler (lib/jobs/operations.ts) on real time and a test clock drive the same code.
// An account several due dates behind (a scheduler that was down, a test clock moved on) has each due date
// collected in turn, each as of its own day.
import type { Account, Prisma } from "../generated/prisma/client";
import { clock } from "../clock";
import { db } from "../db";
import { recordEvents } from "../events/events";
import { collectionOutcome } from "../payments/rails";
import { createPayment } from "../payments/state-machine";
import type { Tenant } from "../tenant";
import { planCollection } from "./allocation";
import { utcDate } from "./calendar";
import { periodContaining, periodEnd } from "./interest";
import { endLapsedForbearance, forbearanceLapsed } from "./forbearance";
import { failAccountPayment, instalmentsOf, settleAccountPayment } from "./ledger";
import { serializeMandate } from "./serialize";
import { lockAccount } from "./state-machine";

const OPEN_STATUSES = ["performing", "in_arrears", "forborne"] as const;

function dueWhere(asOf: string, tenant?: Tenant): Prisma.AccountWhereInput {
  return {
    status: { in: [...OPEN_STATUSES] },
    OR: [
      {
        nextDueOn: { lte: asOf },
        // A term loan waits for its disbursement to settle; a Flex facility's months pass whether or not it is drawn.
        OR: [{ disbursedAt: { not: null } }, { product: "flex_facility" }],
      },
      { status: "forborne", forborneUntil: { lte: asOf } },
    ],
    ...(tenant ? { projectId: tenant.projectId, environment: tenant.environment } : {}),
  };
}

/** Accounts with a due date on or before `asOf` still to collect, oldest due first. */
export async function findAccountsDue(limit: number, options: { asOf?: string; tenant?: Tenant } = {}): Promise<string[]> {
  const rows = await db().account.findMany({
    where: dueWhere(options.asOf ?? utcDate(clock.now()), options.tenant),
    select: { id: true },
    orderBy: [{ nextDueOn: "asc" }, { id: "asc" }],
    take: limit,
  });
  return rows.map((row) => row.id);
}

export async function countAccountsDue(): Promise<number> {
  return db().account.count({ where: dueWhere(utcDate(clock.now())) });
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
    current = await transaction.account.update({ where: { id: account.id }, data: { mandateStatus: "revoked", mandateRevokedAt: now, updatedAt: now } });
    await recordEvents(transaction, [{ projectId: current.projectId, environment: current.environment, type: "mandate.revoked", object: serializeMandate(current), createdAt: now }]);
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

/**
 * Collects every due date of one account up to `asOf`, in its own transaction. Idempotent: a due date is
 * collected once (the account's `next_due_on` moves past it in the same transaction), and an account another
 * worker holds is skipped as busy.
 */
export async function serviceAccount(id: string, options: { asOf?: string } = {}): Promise<ServicingResult> {
  return db().$transaction(async (transaction) => {
    let account = await lockAccount(transaction, id, { skipLocked: true });
    if (!account) return "busy";
    const asOf = options.asOf ?? utcDate(clock.now());
    const now = clock.now();
    let collected = false;
    const serviceable = (current: Account) => (current.disbursedAt !== null || current.product === "flex_facility") && (OPEN_STATUSES as readonly string[]).includes(current.status);
    while (account.nextDueOn !== null && account.nextDueOn <= asOf && serviceable(account)) {
      account = await endLapsedForbearance(transaction, account, { now, asOf: account.nextDueOn });
      const result = await collectDueDate(transaction, account, account.nextDueOn!, now);
      account = result.account;
      collected ||= result.collected;
    }
    const lapsed = forbearanceLapsed(account, asOf);
    account = await endLapsedForbearance(transaction, account, { now, asOf });
    return collected ? "collected" : lapsed ? "forbearance_ended" : "nothing_due";
  });
}

/**
 * Everything due by `asOf` (today by default), for one tenant or all: what the scheduler runs daily and what a
 * test clock calls after moving time on. Returns how many accounts had a due date collected.
 */
export async function runDueServicing(options: { tenant?: Tenant; asOf?: string; batch?: number } = {}): Promise<{ serviced: number }> {
  const asOf = options.asOf ?? utcDate(clock.now());
  let serviced = 0;
  const seen = new Set<string>();
  for (;;) {
    const ids = (await findAccountsDue(options.batch ?? 100, { asOf, tenant: options.tenant })).filter((id) => !seen.has(id));
    if (ids.length === 0) return { serviced };
    // Accounts whose due dates pass with nothing owed are found again only until next_due_on moves past asOf.
    for (const id of ids) {
      seen.add(id);
      if ((await serviceAccount(id, { asOf })) === "collected") serviced += 1;
    }
  }
}
