// GET /dashboard/{project}/{environment}/applications/{id} — one application as the partner API reads it (no more
// personal data than the API returns), its decision (outcome, amount, APR, reasons) and the timeline of its events.
// A locked decision (spec 2.3) shows owners a Release decision button (…/release-decision); others see who can.
import type { Metadata } from "next";
import { cookies } from "next/headers";
import { retrieveApplication } from "@/lib/applications/queries";
import type { ApplicationObject } from "@/lib/applications/serialize";
import { readRendered } from "@/lib/dashboard/browse";
import { applicationPageQuerySchema, dashboardApplicationParamsSchema } from "@/lib/dashboard/browse-schemas";
import { retrieveDecision } from "@/lib/decisions/service";
import { listEventsAbout } from "@/lib/events/queries";
import { formatPounds } from "@/lib/money";
import { CSRF_COOKIE } from "@/lib/wire/csrf";
import { readPageValues } from "@/lib/wire/page-values";
import { APPLICATION_STATUS_WORDS, PRODUCT_WORDS } from "@/app/_components/loan-words";
import { DashboardShell } from "@/app/(dashboard)/dashboard/_components/shell";
import {formatBps, OUTCOME_WORDS, PURPOSE_WORDS } from "@/app/(dashboard)/dashboard/_components/browse-words";
import { when } from "@/app/(dashboard)/dashboard/_components/when";
import { Timeline } from "@/app/(dashboard)/dashboard/_components/browse-parts";
import { foundOrNotFound, pageParamsOrNotFound, readerOrNotFound } from "@/app/(dashboard)/dashboard/_components/section-page";
import "@/app/(account)/account/account.css";
import "@/app/(dashboard)/dashboard/dashboard.css";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Application", robots: { index: false, follow: false } };

type Props = { params: Promise<Record<string, string>>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ApplicationPage({ params, searchParams }: Props) {
  const address = pageParamsOrNotFound(dashboardApplicationParamsSchema.shape, await params);
  const environmentPath = `/dashboard/${address.project}/${address.environment}`;
  const path = `${environmentPath}/applications/${address.id}`;
  const { view, member } = await readerOrNotFound(address, path);
  const application = readRendered<ApplicationObject>(await foundOrNotFound(retrieveApplication({ tenant: member.tenant, id: address.id })));
  const [decision, events] = await Promise.all([
    application.decision ? retrieveDecision({ tenant: member.tenant, id: application.decision }) : null,
    listEventsAbout(member.tenant, { objectId: application.id, relatedField: "application_id" }),
  ]);
  const { released } = readPageValues(applicationPageQuerySchema.shape, await searchParams);
  const csrfToken = (await cookies()).get(CSRF_COOKIE)?.value ?? "";
  return (
    <DashboardShell view={view} section="applications">
      <p>
        <a className="account-link" href={`${environmentPath}/applications`}>
          All applications
        </a>
      </p>
      <h1>
        Application from {application.business.name ?? application.business.company_number}
      </h1>
      {released ? (
        <p className="dashboard-panel" role="status">
          The decision is released: it can change again.
        </p>
      ) : null}
      <dl className="account-summary">
        <div>
          <dt>Status</dt>
          <dd>{APPLICATION_STATUS_WORDS[application.status] ?? application.status}</dd>
        </div>
        <div>
          <dt>Company number</dt>
          <dd>{application.business.company_number}</dd>
        </div>
        <div>
          <dt>Amount asked for</dt>
          <dd>
            {formatPounds(application.amount_pence)} over {application.term_months} months
          </dd>
        </div>
        <div>
          <dt>Product</dt>
          <dd>{PRODUCT_WORDS[application.product] ?? application.product}</dd>
        </div>
        {application.purpose ? (
          <div>
            <dt>Purpose</dt>
            <dd>{PURPOSE_WORDS[application.purpose] ?? application.purpose}</dd>
          </div>
        ) : null}
        {application.reference ? (
          <div>
            <dt>Your reference</dt>
            <dd>{application.reference}</dd>
          </div>
        ) : null}
        <div>
          <dt>Created</dt>
          <dd>{when(application.created_at)}</dd>
        </div>
        {application.account_id ? (
          <div>
            <dt>Account</dt>
            <dd>
              <a href={`${environmentPath}/accounts/${application.account_id}`}>{application.account_id}</a>
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Application id</dt>
          <dd>{application.id}</dd>
        </div>
      </dl>
      <section aria-labelledby="decision-heading">
        <h2 id="decision-heading">Decision</h2>
        {decision ? (
          <>
            <dl className="account-summary">
              <div>
                <dt>Outcome</dt>
                <dd>{OUTCOME_WORDS[decision.outcome] ?? decision.outcome}</dd>
              </div>
              {decision.outcome === "approved" ? (
                <>
                  <div>
                    <dt>Amount approved</dt>
                    <dd>{formatPounds(decision.approved_amount_pence)}</dd>
                  </div>
                  <div>
                    <dt>APR</dt>
                    <dd>{formatBps(decision.apr_bps)}</dd>
                  </div>
                </>
              ) : null}
              <div>
                <dt>Decided</dt>
                <dd>{when(decision.decided_at)}</dd>
              </div>
              <div>
                <dt>Decision id</dt>
                <dd>{decision.id}</dd>
              </div>
            </dl>
            {decision.reasons.length > 0 ? (
              <>
                <h3>Reasons</h3>
                <ul>
                  {decision.reasons.map((reason) => (
                    <li key={reason.code}>
                      {reason.message} <code className="dashboard-muted">{reason.code}</code>
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
            {decision.locked ? (
              <div className="dashboard-panel dashboard-panel-warning">
                <h3>This decision is locked</h3>
                <p>It cannot change (a refresh answers 423 decision_locked) until an owner of this project releases it.</p>
                {view.allowed.release_decision ? (
                  <form method="post" action={`${path}/release-decision`} className="dashboard-form">
                    <input type="hidden" name="csrf_token" value={csrfToken} />
                    <button type="submit" className="account-button">
                      Release decision
                    </button>
                  </form>
                ) : (
                  <p>Ask an owner of this project to release it.</p>
                )}
              </div>
            ) : null}
          </>
        ) : (
          <p className="account-empty">No decision yet: one is made once the applicant has finished and submitted the application.</p>
        )}
      </section>
      <section aria-labelledby="timeline-heading">
        <h2 id="timeline-heading">Timeline</h2>
        <Timeline events={events} eventsPath={`${environmentPath}/events`} about="application" />
      </section>
    </DashboardShell>
  );
}
