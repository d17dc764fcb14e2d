// What the borrower area (app/(account)/account) shows a signed-in person: their company's applications, and each
// of its accounts with its next instalment and latest ledger entries, read through the same account-holder
// services as the accounts API (holder-reads.ts), so the page and the API never disagree.
import { listHolderApplications, type HolderApplication } from "../applications/holder-reads";
import type { AccountHolder } from "../tenant";
import { listHolderAccounts, listHolderTransactions } from "./holder-reads";
import { listAccountsQuerySchema, listTransactionsQuerySchema } from "./schemas";
import type { AccountObject } from "./serialize";

const ACCOUNTS_SHOWN = 10;
const APPLICATIONS_SHOWN = 10;
const TRANSACTIONS_SHOWN = 5;

type Instalment = AccountObject["schedule"][number];

export interface HolderAccountView {
  account: AccountObject;
  /** The first instalment not yet paid in full, or null when none is left. */
  nextInstalment: Instalment | null;
  transactions: Array<{ id: string; type: string; amount_pence: number; posted_at: string }>;
}

export interface HolderOverview {
  applications: HolderApplication[];
  accounts: HolderAccountView[];
}

export async function readHolderOverview({ holder, now }: { holder: AccountHolder; now: Date }): Promise<HolderOverview> {
  const [applications, accounts] = await Promise.all([
    listHolderApplications({ holder, limit: APPLICATIONS_SHOWN }),
    listHolderAccounts({ holder, now, query: listAccountsQuerySchema.parse({ limit: String(ACCOUNTS_SHOWN) }), url: "/partner/v1/accounts" }),
  ]);
  const views = await Promise.all(
    accounts.data.map(async (account) => {
      const ledger = await listHolderTransactions({ holder, id: account.id, query: listTransactionsQuerySchema.parse({ limit: String(TRANSACTIONS_SHOWN) }), url: `/partner/v1/accounts/${account.id}/transactions` });
      return { account, nextInstalment: account.schedule.find((instalment) => instalment.status !== "paid") ?? null, transactions: ledger.data };
    }),
  );
  return { applications, accounts: views };
}
