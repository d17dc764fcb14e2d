// GET /account — the borrower area (docs/sign-in.md, "People reading their accounts"): a person signed in through our
// sign-in provider sees their company's applications and accounts (status, balance, next instalment, the schedule
// as a chart, recent transactions), read through the same account-holder services as the accounts API. Not signed
// in, or their access token expired or revoked: the sign-in page. Sign out is /api/account/sign-out.
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { auth } from "@/app/_auth/people-sign-in";
import { readHolderOverview, type HolderAccountView } from "@/lib/accounts/holder-overview";
import type { HolderApplication } from "@/lib/applications/holder-reads";
import { clock } from "@/lib/clock";
import { formatPounds } from "@/lib/money";
import { personOfAccessToken } from "@/lib/oidc/people";
import { ScheduleChart } from "@/app/_components/schedule-chart";
import { ACCOUNT_STATUS_WORDS, APPLICATION_STATUS_WORDS, formatDay, formatShortDate, PRODUCT_WORDS, TRANSACTION_WORDS } from "@/app/_components/loan-words";
import "./account.css";
import { SignOutButton } from "@/app/_auth/sign-out-button";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Your business loans", robots: { index: false, follow: false } };

export default async function AccountPage() {
  const session = await auth();
  const person = session?.accessToken ? await personOfAccessToken(session.accessToken) : null;
  if (!person?.scopes.has("accounts.read")) redirect("/account/sign-in");
  const overview = await readHolderOverview({ holder: person.holder, now: clock.now() });
  const companyName = overview.accounts[0]?.account.borrower.company_name;
  return (
    <main className="account-page">
      <header className="account-header">
        <div>
          <h1>Your business loans</h1>
          {person.holder.companyNumber ? (
            <p>
              {companyName ? `${companyName}, ` : ""}company number {person.holder.companyNumber}
              {person.holder.environment === "sandbox" ? " (sandbox)" : ""}
            </p>
          ) : null}
        </div>
        <SignOutButton />
      </header>
      {person.holder.companyNumber ? (
        <>
          <section className="account-section" aria-labelledby="accounts-heading">
            <h2 id="accounts-heading">Accounts</h2>
            {overview.accounts.length === 0 ? <p className="account-empty">Your company has no loan accounts with us yet. One opens when an application is funded.</p> : null}
            {overview.accounts.map((view) => (
              <AccountCard key={view.account.id} view={view} />
            ))}
          </section>
          <Applications applications={overview.applications} />
        </>
      ) : (
        <p className="account-empty">Your sign-in is not linked to a company yet, so there are no accounts to show. Ask the lender who set up your sign-in to add your company number.</p>
      )}
    </main>
  );
}

function AccountCard({ view }: { view: HolderAccountView }) {
  const { account, nextInstalment, transactions } = view;
  const headingId = `account-${account.id}`;
  const attention = account.status === "in_arrears";
  return (
    <article className="account-card" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {PRODUCT_WORDS[account.product] ?? account.product} of {formatPounds(account.credit_limit_pence ?? account.principal_pence)}
      </h2>
      <span className={attention ? "account-status account-status-attention" : "account-status"}>{ACCOUNT_STATUS_WORDS[account.status] ?? account.status}</span>
      <dl className="account-summary">
        <div>
          <dt>To repay in full today</dt>
          <dd>{formatPounds(account.balance.payoff_pence)}</dd>
        </div>
        <div>
          <dt>Loan still to repay</dt>
          <dd>{formatPounds(account.balance.principal_outstanding_pence)}</dd>
        </div>
        {account.balance.arrears_pence > 0 ? (
          <div>
            <dt>Missed payments</dt>
            <dd>{formatPounds(account.balance.arrears_pence)}</dd>
          </div>
        ) : null}
        <div>
          <dt>Next instalment</dt>
          <dd>{nextInstalment ? `${formatPounds(nextInstalment.amount_pence)} on ${formatShortDate(nextInstalment.due_date)}` : "None left to pay"}</dd>
        </div>
        <div>
          <dt>Account reference</dt>
          <dd>{account.id}</dd>
        </div>
      </dl>
      <h3>Repayment schedule</h3>
      <ScheduleChart accountId={account.id} schedule={account.schedule} />
      <h3>Recent transactions</h3>
      {transactions.length === 0 ? (
        <p className="account-empty">No transactions yet.</p>
      ) : (
        <div className="account-table-region" role="region" aria-label={`Recent transactions of ${account.id}`} tabIndex={0}>
          <table className="account-table">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">What</th>
                <th scope="col" className="account-money">
                  Amount
                </th>
              </tr>
            </thead>
            <tbody>
              {transactions.map((transaction) => (
                <tr key={transaction.id}>
                  <td>{formatDay(transaction.posted_at)}</td>
                  <td>{TRANSACTION_WORDS[transaction.type] ?? transaction.type}</td>
                  <td className="account-money">{formatPounds(Math.abs(transaction.amount_pence))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </article>
  );
}

function Applications({ applications }: { applications: HolderApplication[] }) {
  return (
    <section className="account-section" aria-labelledby="applications-heading">
      <h2 id="applications-heading">Applications</h2>
      {applications.length === 0 ? (
        <p className="account-empty">Your company has no applications with us.</p>
      ) : (
        <div className="account-table-region" role="region" aria-label="Applications" tabIndex={0}>
          <table className="account-table">
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">For</th>
                <th scope="col" className="account-money">
                  Amount
                </th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {applications.map((application) => (
                <tr key={application.id}>
                  <td>{formatDay(application.created_at)}</td>
                  <td>{PRODUCT_WORDS[application.product] ?? application.product}</td>
                  <td className="account-money">{formatPounds(application.amount_pence)}</td>
                  <td>{APPLICATION_STATUS_WORDS[application.status] ?? application.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
