// GET /dashboard/{project}/{environment}/payouts/{id} — one payout and its statement (beta; docs/beta.md, "Payouts"),
// as `GET /partner/v1/payouts/{id}` answers it: a line per introduction it pays for, oldest funding first, each
// naming the account whose ledger shows the principal, and a total row that is the payout's gross.
import type { Metadata } from "next";
import { dashboardPayoutParamsSchema } from "@/lib/dashboard/browse-schemas";
import { formatPounds } from "@/lib/money";
import { retrievePayout } from "@/lib/revenue-share/payouts";
import { retrieveSubAccount } from "@/lib/revenue-share/sub-accounts";
import { DashboardShell } from "@/app/(dashboard)/dashboard/_components/shell";
import { formatShareRate, PAYOUT_STATUS_WORDS } from "@/app/(dashboard)/dashboard/_components/browse-words";
import { monthWords, when } from "@/app/(dashboard)/dashboard/_components/when";
import { betaReaderOrNotFound, foundOrNotFound, pageParamsOrNotFound } from "@/app/(dashboard)/dashboard/_components/section-page";
import "@/app/(account)/account/account.css";
import "@/app/(dashboard)/dashboard/dashboard.css";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Payout", robots: { index: false, follow: false } };

type Props = { params: Promise<Record<string, string>> };

export default async function PayoutPage({ params }: Props) {
  const address = pageParamsOrNotFound(dashboardPayoutParamsSchema.shape, await params);
  const environmentPath = `/dashboard/${address.project}/${address.environment}`;
  const { view, member } = await betaReaderOrNotFound(address, `${environmentPath}/payouts/${address.id}`);
  const { tenant } = member;
  const payout = await foundOrNotFound(retrievePayout({ tenant, id: address.id }));
  const subAccount = await retrieveSubAccount({ tenant, id: payout.sub_account_id });
  const principal = payout.statement.reduce((sum, line) => sum + line.principal_pence, 0);
  const shares = payout.statement.reduce((sum, line) => sum + line.share_pence, 0);
  return (
    <DashboardShell view={view} section="payouts">
      <p>
        <a className="account-link" href={`${environmentPath}/payouts`}>
          All payouts
        </a>
      </p>
      <h1>
        Payout to {subAccount.name} for {monthWords(payout.period)}
      </h1>
      <p>
        <span className="account-status">{PAYOUT_STATUS_WORDS[payout.status] ?? payout.status}</span>
      </p>
      <dl className="dashboard-details">
        <div>
          <dt>Gross</dt>
          <dd>{formatPounds(payout.gross_pence)}</dd>
        </div>
        <div>
          <dt>Introductions</dt>
          <dd>{payout.introductions}</dd>
        </div>
        <div>
          <dt>Sub-account</dt>
          <dd>
            {subAccount.name} <span className="dashboard-muted">{subAccount.id}</span>
          </dd>
        </div>
        <div>
          <dt>Made</dt>
          <dd>{when(payout.created_at)}</dd>
        </div>
        <div>
          <dt>Paid</dt>
          <dd>{when(payout.paid_at, "Not yet")}</dd>
        </div>
        <div>
          <dt>Id</dt>
          <dd>{payout.id}</dd>
        </div>
      </dl>
      <section aria-labelledby="statement-heading">
        <h2 id="statement-heading">Statement</h2>
        <p>
          One line per introduction funded in {monthWords(payout.period)}, oldest funding first. Each principal is the account&apos;s opening drawdown in its
          ledger (for a Flex facility, its credit limit); each share is the principal at the sub-account&apos;s rate when it was introduced, rounded down to
          the penny. The shares sum to the gross.
        </p>
        <div className="account-table-region" role="region" aria-labelledby="statement-caption" tabIndex={0}>
          <table className="account-table dashboard-stacked">
            <caption id="statement-caption">Statement of payout {payout.id}</caption>
            <thead>
              <tr>
                <th scope="col">Account</th>
                <th scope="col">Funded</th>
                <th scope="col" className="account-money">
                  Principal
                </th>
                <th scope="col" className="account-money">
                  Rate
                </th>
                <th scope="col" className="account-money">
                  Share
                </th>
              </tr>
            </thead>
            <tbody>
              {payout.statement.map((line) => (
                <tr key={line.introduction_id}>
                  <td>
                    <a href={`${environmentPath}/accounts/${line.account_id}`}>{line.account_id}</a>
                    <br />
                    <span className="dashboard-muted">
                      Application <a href={`${environmentPath}/applications/${line.application_id}`}>{line.application_id}</a>
                    </span>
                  </td>
                  <td data-label="Funded">{when(line.funded_at)}</td>
                  <td data-label="Principal" className="account-money">
                    {formatPounds(line.principal_pence)}
                  </td>
                  <td data-label="Rate" className="account-money">
                    {formatShareRate(line.revenue_share_bps)}
                  </td>
                  <td data-label="Share" className="account-money">
                    {formatPounds(line.share_pence)}
                  </td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr className="dashboard-total">
                <th scope="row" colSpan={2}>
                  Total
                </th>
                <td data-label="Principal" className="account-money">
                  {formatPounds(principal)}
                </td>
                <td />
                <td data-label="Shares" className="account-money">
                  {formatPounds(shares)}
                </td>
              </tr>
            </tfoot>
          </table>
        </div>
      </section>
    </DashboardShell>
  );
}
