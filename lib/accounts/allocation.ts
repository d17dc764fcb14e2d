// The arithmetic of a balance (docs/accounts.md, "Balance", "Allocation" and "Collections"): pure functions of
// an account's stored state, its instalments and a date, so the daily servicing run, the API's reads and a
// test clock all get the same answer for the same day.
import { accrueInterest } from "./interest";
import { flexMinimumRepayment } from "./schedule";
import type { InstalmentStatus } from "./schemas";

export interface BalanceState {
  product: "business_term_loan" | "flex_facility";
  status: "performing" | "in_arrears" | "forborne" | "settled" | "closed";
  aprBps: number;
  termMonths: number;
  openedOn: string;
  principalOutstandingPence: number;
  interestAccruedPence: number;
  feesOutstandingPence: number;
  /** Interest to the start of this day is in interestAccruedPence. */
  interestAccruedThrough: string;
}

export interface InstalmentState {
  number: number;
  dueDate: string;
  principalPence: number;
  interestPence: number;
  amountPence: number;
  paidPence: number;
  status: InstalmentStatus;
}

export interface Balance {
  principal_outstanding_pence: number;
  interest_accrued_pence: number;
  arrears_pence: number;
  payoff_pence: number;
}

const OPEN_STATUSES = new Set(["performing", "in_arrears", "forborne"]);

/** Interest owed at the start of `asOf`: what is stored, plus what has accrued since on the current principal. */
export function interestAccruedAsOf(account: BalanceState, asOf: string): number {
  if (!OPEN_STATUSES.has(account.status) || asOf <= account.interestAccruedThrough) return account.interestAccruedPence;
  return (
    account.interestAccruedPence +
    accrueInterest({
      principalPence: account.principalOutstandingPence,
      aprBps: account.aprBps,
      openedOn: account.openedOn,
      from: account.interestAccruedThrough,
      to: asOf,
    })
  );
}

/** The state with interest brought up to the start of `asOf`: done before any payment changes the principal. */
export function accruedTo<T extends BalanceState>(account: T, asOf: string): T {
  if (asOf <= account.interestAccruedThrough) return account;
  return { ...account, interestAccruedPence: interestAccruedAsOf(account, asOf), interestAccruedThrough: asOf };
}

/** What is still owed on an instalment that fell due and was not collected in full. */
function unpaid(instalment: InstalmentState): number {
  return instalment.amountPence - instalment.paidPence;
}

/** The instalment statuses whose unpaid remainder is in arrears. */
export const ARREARS_STATUSES = ["missed", "partially_paid"] as const satisfies readonly InstalmentStatus[];

function inArrears(instalment: InstalmentState): boolean {
  return (ARREARS_STATUSES as readonly InstalmentStatus[]).includes(instalment.status);
}

/** Instalments that fell due and were not collected in full, oldest first. */
export function arrearsInstalments(instalments: readonly InstalmentState[]): InstalmentState[] {
  return instalments.filter(inArrears).sort((a, b) => a.number - b.number);
}

export function arrearsPence(instalments: readonly InstalmentState[]): number {
  return arrearsInstalments(instalments).reduce((sum, instalment) => sum + unpaid(instalment), 0);
}

/**
 * The balance (spec 2.4) at the start of `asOf`. `payoff_pence` settles the account in full today: principal
 * outstanding, interest accrued to today and any fees. Arrears are part of those, not on top of them.
 */
export function balanceAsOf(account: BalanceState, instalments: readonly InstalmentState[], asOf: string): Balance {
  return balanceWithArrears(account, arrearsPence(instalments), asOf);
}

/** The balance, given the arrears already summed (by PostgreSQL, for the account read). */
export function balanceWithArrears(account: BalanceState, arrears: number, asOf: string): Balance {
  const interest = interestAccruedAsOf(account, asOf);
  return {
    principal_outstanding_pence: account.principalOutstandingPence,
    interest_accrued_pence: interest,
    arrears_pence: arrears,
    payoff_pence: account.principalOutstandingPence + interest + account.feesOutstandingPence,
  };
}

export interface Allocation {
  interestPence: number;
  feesPence: number;
  principalPence: number;
}

/**
 * Money received on an account is applied to interest accrued first, then fees, then principal. Throws when
 * it is more than is owed: a collection is never taken for more than the payoff.
 */
export function allocateRepayment(account: Pick<BalanceState, "principalOutstandingPence" | "interestAccruedPence" | "feesOutstandingPence">, amountPence: number): Allocation {
  if (!Number.isSafeInteger(amountPence) || amountPence < 0) throw new RangeError(`A repayment is a whole number of pence ≥ 0; got ${amountPence}.`);
  const owed = account.principalOutstandingPence + account.interestAccruedPence + account.feesOutstandingPence;
  if (amountPence > owed) throw new RangeError(`A repayment of ${amountPence} pence is more than the ${owed} pence owed.`);
  const interestPence = Math.min(amountPence, account.interestAccruedPence);
  const feesPence = Math.min(amountPence - interestPence, account.feesOutstandingPence);
  return { interestPence, feesPence, principalPence: amountPence - interestPence - feesPence };
}

/** The balance after a repayment's allocation. */
export function applyRepayment<T extends BalanceState>(account: T, allocation: Allocation): T {
  return {
    ...account,
    interestAccruedPence: account.interestAccruedPence - allocation.interestPence,
    feesOutstandingPence: account.feesOutstandingPence - allocation.feesPence,
    principalOutstandingPence: account.principalOutstandingPence - allocation.principalPence,
  };
}

export interface InstalmentChange {
  number: number;
  paidPence: number;
  status: InstalmentStatus;
}

/**
 * Money collected against instalments: instalments in arrears oldest first, then those in `collecting` (the
 * ones the collection was taken for) in order, each up to what it still owes. Returns the instalments whose
 * paid amount or status changed.
 */
export function applyToInstalments(instalments: readonly InstalmentState[], collecting: readonly number[], amountPence: number): InstalmentChange[] {
  const order = [
    ...arrearsInstalments(instalments),
    ...instalments.filter((instalment) => collecting.includes(instalment.number) && !inArrears(instalment)).sort((a, b) => a.number - b.number),
  ];
  let remaining = amountPence;
  const changes: InstalmentChange[] = [];
  for (const instalment of order) {
    const paying = Math.min(remaining, unpaid(instalment));
    remaining -= paying;
    const paidPence = instalment.paidPence + paying;
    const status: InstalmentStatus = paidPence >= instalment.amountPence ? "paid" : paidPence > 0 ? "partially_paid" : "missed";
    if (paidPence !== instalment.paidPence || status !== instalment.status) changes.push({ number: instalment.number, paidPence, status });
  }
  return changes;
}

/** A collection that failed: the instalments it was for fall into arrears as they stand. */
export function missInstalments(instalments: readonly InstalmentState[], collecting: readonly number[]): InstalmentChange[] {
  return instalments
    .filter((instalment) => collecting.includes(instalment.number) && instalment.status === "scheduled")
    .map((instalment) => ({ number: instalment.number, paidPence: instalment.paidPence, status: instalment.paidPence > 0 ? "partially_paid" : "missed" }));
}

export interface CollectionPlan {
  /** The due date the collection is for. */
  dueDate: string;
  /**
   * The instalment falling due (a Flex facility's is created with the collection); null past a term loan's
   * final due date, when only arrears are left to collect.
   */
  instalment: InstalmentState | null;
  /** Whether `instalment` is new (a Flex minimum repayment) rather than one of the stored schedule. */
  newInstalment: boolean;
  /** Arrears plus the instalment, or the payoff on a term loan's final due date; never more than the payoff. */
  amountPence: number;
}

/**
 * The collection to take on `dueDate` (the account's next due date), with interest accrued to that day: the
 * instalment falling due plus any arrears, oldest first. A term loan's final due date takes the payoff, which
 * also gathers the interest that arrears added beyond the schedule. Null when nothing is owed.
 */
export function planCollection(account: BalanceState, instalments: readonly InstalmentState[], dueDate: string): CollectionPlan | null {
  const accrued = accruedTo(account, dueDate);
  const payoff = accrued.principalOutstandingPence + accrued.interestAccruedPence + accrued.feesOutstandingPence;
  const arrears = arrearsPence(instalments);
  if (account.product === "business_term_loan") {
    const instalment = instalments.find((candidate) => candidate.dueDate === dueDate) ?? null;
    // On the final due date, and on any later one while arrears remain, the whole payoff is due.
    const final = !instalment || instalment.number === account.termMonths;
    if (!instalment && arrears === 0) return null;
    const amountPence = Math.min(payoff, final ? payoff : arrears + instalment.amountPence);
    return amountPence === 0 ? null : { dueDate, instalment, newInstalment: false, amountPence };
  }
  const overdue = arrearsInstalments(instalments);
  const unpaidInterest = overdue.reduce((sum, item) => sum + Math.max(0, item.interestPence - item.paidPence), 0);
  const unpaidPrincipal = overdue.reduce((sum, item) => sum + unpaid(item) - Math.max(0, item.interestPence - item.paidPence), 0);
  const minimum = flexMinimumRepayment({
    period: periodsSinceOpening(account.openedOn, dueDate),
    termMonths: account.termMonths,
    principalPence: Math.max(0, accrued.principalOutstandingPence - unpaidPrincipal),
    interestPence: Math.max(0, accrued.interestAccruedPence - unpaidInterest),
  });
  const amountPence = Math.min(payoff, arrears + minimum.amountPence);
  if (amountPence === 0) return null;
  const number = instalments.reduce((highest, item) => Math.max(highest, item.number), 0) + 1;
  const instalment: InstalmentState | null = minimum.amountPence === 0 ? null : { number, dueDate, ...minimum, paidPence: 0, status: "scheduled" };
  return { dueDate, instalment, newInstalment: instalment !== null, amountPence };
}

/** Which period's end `dueDate` is (1 for the first due date). */
function periodsSinceOpening(openedOn: string, dueDate: string): number {
  const [openYear, openMonth] = openedOn.split("-").map(Number) as [number, number];
  const [dueYear, dueMonth] = dueDate.split("-").map(Number) as [number, number];
  return (dueYear - openYear) * 12 + (dueMonth - openMonth);
}
