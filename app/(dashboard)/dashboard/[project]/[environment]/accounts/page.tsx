// GET /dashboard/{project}/{environment}/accounts — the environment's servicing accounts, newest first, filtered by
// status (spec 3.2's lifecycle), through `GET /partner/v1/accounts`'s own service and query schema.
import { when } from "@/app/(dashboard)/dashboard/_components/when";
import type { Metadata } from "next";
import { listAccounts } from "@/lib/accounts/service";
import { ACCOUNT_STATUSES } from "@/lib/accounts/schemas";
import { accountsPageQuerySchema } from "@/lib/dashboard/browse-schemas";
import { dashboardParamsSchema } from "@/lib/dashboard/schemas";
import { formatPounds } from "@/lib/money";
import { tenantNow } from "@/lib/tenant-clock";
import { ACCOUNT_STATUS_WORDS, PRODUCT_WORDS } from "@/app/_components/loan-words";
import { DashboardShell } from "@/app/(dashboard)/dashboard/_components/shell";

import { FilterForm, Pager } from "@/app/(dashboard)/dashboard/_components/browse-parts";
import { foundOrNotFound, pageParamsOrNotFound, queryOrNotFound, readerOrNotFound, withQuery } from "@/app/(dashboard)/dashboard/_components/section-page";
import "@/app/(account)/account/account.css";
import "@/app/(dashboard)/dashboard/dashboard.css";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Accounts", robots: { index: false, follow: false } };

type Props = { params: Promise<Record<string, string>>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function AccountsPage({ params, searchParams }: Props) {
  const address = pageParamsOrNotFound(dashboardParamsSchema.shape, await params);
  const base = `/dashboard/${address.project}/${address.environment}/accounts`;
  const { view, member } = await readerOrNotFound(address, base);
  const { query, given } = queryOrNotFound(accountsPageQuerySchema, await searchParams);
  const accounts = await foundOrNotFound(listAccounts({ tenant: member.tenant, now: await tenantNow(member.tenant), query, url: base }));
  const status = given.status ?? "";
  const last = accounts.data.at(-1);
  return (
    <DashboardShell view={view} section="accounts">
      <h1>Accounts</h1>
      <p>Your {address.environment === "sandbox" ? "sandbox" : "live"} loan accounts, one for each funded application, newest first.</p>
      <FilterForm action={base} label="Filter accounts" filtered={Boolean(status)}>
        <div>
          <label htmlFor="account-status">Status</label>
          <select id="account-status" name="status" defaultValue={status}>
            <option value="">Any status</option>
            {ACCOUNT_STATUSES.map((value) => (
              <option key={value} value={value}>
                {ACCOUNT_STATUS_WORDS[value]}
              </option>
            ))}
          </select>
        </div>
      </FilterForm>
      {accounts.data.length === 0 ? (
        <p className="account-empty">{status ? "No accounts have this status." : "No accounts yet: one opens when an application is funded."}</p>
      ) : (
        <div className="account-table-region" role="region" aria-labelledby="accounts-caption" tabIndex={0}>
          <table className="account-table dashboard-stacked">
            <caption id="accounts-caption">{status ? `Accounts ${ACCOUNT_STATUS_WORDS[status]?.toLowerCase()}, newest first` : "Accounts, newest first"}</caption>
            <thead>
              <tr>
                <th scope="col">Borrower</th>
                <th scope="col">Opened</th>
                <th scope="col">Product</th>
                <th scope="col" className="account-money">
                  Payoff today
                </th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {accounts.data.map((account) => (
                <tr key={account.id}>
                  <td>
                    <a href={`${base}/${account.id}`}>{account.borrower.company_name ?? account.borrower.company_number}</a>
                    <br />
                    <span className="dashboard-muted">
                      {account.borrower.company_number}, {account.id}
                    </span>
                  </td>
                  <td data-label="Opened">{when(account.created_at)}</td>
                  <td data-label="Product">{PRODUCT_WORDS[account.product] ?? account.product}</td>
                  <td data-label="Payoff today" className="account-money">
                    {formatPounds(account.balance.payoff_pence)}
                  </td>
                  <td data-label="Status">{ACCOUNT_STATUS_WORDS[account.status] ?? account.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        words="accounts"
        olderHref={accounts.has_more && last ? withQuery(base, { status, starting_after: last.id }) : null}
        newestHref={query.starting_after ? withQuery(base, { status }) : null}
      />
    </DashboardShell>
  );
}
