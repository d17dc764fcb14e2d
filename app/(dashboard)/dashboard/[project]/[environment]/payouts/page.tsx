// GET /dashboard/{project}/{environment}/payouts — the environment's payouts (beta; docs/dashboard.md, "Sub-accounts,
// introductions and payouts"), newest first, 25 at a time, through `GET /partner/v1/payouts`'s own service: a month's
// revenue share for one sub-account each, linking its statement.
import type { Metadata } from "next";
import { payoutsPageQuerySchema } from "@/lib/dashboard/browse-schemas";
import { dashboardParamsSchema } from "@/lib/dashboard/schemas";
import { formatPounds } from "@/lib/money";
import { listPayouts } from "@/lib/revenue-share/payouts";
import { subAccountNames } from "@/lib/revenue-share/sub-accounts";
import { DashboardShell } from "@/app/(dashboard)/dashboard/_components/shell";
import { PAYOUT_STATUS_WORDS } from "@/app/(dashboard)/dashboard/_components/browse-words";
import { monthWords, when } from "@/app/(dashboard)/dashboard/_components/when";
import { Pager } from "@/app/(dashboard)/dashboard/_components/browse-parts";
import { betaReaderOrNotFound, foundOrNotFound, pageParamsOrNotFound, queryOrNotFound, withQuery } from "@/app/(dashboard)/dashboard/_components/section-page";
import "@/app/(account)/account/account.css";
import "@/app/(dashboard)/dashboard/dashboard.css";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Payouts", robots: { index: false, follow: false } };

type Props = { params: Promise<Record<string, string>>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function PayoutsPage({ params, searchParams }: Props) {
  const address = pageParamsOrNotFound(dashboardParamsSchema.shape, await params);
  const base = `/dashboard/${address.project}/${address.environment}/payouts`;
  const { view, member } = await betaReaderOrNotFound(address, base);
  const { query } = queryOrNotFound(payoutsPageQuerySchema, await searchParams);
  const { tenant } = member;
  const payouts = await foundOrNotFound(listPayouts({ tenant, query, url: base }));
  const names = await subAccountNames({ tenant, ids: payouts.data.map((payout) => payout.sub_account_id) });
  const last = payouts.data.at(-1);
  return (
    <DashboardShell view={view} section="payouts">
      <h1>Payouts</h1>
      <p>
        Your {address.environment === "sandbox" ? "sandbox" : "live"} sub-accounts&apos; revenue share (beta), newest first: one payout a month for each
        sub-account with introductions funded that month (UTC), made after the month closes.
        {address.environment === "sandbox" ? " Sandbox payouts are paid at once." : " Live payouts stay pending until a payout provider is connected."}
      </p>
      {payouts.data.length === 0 ? (
        <p className="account-empty">No payouts yet: the first comes after the month in which an introduction is funded.</p>
      ) : (
        <div className="account-table-region" role="region" aria-labelledby="payouts-caption" tabIndex={0}>
          <table className="account-table dashboard-stacked">
            <caption id="payouts-caption">Payouts, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Period</th>
                <th scope="col">Sub-account</th>
                <th scope="col">Status</th>
                <th scope="col" className="account-money">
                  Introductions
                </th>
                <th scope="col" className="account-money">
                  Gross
                </th>
                <th scope="col">Paid</th>
              </tr>
            </thead>
            <tbody>
              {payouts.data.map((payout) => (
                <tr key={payout.id}>
                  <td>
                    <a href={`${base}/${payout.id}`}>{monthWords(payout.period)}</a>
                    <br />
                    <span className="dashboard-muted">{payout.id}</span>
                  </td>
                  <td data-label="Sub-account">{names.get(payout.sub_account_id) ?? payout.sub_account_id}</td>
                  <td data-label="Status">
                    <span className="account-status">{PAYOUT_STATUS_WORDS[payout.status] ?? payout.status}</span>
                  </td>
                  <td data-label="Introductions" className="account-money">
                    {payout.introductions}
                  </td>
                  <td data-label="Gross" className="account-money">
                    {formatPounds(payout.gross_pence)}
                  </td>
                  <td data-label="Paid">{when(payout.paid_at, "Not yet")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager words="payouts" olderHref={payouts.has_more && last ? withQuery(base, { starting_after: last.id }) : null} newestHref={query.starting_after ? base : null} />
    </DashboardShell>
  );
}
