// GET /dashboard/{project}/{environment}/applications — the environment's applications, newest first, filtered by
// status (spec 3.1's lifecycle), through `GET /partner/v1/applications`'s own service and query schema.
import { when } from "@/app/(dashboard)/dashboard/_components/when";
import type { Metadata } from "next";
import { listApplications } from "@/lib/applications/queries";
import { APPLICATION_STATUSES } from "@/lib/applications/schemas";
import type { ApplicationObject } from "@/lib/applications/serialize";
import { readRendered } from "@/lib/dashboard/browse";
import { applicationsPageQuerySchema } from "@/lib/dashboard/browse-schemas";
import { dashboardParamsSchema } from "@/lib/dashboard/schemas";
import { formatPounds } from "@/lib/money";
import type { ListEnvelope } from "@/lib/wire/pagination";
import { APPLICATION_STATUS_WORDS, PRODUCT_WORDS } from "@/app/_components/loan-words";
import { DashboardShell } from "@/app/(dashboard)/dashboard/_components/shell";

import { FilterForm, Pager } from "@/app/(dashboard)/dashboard/_components/browse-parts";
import { foundOrNotFound, pageParamsOrNotFound, queryOrNotFound, readerOrNotFound, withQuery } from "@/app/(dashboard)/dashboard/_components/section-page";
import "@/app/(account)/account/account.css";
import "@/app/(dashboard)/dashboard/dashboard.css";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Applications", robots: { index: false, follow: false } };

type Props = { params: Promise<Record<string, string>>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ApplicationsPage({ params, searchParams }: Props) {
  const address = pageParamsOrNotFound(dashboardParamsSchema.shape, await params);
  const base = `/dashboard/${address.project}/${address.environment}/applications`;
  const { view, member } = await readerOrNotFound(address, base);
  const { query, given } = queryOrNotFound(applicationsPageQuerySchema, await searchParams);
  const applications = readRendered<ListEnvelope<ApplicationObject>>(await foundOrNotFound(listApplications({ tenant: member.tenant, query, url: base })));
  const status = given.status ?? "";
  const last = applications.data.at(-1);
  return (
    <DashboardShell view={view} section="applications">
      <h1>Applications</h1>
      <p>Your {address.environment === "sandbox" ? "sandbox" : "live"} applications, newest first.</p>
      <FilterForm action={base} label="Filter applications" filtered={Boolean(status)}>
        <div>
          <label htmlFor="application-status">Status</label>
          <select id="application-status" name="status" defaultValue={status}>
            <option value="">Any status</option>
            {APPLICATION_STATUSES.map((value) => (
              <option key={value} value={value}>
                {APPLICATION_STATUS_WORDS[value]}
              </option>
            ))}
          </select>
        </div>
      </FilterForm>
      {applications.data.length === 0 ? (
        <p className="account-empty">{status ? "No applications have this status." : "No applications yet."}</p>
      ) : (
        <div className="account-table-region" role="region" aria-labelledby="applications-caption" tabIndex={0}>
          <table className="account-table dashboard-stacked">
            <caption id="applications-caption">{status ? `${APPLICATION_STATUS_WORDS[status]} applications, newest first` : "Applications, newest first"}</caption>
            <thead>
              <tr>
                <th scope="col">Company</th>
                <th scope="col">Created</th>
                <th scope="col" className="account-money">
                  Amount
                </th>
                <th scope="col">Product</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {applications.data.map((application) => (
                <tr key={application.id}>
                  <td>
                    <a href={`${base}/${application.id}`}>{application.business.name ?? application.business.company_number}</a>
                    <br />
                    <span className="dashboard-muted">
                      {application.business.company_number}, {application.id}
                    </span>
                  </td>
                  <td data-label="Created">{when(application.created_at)}</td>
                  <td data-label="Amount" className="account-money">
                    {formatPounds(application.amount_pence)}
                  </td>
                  <td data-label="Product">{PRODUCT_WORDS[application.product] ?? application.product}</td>
                  <td data-label="Status">{APPLICATION_STATUS_WORDS[application.status] ?? application.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        words="applications"
        olderHref={applications.has_more && last ? withQuery(base, { status, starting_after: last.id }) : null}
        newestHref={query.starting_after ? withQuery(base, { status }) : null}
      />
    </DashboardShell>
  );
}
