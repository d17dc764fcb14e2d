// The hot reads of accounts the benchmark measures (docs/performance.md), one query each on the fast lane
// (lib/fast-lane.ts): the account read and the ledger page (kept in memory against the account's ledger version:
// ledger-pages.ts), rendered to JSON by PostgreSQL (accountJsonSql and
// transactionJsonSql, held equal to their serializers by a test), and the account with its instalments in
// Prisma's shape, for the MCP loan tools (held equal to Prisma's row by a test). Account reads made together
// share one query (batchedRead). Below them, the tenant's accounts, ledgers and book through Prisma, for the
// partner MCP tools.
import type { z } from "zod";
import { db } from "../db";
import { notFound } from "../errors";
import { batchedRead, readRows } from "../fast-lane";
import { Prisma, type Account, type AccountProduct, type AccountStatus, type Instalment, type LedgerTransaction } from "../generated/prisma/client";
import { paginate, renderListEnvelope, type PageRequest } from "../wire/pagination";
import { RenderedJson } from "../wire/rendered-json";
import { tenantObjectOrThrow, tenantWhere, type Tenant } from "../tenant";
import { balanceWithArrears, type BalanceState } from "./allocation";
import { utcDate } from "./calendar";
import type { listTransactionsQuerySchema } from "./schemas";
import { ledgerPages } from "./ledger-pages";
import { accountJsonSql, joinAccountJson, transactionJsonSql } from "./serialize";

/** The accounts columns under Prisma's field names, enums as text. */
const ACCOUNT_COLUMNS = Prisma.sql`id, project_id AS "projectId", environment::text AS environment,
  application_id AS "applicationId", status::text AS status, product::text AS product, company_number AS "companyNumber",
  company_name AS "companyName", principal_pence AS "principalPence", credit_limit_pence AS "creditLimitPence",
  term_months AS "termMonths", apr_bps AS "aprBps", sub_account_id AS "subAccountId", reference, metadata,
  opened_on AS "openedOn", disbursed_at AS "disbursedAt", principal_outstanding_pence AS "principalOutstandingPence",
  interest_accrued_pence AS "interestAccruedPence", fees_outstanding_pence AS "feesOutstandingPence",
  interest_accrued_through AS "interestAccruedThrough", next_due_on AS "nextDueOn", mandate_id AS "mandateId",
  mandate_status::text AS "mandateStatus", mandate_revoked_at AS "mandateRevokedAt", forborne_until AS "forborneUntil",
  closed_at AS "closedAt", ledger_version AS "ledgerVersion", created_at AS "createdAt", updated_at AS "updatedAt"`;

// The schedule aggregated into the account's row: json carries no timestamps here (due dates are text), so
// the instalments arrive exactly as Prisma would give them.
const INSTALMENTS_JSON = Prisma.sql`COALESCE((SELECT json_agg(json_build_object('accountId', account_id, 'number', number,
  'dueDate', due_date, 'principalPence', principal_pence, 'interestPence', interest_pence, 'amountPence', amount_pence,
  'paidPence', paid_pence, 'status', status) ORDER BY number) FROM instalments WHERE account_id = accounts.id), '[]'::json)`;

/** What the balance is computed from, under BalanceState's names. */
const BALANCE_COLUMNS = Prisma.sql`product::text AS product, status::text AS status, apr_bps AS "aprBps", term_months AS "termMonths",
  opened_on AS "openedOn", principal_outstanding_pence AS "principalOutstandingPence", interest_accrued_pence AS "interestAccruedPence",
  fees_outstanding_pence AS "feesOutstandingPence", interest_accrued_through AS "interestAccruedThrough"`;

/**
 * Accounts asked for together, by id within a project: `unnest(…) WITH ORDINALITY` to join accounts on, for
 * batchedRead. Not within the environment: the other environment's account is found, to be refused 401
 * (tenantObjectOrThrow) rather than reported unknown.
 */
function wantedAccounts(keys: readonly { tenant: Tenant; id: string }[]): Prisma.Sql {
  return Prisma.sql`unnest(${keys.map((key) => key.id)}::text[], ${keys.map((key) => key.tenant.projectId)}::text[])
      WITH ORDINALITY AS wanted(account_id, account_project_id, position)
    JOIN accounts ON id = wanted.account_id AND project_id = wanted.account_project_id`;
}

type OwnAccountRow = Account & { instalments: Instalment[]; position: number };

const readOwnAccounts = batchedRead<{ tenant: Tenant; id: string }, OwnAccountRow>((keys) =>
  readRows<OwnAccountRow>(Prisma.sql`SELECT wanted.position::int AS position, ${ACCOUNT_COLUMNS}, ${INSTALMENTS_JSON} AS instalments FROM ${wantedAccounts(keys)}`),
);

/** The caller's account with its instalments: another project's is 404 `not_found`, the other environment's 401. */
export async function readOwnAccount(tenant: Tenant, id: string): Promise<Account & { instalments: Instalment[] }> {
  const { position: _position, ...account } = tenantObjectOrThrow(tenant, await readOwnAccounts({ tenant, id }), () => notFound("account", id));
  return account;
}

type RenderedAccountRow = BalanceState & { position: number; projectId: string; environment: Tenant["environment"]; arrears: number; head: string; tail: string };

const readRenderedAccount = batchedRead<{ tenant: Tenant; id: string }, RenderedAccountRow>((keys) =>
  readRows<RenderedAccountRow>(Prisma.sql`SELECT wanted.position::int AS position, project_id AS "projectId", environment::text AS environment, ${BALANCE_COLUMNS},
      ${accountJsonSql.arrears} AS arrears, ${accountJsonSql.head} AS head, ${accountJsonSql.tail} AS tail FROM ${wantedAccounts(keys)}`),
);

/** The account object, rendered by PostgreSQL but for the balance (accountJsonSql). */
export async function retrieveAccount({ tenant, now, id }: { tenant: Tenant; now: Date; id: string }): Promise<RenderedJson> {
  const row = tenantObjectOrThrow(tenant, await readRenderedAccount({ tenant, id }), () => notFound("account", id));
  const balance = balanceWithArrears(row, row.arrears, utcDate(now));
  return new RenderedJson(joinAccountJson(row.head, balance, row.tail));
}

type LedgerVersionRow = { position: number; projectId: string; environment: Tenant["environment"]; ledgerVersion: number };

const readLedgerVersion = batchedRead<{ tenant: Tenant; id: string }, LedgerVersionRow>((keys) =>
  readRows<LedgerVersionRow>(Prisma.sql`SELECT wanted.position::int AS position, project_id AS "projectId", environment::text AS environment,
      ledger_version AS "ledgerVersion" FROM ${wantedAccounts(keys)}`),
);

/**
 * A page of the account's ledger, rendered by PostgreSQL, or the same page from memory while the account's
 * ledger holds the rows it held then (ledger-pages.ts). The account's version is read first, which also checks
 * the account is the caller's: a page read after it can only hold as many rows or more, never fewer.
 */
export async function listTransactions(options: { tenant: Tenant; id: string; query: z.output<typeof listTransactionsQuerySchema>; url: string }): Promise<RenderedJson> {
  const { tenant, id, query, url } = options;
  const account = tenantObjectOrThrow(tenant, await readLedgerVersion({ tenant, id }), () => notFound("account", id));
  const key = { accountId: id, version: account.ledgerVersion, limit: query.limit, startingAfter: query.starting_after, endingBefore: query.ending_before, url };
  const known = ledgerPages().get(key);
  if (known) return known;
  const page = await paginate({
    kind: "transaction",
    page: query satisfies PageRequest,
    url,
    fetch: (window) => {
      const cursor = !window.id ? [] : "lt" in window.id ? [Prisma.sql`id < ${window.id.lt}`] : [Prisma.sql`id > ${window.id.gt}`];
      const order = window.orderBy.id === "asc" ? Prisma.sql`ASC` : Prisma.sql`DESC`;
      return readRows<{ id: string; json: string }>(Prisma.sql`SELECT id, ${transactionJsonSql} AS json FROM ledger_transactions
        WHERE ${Prisma.join([Prisma.sql`account_id = ${id}`, ...cursor], " AND ")} ORDER BY id ${order} LIMIT ${window.take}`);
    },
    exists: async (cursor) => (await readRows<{ id: string }>(Prisma.sql`SELECT id FROM ledger_transactions WHERE id = ${cursor} AND account_id = ${id}`)).length === 1,
    serialize: (row) => new RenderedJson(row.json),
  });
  return ledgerPages().set(key, renderListEnvelope(page));
}

/** One company's latest accounts with the tenant, newest first, each with its instalments. */
export function listCompanyAccounts(tenant: Tenant, { companyNumber, limit }: { companyNumber: string; limit: number }): Promise<Array<Account & { instalments: Instalment[] }>> {
  return db().account.findMany({ where: { ...tenantWhere(tenant), companyNumber }, orderBy: { id: "desc" }, take: limit, include: { instalments: true } });
}

/** The latest entries of the tenant's account's ledger, newest first. */
export function listLatestTransactions(tenant: Tenant, { accountId, limit }: { accountId: string; limit: number }): Promise<LedgerTransaction[]> {
  return db().ledgerTransaction.findMany({ where: { accountId, account: tenantWhere(tenant) }, orderBy: { id: "desc" }, take: limit });
}

/** How many accounts the tenant opened since `since`, and the principal they lent. */
export async function summariseAccountsOpened(tenant: Tenant, since: Date): Promise<{ accounts: number; principalPence: number }> {
  const opened = await db().account.aggregate({ where: { ...tenantWhere(tenant), createdAt: { gte: since } }, _count: { _all: true }, _sum: { principalPence: true } });
  return { accounts: opened._count._all, principalPence: opened._sum.principalPence ?? 0 };
}

export interface Portfolio {
  byStatus: Array<{ status: AccountStatus; accounts: number; principalOutstandingPence: number }>;
  byProduct: Array<{ product: AccountProduct; accounts: number; principalPence: number; principalOutstandingPence: number }>;
  /** What missed and partly paid instalments still owe. */
  arrearsPence: number;
}

/** The tenant's book: accounts by status and by product, with principal lent and outstanding, and arrears. */
export async function readPortfolio(tenant: Tenant): Promise<Portfolio> {
  const where = tenantWhere(tenant);
  const [byStatus, byProduct, arrears] = await Promise.all([
    db().account.groupBy({ by: ["status"], where, _count: { _all: true }, _sum: { principalOutstandingPence: true }, orderBy: { status: "asc" } }),
    db().account.groupBy({ by: ["product"], where, _count: { _all: true }, _sum: { principalPence: true, principalOutstandingPence: true }, orderBy: { product: "asc" } }),
    db().instalment.findMany({ where: { account: where, status: { in: ["missed", "partially_paid"] } }, select: { amountPence: true, paidPence: true } }),
  ]);
  return {
    byStatus: byStatus.map((group) => ({ status: group.status, accounts: group._count._all, principalOutstandingPence: group._sum.principalOutstandingPence ?? 0 })),
    byProduct: byProduct.map((group) => ({
      product: group.product,
      accounts: group._count._all,
      principalPence: group._sum.principalPence ?? 0,
      principalOutstandingPence: group._sum.principalOutstandingPence ?? 0,
    })),
    arrearsPence: arrears.reduce((sum, instalment) => sum + instalment.amountPence - instalment.paidPence, 0),
  };
}
