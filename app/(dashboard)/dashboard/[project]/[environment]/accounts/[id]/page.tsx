// GET /dashboard/{project}/{environment}/accounts/{id} — one account as the partner API reads it: its balance (spec
// 2.4), its repayment schedule as the borrower area's chart, its ledger (newest first, a page at a time, as
// `GET /partner/v1/accounts/{id}/transactions` answers it) and the timeline of its events.
import type { Metadata } from "next";
import { listTransactions, retrieveAccount } from "@/lib/accounts/queries";
import type { AccountObject } from "@/lib/accounts/serialize";
import { readRendered, type TransactionObject } from "@/lib/dashboard/browse";
import { accountPageQuerySchema, dashboardAccountParamsSchema } from "@/lib/dashboard/browse-schemas";
import { listEventsAbout } from "@/lib/events/queries";
import { formatPounds } from "@/lib/money";
import { tenantNow } from "@/lib/tenant-clock";
import type { ListEnvelope } from "@/lib/wire/pagination";
import { ACCOUNT_STATUS_WORDS, PRODUCT_WORDS } from "@/app/_components/loan-words";
import { ScheduleChart } from "@/app/_components/schedule-chart";
import { DashboardShell } from "@/app/(dashboard)/dashboard/_components/shell";
import {formatBps, LEDGER_WORDS } from "@/app/(dashboard)/dashboard/_components/browse-words";
import { when } from "@/app/(dashboard)/dashboard/_components/when";
import { Pager, Timeline } from "@/app/(dashboard)/dashboard/_components/browse-parts";
import { foundOrNotFound, pageParamsOrNotFound, queryOrNotFound, readerOrNotFound, withQuery } from "@/app/(dashboard)/dashboard/_components/section-page";
import "@/app/(account)/account/account.css";
import "@/app/(dashboard)/dashboard/dashboard.css";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Account", robots: { index: false, follow: false } };

type Props = { params: Promise<Record<string, string>>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function AccountPage({ params, searchParams }: Props) {
  const address = pageParamsOrNotFound(dashboardAccountParamsSchema.shape, await params);
  const environmentPath = `/dashboard/${address.project}/${address.environment}`;
  const path = `${environmentPath}/accounts/${address.id}`;
  const { view, member } = await readerOrNotFound(address, path);
  const { query } = queryOrNotFound(accountPageQuerySchema, await searchParams);
  const { tenant } = member;
  const account = readRendered<AccountObject>(await foundOrNotFound(retrieveAccount({ tenant, now: await tenantNow(tenant), id: address.id })));
  const [ledger, events] = await Promise.all([
    foundOrNotFound(listTransactions({ tenant, id: account.id, query, url: path })).then((rendered) => readRendered<ListEnvelope<TransactionObject>>(rendered)),
    listEventsAbout(tenant, { objectId: account.id, relatedField: "account_id" }),
  ]);
  const last = ledger.data.at(-1);
  const { balance } = account;
  return (
    <DashboardShell view={view} section="accounts">
      <p>
        <a className="account-link" href={`${environmentPath}/accounts`}>
          All accounts
        </a>
      </p>
      <h1>
        {PRODUCT_WORDS[account.product] ?? account.product} for {account.borrower.company_name ?? account.borrower.company_number}
      </h1>
      <span className={account.status === "in_arrears" ? "account-status account-status-attention" : "account-status"}>{ACCOUNT_STATUS_WORDS[account.status] ?? account.status}</span>
      <section aria-labelledby="balance-heading">
        <h2 id="balance-heading">Balance today</h2>
        <dl className="account-summary">
          <div>
            <dt>Principal outstanding</dt>
            <dd>{formatPounds(balance.principal_outstanding_pence)}</dd>
          </div>
          <div>
            <dt>Interest accrued</dt>
            <dd>{formatPounds(balance.interest_accrued_pence)}</dd>
          </div>
          <div>
            <dt>Arrears</dt>
            <dd>{formatPounds(balance.arrears_pence)}</dd>
          </div>
          <div>
            <dt>Payoff (to settle in full today)</dt>
            <dd>{formatPounds(balance.payoff_pence)}</dd>
          </div>
        </dl>
      </section>
      <dl className="account-summary">
        <div>
          <dt>Company number</dt>
          <dd>{account.borrower.company_number}</dd>
        </div>
        <div>
          <dt>Principal lent</dt>
          <dd>
            {formatPounds(account.principal_pence)} over {account.term_months} months at {formatBps(account.apr_bps)} APR
          </dd>
        </div>
        {account.disbursed_at ? (
          <div>
            <dt>Disbursed</dt>
            <dd>{when(account.disbursed_at)}</dd>
          </div>
        ) : null}
        {account.application_id ? (
          <div>
            <dt>Application</dt>
            <dd>
              <a href={`${environmentPath}/applications/${account.application_id}`}>{account.application_id}</a>
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Account id</dt>
          <dd>{account.id}</dd>
        </div>
      </dl>
      <section aria-labelledby="schedule-heading">
        <h2 id="schedule-heading">Repayment schedule</h2>
        <ScheduleChart accountId={account.id} schedule={account.schedule} />
      </section>
      <section aria-labelledby="ledger-heading">
        <h2 id="ledger-heading">Ledger</h2>
        {ledger.data.length === 0 ? (
          <p className="account-empty">No ledger entries yet.</p>
        ) : (
          <div className="account-table-region" role="region" aria-labelledby="ledger-caption" tabIndex={0}>
            <table className="account-table dashboard-stacked">
              <caption id="ledger-caption">Ledger entries, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Posted</th>
                  <th scope="col">What</th>
                  <th scope="col" className="account-money">
                    Amount
                  </th>
                  <th scope="col">Entry</th>
                </tr>
              </thead>
              <tbody>
                {ledger.data.map((entry) => (
                  <tr key={entry.id}>
                    <td data-label="Posted">{when(entry.posted_at)}</td>
                    <td data-label="What">{LEDGER_WORDS[entry.type] ?? entry.type}</td>
                    <td data-label="Amount" className="account-money">
                      {formatPounds(entry.amount_pence)}
                    </td>
                    <td data-label="Entry">
                      {entry.id}
                      {entry.payment_id ? <span className="dashboard-muted"> ({entry.payment_id})</span> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager
          words="ledger entries"
          olderHref={ledger.has_more && last ? withQuery(path, { starting_after: last.id }) : null}
          newestHref={query.starting_after ? path : null}
        />
      </section>
      <section aria-labelledby="timeline-heading">
        <h2 id="timeline-heading">Timeline</h2>
        <Timeline events={events} eventsPath={`${environmentPath}/events`} about="account" />
      </section>
    </DashboardShell>
  );
}
