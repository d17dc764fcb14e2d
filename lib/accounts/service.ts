// The accounts API (spec 4.3) and the moves an operator or a payment makes on an account. Reads by id follow
// the one tenancy rule (lib/tenant.ts): another project's account is 404 `not_found` like an unknown id, the
// other environment's 401 `environment_mismatch`.
import type { z } from "zod";
import { db } from "../db";
import { ApiError, notFound } from "../errors";
import type { Account, Prisma } from "../generated/prisma/client";
import { paginate, type PageRequest } from "../wire/pagination";
import { assertMove } from "../lifecycle";
import { createPayment } from "../payments/create";
import { disbursementOutcome } from "../payments/rails";
import { serializePayment } from "../payments/serialize";
import { tenantObjectOrThrow, tenantWhere, type Tenant } from "../tenant";
import { accruedTo, balanceAsOf } from "./allocation";
import { utcDate } from "./calendar";
import { endForbearanceNow } from "./forbearance";
import { instalmentsOf, postLedgerTransaction, renderAccount, settleAccountPayment } from "./ledger";
import type { DrawdownInput, listAccountsQuerySchema } from "./schemas";
import { availablePence, serializeAccount } from "./serialize";
import { ACCOUNT_LIFECYCLE } from "./state-machine";
import { lockAccount, transitionAccount } from "./transition";

/** The project and environment of an account, or null for an unknown id: whose clock background work and the operator read. */
export async function accountTenant(id: string): Promise<Tenant | null> {
  return db().account.findUnique({ where: { id }, select: { projectId: true, environment: true } });
}

/**
 * An account as an operator sees it (the CLI's `account show`) at `now` on its project's clock: its project, the
 * account object and its latest payments.
 */
export async function describeAccount(id: string, now: Date) {
  const account = await db().account.findUnique({ where: { id }, include: { instalments: true, payments: { orderBy: { id: "desc" }, take: 10 } } });
  if (!account) return null;
  return { project_id: account.projectId, account: serializeAccount(account, account.instalments, utcDate(now)), payments: account.payments.map(serializePayment) };
}

export async function retrieveBalance({ tenant, now, id }: { tenant: Tenant; now: Date; id: string }) {
  const found = await db().account.findFirst({ where: { id, projectId: tenant.projectId }, include: { instalments: true } });
  const account = tenantObjectOrThrow(tenant, found, () => notFound("account", id));
  return balanceAsOf(account, account.instalments, utcDate(now));
}

export function listAccounts(options: { tenant: Tenant; now: Date; query: z.output<typeof listAccountsQuerySchema>; url: string }) {
  return listAccountsWhere({ ...options, scope: tenantWhere(options.tenant) });
}

/**
 * The accounts within `scope` (a tenant's, or an account holder's: holder-reads.ts), newest first, paginated as every
 * list (spec 4.11). The cursor must be one of the scope's accounts; the query's filters do not apply to it.
 */
export function listAccountsWhere(options: { scope: Prisma.AccountWhereInput; now: Date; query: z.output<typeof listAccountsQuerySchema>; url: string }) {
  const { scope, query } = options;
  const where: Prisma.AccountWhereInput = {
    ...scope,
    ...(query.status ? { status: query.status } : {}),
    ...(query.sub_account_id ? { subAccountId: query.sub_account_id } : {}),
  };
  const asOf = utcDate(options.now);
  return paginate({
    kind: "account",
    page: query satisfies PageRequest,
    url: options.url,
    fetch: (window) => db().account.findMany({ where: { ...where, ...(window.id ? { id: window.id } : {}) }, orderBy: window.orderBy, take: window.take, include: { instalments: true } }),
    exists: async (cursor) => (await db().account.count({ where: { AND: [{ id: cursor }, scope] } })) === 1,
    serialize: (account) => serializeAccount(account, account.instalments, asOf),
  });
}

/**
 * Draws on a Flex facility (docs/accounts.md, "Flex"): a disbursement of `amount_pence`, in the sandbox
 * settled at once with its `drawdown` ledger row. The principal drawn counts against `available_pence` from
 * the moment of the drawdown. 409 `conflict` for a term loan or a facility that is not performing; 422
 * `validation_failed` on `amount_pence` above what is available.
 */
export async function drawDown({ tenant, now, id, input, transaction }: { tenant: Tenant; now: Date; id: string; input: DrawdownInput; transaction: Prisma.TransactionClient }) {
  const found = await transaction.account.findFirst({ where: { id, projectId: tenant.projectId }, select: { projectId: true, environment: true } });
  tenantObjectOrThrow(tenant, found, () => notFound("account", id));
  const locked = (await lockAccount(transaction, id))!;
  if (locked.product !== "flex_facility") {
    throw new ApiError("conflict", { message: "Only a Flex facility can be drawn on; this account is a business term loan." });
  }
  if (locked.status !== "performing") {
    throw new ApiError("conflict", { message: `A facility that is ${locked.status} cannot be drawn on.` });
  }
  const available = availablePence(locked) ?? 0;
  if (input.amount_pence > available) {
    throw new ApiError("validation_failed", {
      detail: [{ field: "amount_pence", reason: "exceeds_available", message: `At most ${available} pence is available to draw.` }],
    });
  }
  const asOf = utcDate(now);
  const accrued = accruedTo(locked, asOf);
  let account = await transaction.account.update({
    where: { id },
    data: {
      interestAccruedPence: accrued.interestAccruedPence,
      interestAccruedThrough: accrued.interestAccruedThrough,
      principalOutstandingPence: accrued.principalOutstandingPence + input.amount_pence,
      principalPence: locked.principalPence + input.amount_pence,
      updatedAt: now,
    },
  });
  let payment = await createPayment(
    transaction,
    { projectId: account.projectId, environment: account.environment, accountId: id, type: "disbursement", amountPence: input.amount_pence, reference: account.reference, status: "pending" },
    now,
  );
  if (disbursementOutcome(account.environment).kind === "settled") ({ account, payment } = await settleAccountPayment(transaction, account, payment, { now, asOf }));
  return serializePayment(payment);
}

/**
 * Repays the account in full today: a collection of the payoff, settled at once in the sandbox, which
 * settles the account. What a payment link for the payoff will do when it is paid (lib/payments).
 */
export async function settleEarly({ tenant, now, id }: { tenant: Tenant; now: Date; id: string }) {
  return db().$transaction(async (transaction) => {
    const account = tenantObjectOrThrow(tenant, await lockAccount(transaction, id), () => notFound("account", id));
    const asOf = utcDate(now);
    const payoff = balanceAsOf(account, await instalmentsOf(transaction, id), asOf).payoff_pence;
    if (payoff === 0 || account.status === "settled" || account.status === "closed") {
      throw new ApiError("conflict", { message: `An account that is ${account.status} with nothing owed cannot be settled.` });
    }
    const payment = await createPayment(
      transaction,
      { projectId: account.projectId, environment: account.environment, accountId: id, type: "collection", amountPence: payoff, reference: account.reference, status: "pending" },
      now,
    );
    return settleAccountPayment(transaction, account, payment, { now, asOf });
  });
}

/**
 * A hardship arrangement agreed with the borrower: the account becomes `forborne`, until `until` (YYYY-MM-DD,
 * after today: the servicing run ends it that day) or, without one, until ended by hand.
 */
export async function agreeForbearance({ tenant, now, id, until }: { tenant: Tenant; now: Date; id: string; until?: string }) {
  return moveAccount(tenant, now, id, async (transaction, account, now, asOf) => {
    if (until !== undefined && until <= asOf) {
      const message = `An arrangement ends after today (${asOf}).`;
      throw new ApiError("validation_failed", { message, detail: [{ field: "until", reason: "not_in_future", message }] });
    }
    return transitionAccount(transaction, account, "agree_forbearance", { now, changes: { forborneUntil: until ?? null }, render: (moved) => renderAccount(transaction, moved, asOf) });
  });
}

/** The arrangement ends: back to `performing`, and on to `in_arrears` at once if arrears remain. */
export async function endForbearance({ tenant, now, id }: { tenant: Tenant; now: Date; id: string }) {
  return moveAccount(tenant, now, id, async (transaction, account, now, asOf) => endForbearanceNow(transaction, account, { now, asOf }));
}

/**
 * Writes the account off: what is owed leaves the balance through an `adjustment` on the ledger (positive,
 * like money received), and the account is `closed`.
 */
export async function writeOffAccount({ tenant, now, id }: { tenant: Tenant; now: Date; id: string }) {
  return moveAccount(tenant, now, id, async (transaction, account, now, asOf) => {
    assertMove(ACCOUNT_LIFECYCLE, account.status, "write_off");
    const payoff = balanceAsOf(account, [], asOf).payoff_pence;
    if (payoff > 0) await postLedgerTransaction(transaction, { accountId: id, type: "adjustment", amountPence: payoff, paymentId: null, postedAt: now });
    return transitionAccount(transaction, account, "write_off", {
      now,
      changes: { principalOutstandingPence: 0, interestAccruedPence: 0, feesOutstandingPence: 0, interestAccruedThrough: asOf, nextDueOn: null, closedAt: now },
      render: (moved) => renderAccount(transaction, moved, asOf),
    });
  });
}

async function moveAccount(
  tenant: Tenant,
  now: Date,
  id: string,
  move: (transaction: Prisma.TransactionClient, account: Account, now: Date, asOf: string) => Promise<Account>,
): Promise<Account> {
  return db().$transaction(async (transaction) => {
    const account = tenantObjectOrThrow(tenant, await lockAccount(transaction, id), () => notFound("account", id));
    return move(transaction, account, now, utcDate(now));
  });
}
