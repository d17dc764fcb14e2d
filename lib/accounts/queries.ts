// The account read and the ledger page: hot paths the benchmark measures (docs/performance.md), one query each
// on the fast lane (lib/fast-lane.ts). The rows come back shaped as Prisma's, so the one serializer
// (serializeAccount, serializeTransaction) renders them; a test holds the shapes equal.
import type { z } from "zod";
import { readRows } from "../fast-lane";
import { Prisma, type Account, type Instalment, type LedgerTransaction } from "../generated/prisma/client";
import { paginate, type PageRequest } from "../http/pagination";
import type { Tenant } from "../tenant";
import { tenantNow } from "../tenant-clock";
import { utcDate } from "./calendar";
import type { listTransactionsQuerySchema } from "./schemas";
import { serializeAccount, serializeTransaction } from "./serialize";
import { noSuchAccount } from "./service";

/** The accounts columns under Prisma's field names, enums as text. */
export const ACCOUNT_COLUMNS = Prisma.sql`id, project_id AS "projectId", environment::text AS environment,
  application_id AS "applicationId", status::text AS status, product::text AS product, company_number AS "companyNumber",
  company_name AS "companyName", principal_pence AS "principalPence", credit_limit_pence AS "creditLimitPence",
  term_months AS "termMonths", apr_bps AS "aprBps", sub_account_id AS "subAccountId", reference, metadata,
  opened_on AS "openedOn", disbursed_at AS "disbursedAt", principal_outstanding_pence AS "principalOutstandingPence",
  interest_accrued_pence AS "interestAccruedPence", fees_outstanding_pence AS "feesOutstandingPence",
  interest_accrued_through AS "interestAccruedThrough", next_due_on AS "nextDueOn", mandate_id AS "mandateId",
  mandate_status::text AS "mandateStatus", mandate_revoked_at AS "mandateRevokedAt", forborne_until AS "forborneUntil",
  closed_at AS "closedAt", created_at AS "createdAt", updated_at AS "updatedAt"`;

// The schedule aggregated into the account's row: json carries no timestamps here (due dates are text), so
// the instalments arrive exactly as Prisma would give them.
const INSTALMENTS_JSON = Prisma.sql`COALESCE((SELECT json_agg(json_build_object('accountId', account_id, 'number', number,
  'dueDate', due_date, 'principalPence', principal_pence, 'interestPence', interest_pence, 'amountPence', amount_pence,
  'paidPence', paid_pence, 'status', status) ORDER BY number) FROM instalments WHERE account_id = accounts.id), '[]'::json)`;

const TRANSACTION_COLUMNS = Prisma.sql`id, account_id AS "accountId", type::text AS type, amount_pence AS "amountPence",
  payment_id AS "paymentId", posted_at AS "postedAt"`;

/** The caller's account with its instalments, or null; another project's or environment's is null too. */
export async function readOwnAccount(tenant: Tenant, id: string): Promise<(Account & { instalments: Instalment[] }) | null> {
  const [row] = await readRows<Account & { instalments: Instalment[] }>(Prisma.sql`SELECT ${ACCOUNT_COLUMNS}, ${INSTALMENTS_JSON} AS instalments
    FROM accounts WHERE id = ${id} AND project_id = ${tenant.projectId} AND environment = ${tenant.environment}::"Environment"`);
  return row ?? null;
}

export async function retrieveAccount({ tenant, id }: { tenant: Tenant; id: string }) {
  const account = await readOwnAccount(tenant, id);
  if (!account) throw noSuchAccount(id);
  return serializeAccount(account, account.instalments, utcDate(await tenantNow(tenant)));
}

async function ownsAccount(tenant: Tenant, id: string): Promise<boolean> {
  const rows = await readRows<{ id: string }>(Prisma.sql`SELECT id FROM accounts
    WHERE id = ${id} AND project_id = ${tenant.projectId} AND environment = ${tenant.environment}::"Environment"`);
  return rows.length === 1;
}

export async function listTransactions(options: { tenant: Tenant; id: string; query: z.output<typeof listTransactionsQuerySchema>; url: string }) {
  const { tenant, id } = options;
  if (!(await ownsAccount(tenant, id))) throw noSuchAccount(id);
  return paginate({
    kind: "transaction",
    page: options.query satisfies PageRequest,
    url: options.url,
    fetch: (window) => {
      const cursor = !window.id ? [] : "lt" in window.id ? [Prisma.sql`id < ${window.id.lt}`] : [Prisma.sql`id > ${window.id.gt}`];
      const order = window.orderBy.id === "asc" ? Prisma.sql`ASC` : Prisma.sql`DESC`;
      return readRows<LedgerTransaction>(Prisma.sql`SELECT ${TRANSACTION_COLUMNS} FROM ledger_transactions
        WHERE ${Prisma.join([Prisma.sql`account_id = ${id}`, ...cursor], " AND ")} ORDER BY id ${order} LIMIT ${window.take}`);
    },
    exists: async (cursor) => (await readRows<{ id: string }>(Prisma.sql`SELECT id FROM ledger_transactions WHERE id = ${cursor} AND account_id = ${id}`)).length === 1,
    serialize: serializeTransaction,
  });
}
