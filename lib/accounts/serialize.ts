// The account object (spec 2.4), its balance and its ledger transactions as they go on the wire; the zod schema of
// each is in ./schemas.ts (the API reference documents replies with them).
import { Prisma, type Account, type Instalment, type LedgerTransaction } from "../generated/prisma/client";
import { isoTimestampSql, jsonValueSql, renderedObjectSql } from "../wire/rendered-json";
import { ARREARS_STATUSES, balanceAsOf, type Balance } from "./allocation";

export function serializeBalance(account: Account, instalments: readonly Instalment[], asOf: string): Balance {
  return balanceAsOf(account, instalments, asOf);
}

/** What a Flex facility may still draw: its limit less the principal drawn and not repaid. */
export function availablePence(account: Pick<Account, "creditLimitPence" | "principalOutstandingPence" | "status">): number | null {
  if (account.creditLimitPence === null) return null;
  if (account.status === "settled" || account.status === "closed") return 0;
  return Math.max(0, account.creditLimitPence - account.principalOutstandingPence);
}

/**
 * The account object (spec 2.4, with the fields it leaves to us): the balance at the start of `asOf` and the
 * schedule in instalment order. `rate_apr` is the APR as a percentage (`apr_bps` / 100).
 */
export function serializeAccount(account: Account, instalments: readonly Instalment[], asOf: string) {
  return {
    id: account.id,
    object: "account" as const,
    livemode: account.environment === "live",
    status: account.status,
    forborne_until: account.status === "forborne" ? account.forborneUntil : null,
    product: account.product,
    application_id: account.applicationId,
    borrower: { company_number: account.companyNumber, company_name: account.companyName },
    principal_pence: account.principalPence,
    credit_limit_pence: account.creditLimitPence,
    available_pence: availablePence(account),
    term_months: account.termMonths,
    rate_apr: account.aprBps / 100,
    apr_bps: account.aprBps,
    disbursed_at: account.disbursedAt?.toISOString() ?? null,
    balance: serializeBalance(account, instalments, asOf),
    schedule: [...instalments]
      .sort((a, b) => a.number - b.number)
      .map((instalment) => ({
        number: instalment.number,
        due_date: instalment.dueDate,
        principal_pence: instalment.principalPence,
        interest_pence: instalment.interestPence,
        amount_pence: instalment.amountPence,
        status: instalment.status,
      })),
    sub_account_id: account.subAccountId,
    reference: account.reference,
    metadata: account.metadata as Record<string, string>,
    created_at: account.createdAt.toISOString(),
  };
}

export type AccountObject = ReturnType<typeof serializeAccount>;

export function serializeTransaction(transaction: LedgerTransaction) {
  return {
    id: transaction.id,
    object: "transaction" as const,
    account_id: transaction.accountId,
    type: transaction.type,
    amount_pence: transaction.amountPence,
    payment_id: transaction.paymentId,
    posted_at: transaction.postedAt.toISOString(),
  };
}

/** `mandate.revoked`'s `data.object`: the direct-debit mandate collections are taken under. */
export function serializeMandate(account: Pick<Account, "mandateId" | "mandateStatus" | "mandateRevokedAt" | "id" | "environment" | "reference" | "createdAt">) {
  return {
    id: account.mandateId,
    object: "mandate" as const,
    livemode: account.environment === "live",
    account_id: account.id,
    scheme: "bacs_direct_debit" as const,
    status: account.mandateStatus,
    reference: account.reference,
    created_at: account.createdAt.toISOString(),
    revoked_at: account.mandateRevokedAt?.toISOString() ?? null,
  };
}

/**
 * The account object as PostgreSQL renders it for the account read, over a row of `accounts`, in two halves
 * around the balance, which only JavaScript computes (interest accrues to the tenant's today): `head` holds the
 * fields before it and `tail` those after, each compact JSON text, and `arrears` the sum the balance needs.
 * joinAccountJson puts the three together: the object serializeAccount returns, field for field and in the same
 * order (tests/database/accounts/serialize-sql.test.ts holds the two equal).
 */
export const accountJsonSql = {
  head: Prisma.sql`row_to_json((SELECT rendered FROM (SELECT id, 'account' AS object, environment = 'live' AS livemode, status,
    CASE WHEN status = 'forborne' THEN forborne_until END AS forborne_until, product, application_id,
    (SELECT borrower FROM (SELECT company_number, company_name) borrower) AS borrower, principal_pence, credit_limit_pence,
    CASE WHEN credit_limit_pence IS NULL THEN NULL WHEN status IN ('settled', 'closed') THEN 0
      ELSE GREATEST(0, credit_limit_pence - principal_outstanding_pence) END AS available_pence,
    term_months, apr_bps::float8 / 100 AS rate_apr, apr_bps, ${isoTimestampSql("disbursed_at")} AS disbursed_at) rendered))::text`,
  // array_to_json, not json_agg: json_agg puts a line break between elements, and a response is one line.
  tail: Prisma.sql`row_to_json((SELECT rendered FROM (SELECT COALESCE((SELECT array_to_json(array_agg(instalment ORDER BY instalment.number))
      FROM (SELECT number, due_date, principal_pence, interest_pence, amount_pence, status FROM instalments
        WHERE account_id = accounts.id) instalment), '[]'::json) AS schedule,
    sub_account_id, reference, metadata, ${isoTimestampSql("created_at")} AS created_at) rendered))::text`,
  arrears: Prisma.sql`(SELECT COALESCE(SUM(amount_pence - paid_pence), 0)::int FROM instalments
    WHERE account_id = accounts.id AND status::text IN (${Prisma.join(ARREARS_STATUSES)}))`,
};

/** The account object's JSON text from accountJsonSql's halves and the balance. */
export function joinAccountJson(head: string, balance: Balance, tail: string): string {
  return `${head.slice(0, -1)},"balance":${JSON.stringify(balance)},${tail.slice(1)}`;
}

/** The transaction object as PostgreSQL renders it for the ledger page, over a row of `ledger_transactions`: what serializeTransaction returns. */
export const transactionJsonSql = Prisma.sql`row_to_json((SELECT rendered FROM (SELECT id, 'transaction' AS object, account_id, type,
  amount_pence, payment_id, ${isoTimestampSql("posted_at")} AS posted_at) rendered))::text`;
