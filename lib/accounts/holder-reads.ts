// The accounts API's reads for whoever calls it (spec 4.3): a partner's tenant, through the project's reads
// (service.ts, and queries.ts's fast lane), or a person signed in through our sign-in provider, an account holder
// who sees their company's accounts in their environment, whichever partner's project holds them
// (docs/sign-in.md, "People reading their accounts"). The borrower area (app/(account)) reads through the same
// functions. Reads by id follow the holder's tenancy rule (lib/tenant.ts `holderObjectOrThrow`).
import type { z } from "zod";
import { db } from "../db";
import { notFound } from "../errors";
import { accountHolderWhere, holderObjectOrThrow, isAccountHolder, type AccountHolder, type Reader } from "../tenant";
import { paginate, type PageRequest } from "../wire/pagination";
import { balanceAsOf } from "./allocation";
import { utcDate } from "./calendar";
import { listTransactions, retrieveAccount } from "./queries";
import type { listAccountsQuerySchema, listTransactionsQuerySchema } from "./schemas";
import { serializeAccount, serializeTransaction } from "./serialize";
import { listAccounts, listAccountsWhere, retrieveBalance } from "./service";

type AccountsQuery = z.output<typeof listAccountsQuerySchema>;
type TransactionsQuery = z.output<typeof listTransactionsQuerySchema>;

export function listAccountsFor(options: { reader: Reader; now: Date; query: AccountsQuery; url: string }) {
  const { reader, ...rest } = options;
  return isAccountHolder(reader) ? listHolderAccounts({ holder: reader, ...rest }) : listAccounts({ tenant: reader, ...rest });
}

export function retrieveAccountFor({ reader, now, id }: { reader: Reader; now: Date; id: string }) {
  return isAccountHolder(reader) ? retrieveHolderAccount({ holder: reader, now, id }) : retrieveAccount({ tenant: reader, now, id });
}

export function retrieveBalanceFor({ reader, now, id }: { reader: Reader; now: Date; id: string }) {
  return isAccountHolder(reader) ? retrieveHolderBalance({ holder: reader, now, id }) : retrieveBalance({ tenant: reader, now, id });
}

export function listTransactionsFor(options: { reader: Reader; id: string; query: TransactionsQuery; url: string }) {
  const { reader, ...rest } = options;
  return isAccountHolder(reader) ? listHolderTransactions({ holder: reader, ...rest }) : listTransactions({ tenant: reader, ...rest });
}

/** The holder's company's accounts in their environment, newest first, paginated as every list (spec 4.11). */
export function listHolderAccounts(options: { holder: AccountHolder; now: Date; query: AccountsQuery; url: string }) {
  return listAccountsWhere({ ...options, scope: accountHolderWhere(options.holder) });
}

async function readHolderAccount(holder: AccountHolder, id: string) {
  const found = await db().account.findUnique({ where: { id }, include: { instalments: { orderBy: { number: "asc" } } } });
  return holderObjectOrThrow(holder, found, () => notFound("account", id));
}

export async function retrieveHolderAccount({ holder, now, id }: { holder: AccountHolder; now: Date; id: string }) {
  const account = await readHolderAccount(holder, id);
  return serializeAccount(account, account.instalments, utcDate(now));
}

export async function retrieveHolderBalance({ holder, now, id }: { holder: AccountHolder; now: Date; id: string }) {
  const account = await readHolderAccount(holder, id);
  return balanceAsOf(account, account.instalments, utcDate(now));
}

/** The ledger of one of the holder's accounts, newest first, paginated (a cursor must be a row of that ledger). */
export async function listHolderTransactions(options: { holder: AccountHolder; id: string; query: TransactionsQuery; url: string }) {
  const { holder, id } = options;
  await readHolderAccount(holder, id);
  return paginate({
    kind: "transaction",
    page: options.query satisfies PageRequest,
    url: options.url,
    fetch: (window) => db().ledgerTransaction.findMany({ where: { accountId: id, ...(window.id ? { id: window.id } : {}) }, orderBy: window.orderBy, take: window.take }),
    exists: async (cursor) => (await db().ledgerTransaction.count({ where: { id: cursor, accountId: id } })) === 1,
    serialize: serializeTransaction,
  });
}
