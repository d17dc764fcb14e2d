// The ledger and what a settled payment does to an account (docs/accounts.md, "Ledger"). Rows are only ever
// inserted (a trigger refuses UPDATE and DELETE); a payment posts at most one row, carrying its id. Every
// function here works inside the caller's transaction, on an account it has locked.
import type { Account, Instalment, LedgerTransaction, Payment, Prisma } from "../generated/prisma/client";
import { newId } from "../ids";
import { assertMoveTo } from "../lifecycle";
import { disbursementOutcome } from "../payments/rails";
import { createPayment } from "../payments/create";
import { transitionPayment } from "../payments/transition";
import type { PaymentFailureCode } from "../payments/schemas";
import { accruedTo, allocateRepayment, applyRepayment, applyToInstalments, arrearsPence, missInstalments, type InstalmentChange } from "./allocation";
import { serializeAccount } from "./serialize";
import { INSTALMENT_LIFECYCLE } from "./state-machine";
import { transitionAccount } from "./transition";

const OPEN_STATUSES = new Set<Account["status"]>(["performing", "in_arrears", "forborne"]);

export interface NewLedgerTransaction {
  accountId: string;
  type: LedgerTransaction["type"];
  /** Negative for money out to the borrower, positive for money in. */
  amountPence: number;
  paymentId: string | null;
  postedAt: Date;
}

/** Appends one row to an account's ledger. */
export async function postLedgerTransaction(transaction: Prisma.TransactionClient, entry: NewLedgerTransaction): Promise<LedgerTransaction> {
  return transaction.ledgerTransaction.create({ data: { id: newId("transaction"), ...entry } });
}

export async function instalmentsOf(transaction: Prisma.TransactionClient, accountId: string): Promise<Instalment[]> {
  return transaction.instalment.findMany({ where: { accountId }, orderBy: { number: "asc" } });
}

/** The account object as events carry it, at the start of `asOf`. */
export async function renderAccount(transaction: Prisma.TransactionClient, account: Account, asOf: string) {
  return serializeAccount(account, await instalmentsOf(transaction, account.id), asOf);
}

/** Checks every change against the instalments' table before any is written: an illegal one writes none. */
function assertInstalmentMoves(instalments: readonly Instalment[], changes: readonly Pick<InstalmentChange, "number" | "status">[]): void {
  for (const change of changes) assertMoveTo(INSTALMENT_LIFECYCLE, instalments.find((instalment) => instalment.number === change.number)!.status, change.status);
}

async function applyInstalmentChanges(transaction: Prisma.TransactionClient, accountId: string, instalments: readonly Instalment[], changes: readonly InstalmentChange[]): Promise<void> {
  assertInstalmentMoves(instalments, changes);
  for (const change of changes) {
    await transaction.instalment.update({
      where: { accountId_number: { accountId, number: change.number } },
      data: { paidPence: change.paidPence, status: change.status },
    });
  }
}

/** Instalments a repayment on `asOf` is for: those due by then and not yet collected, besides any arrears. */
function dueBy(instalments: readonly Instalment[], asOf: string): number[] {
  return instalments.filter((instalment) => instalment.status === "scheduled" && instalment.dueDate <= asOf).map((instalment) => instalment.number);
}

/**
 * Settles a locked account's pending payment: the payment moves to `settled` (`payment.settled`) and posts its
 * ledger row in the same transaction. A disbursement posts a `drawdown` of minus its amount (the principal it
 * lent was added when it was made). Money in (a collection, a paid link) posts a `collection` and is applied
 * to the balance as of `asOf` (interest first, then fees, then principal) and to the instalments (arrears
 * oldest first); cleared arrears move the account back to `performing`, and a balance paid off settles it.
 * Whatever is more than the account owes (all of it, once settled or closed) is refunded.
 */
export async function settleAccountPayment(
  transaction: Prisma.TransactionClient,
  account: Account,
  payment: Payment,
  options: { now: Date; asOf: string },
): Promise<{ account: Account; payment: Payment }> {
  const settled = await transitionPayment(transaction, payment, "settle", { now: options.now });
  if (payment.type === "disbursement") {
    await postLedgerTransaction(transaction, { accountId: account.id, type: "drawdown", amountPence: -payment.amountPence, paymentId: payment.id, postedAt: options.now });
    const updated = account.disbursedAt
      ? account
      : await transaction.account.update({ where: { id: account.id }, data: { disbursedAt: options.now, updatedAt: options.now } });
    return { account: updated, payment: settled };
  }
  if (payment.type === "refund") {
    await postLedgerTransaction(transaction, { accountId: account.id, type: "refund", amountPence: -payment.amountPence, paymentId: payment.id, postedAt: options.now });
    return { account, payment: settled };
  }
  await postLedgerTransaction(transaction, { accountId: account.id, type: "collection", amountPence: payment.amountPence, paymentId: payment.id, postedAt: options.now });
  if (!OPEN_STATUSES.has(account.status)) {
    await refundExcess(transaction, account, settled, payment.amountPence, options);
    return { account, payment: settled };
  }
  const accrued = accruedTo(account, options.asOf);
  // A payment link paid after the balance fell (a collection in between) can bring more than is owed now.
  const appliedPence = Math.min(payment.amountPence, accrued.principalOutstandingPence + accrued.interestAccruedPence + accrued.feesOutstandingPence);
  const repaid = applyRepayment(accrued, allocateRepayment(accrued, appliedPence));
  const instalments = await instalmentsOf(transaction, account.id);
  await applyInstalmentChanges(transaction, account.id, instalments, applyToInstalments(instalments, dueBy(instalments, options.asOf), appliedPence));
  let updated = await transaction.account.update({
    where: { id: account.id },
    data: {
      principalOutstandingPence: repaid.principalOutstandingPence,
      interestAccruedPence: repaid.interestAccruedPence,
      feesOutstandingPence: repaid.feesOutstandingPence,
      interestAccruedThrough: repaid.interestAccruedThrough,
      updatedAt: options.now,
    },
  });
  await refundExcess(transaction, updated, settled, payment.amountPence - appliedPence, options);
  const paidOff = repaid.principalOutstandingPence + repaid.interestAccruedPence + repaid.feesOutstandingPence === 0;
  const render = (moved: Account) => renderAccount(transaction, moved, options.asOf);
  if (paidOff) return { account: await settleInFull(transaction, updated, options), payment: settled };
  const arrears = arrearsPence(await instalmentsOf(transaction, account.id));
  if (updated.status === "in_arrears" && arrears === 0) {
    updated = await transitionAccount(transaction, updated, "clear_arrears", { now: options.now, render });
  } else if (updated.status === "performing" && arrears > 0) {
    // Less than fell due was received (a partial payment on a due date): what is left is in arrears.
    updated = await transitionAccount(transaction, updated, "fall_into_arrears", { now: options.now, render });
  }
  return { account: updated, payment: settled };
}

/**
 * Money received beyond what the account owed goes back to the payer: a `refund` payment of the excess
 * (`payment.created`), paid out like a disbursement (in the sandbox at once, posting a negative `refund` row).
 */
async function refundExcess(transaction: Prisma.TransactionClient, account: Account, received: Payment, excessPence: number, options: { now: Date; asOf: string }): Promise<void> {
  if (excessPence <= 0) return;
  const refund = await createPayment(
    transaction,
    { projectId: account.projectId, environment: account.environment, accountId: account.id, type: "refund", amountPence: excessPence, reference: received.reference, status: "pending" },
    options.now,
  );
  if (disbursementOutcome(account.environment).kind === "settled") await settleAccountPayment(transaction, account, refund, options);
}

/**
 * A balance paid off: instalments not yet paid are discharged (an early settlement's payoff covers them) and
 * the account moves to `settled`, with `account.updated` and `account.closed`.
 */
async function settleInFull(transaction: Prisma.TransactionClient, account: Account, options: { now: Date; asOf: string }): Promise<Account> {
  const unpaid = (await instalmentsOf(transaction, account.id)).filter((instalment) => instalment.status !== "paid");
  assertInstalmentMoves(unpaid, unpaid.map(({ number }) => ({ number, status: "paid" })));
  await transaction.instalment.updateMany({ where: { accountId: account.id, number: { in: unpaid.map(({ number }) => number) } }, data: { status: "paid" } });
  return transitionAccount(transaction, account, "settle", {
    now: options.now,
    changes: { nextDueOn: null, closedAt: options.now },
    render: (moved) => renderAccount(transaction, moved, options.asOf),
  });
}

/**
 * Fails a locked account's pending collection (`payment.failed`): the instalments due by `asOf` fall into
 * arrears, and a performing account moves to `in_arrears` (one under forbearance stays `forborne`: the
 * arrangement covers it).
 */
export async function failAccountPayment(
  transaction: Prisma.TransactionClient,
  account: Account,
  payment: Payment,
  options: { now: Date; asOf: string; failureCode: PaymentFailureCode },
): Promise<{ account: Account; payment: Payment }> {
  const failed = await transitionPayment(transaction, payment, "fail", { now: options.now, failureCode: options.failureCode });
  if (payment.type !== "collection") return { account, payment: failed };
  const instalments = await instalmentsOf(transaction, account.id);
  await applyInstalmentChanges(transaction, account.id, instalments, missInstalments(instalments, dueBy(instalments, options.asOf)));
  let updated = account;
  if (account.status === "performing" && arrearsPence(await instalmentsOf(transaction, account.id)) > 0) {
    updated = await transitionAccount(transaction, account, "fall_into_arrears", { now: options.now, render: (moved) => renderAccount(transaction, moved, options.asOf) });
  }
  return { account: updated, payment: failed };
}
