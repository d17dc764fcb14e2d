// GET /dashboard/{project}/{environment}/events — the environment's events, newest first (docs/dashboard.md,
// "Events, applications and accounts"): filtered by type and by days, through `GET /partner/v1/events`'s own
// service and query schema; the filters are the address's query, so a filtered list is a link to share.
import type { Metadata } from "next";
import { EVENT_TYPES } from "@/lib/events/events";
import { listEvents } from "@/lib/events/service";
import { eventsPageQuerySchema } from "@/lib/dashboard/browse-schemas";
import { dashboardParamsSchema } from "@/lib/dashboard/schemas";
import { DashboardShell } from "@/app/(dashboard)/dashboard/_components/shell";
import {eventWords } from "@/app/(dashboard)/dashboard/_components/browse-words";
import { when } from "@/app/(dashboard)/dashboard/_components/when";
import { FilterForm, Pager } from "@/app/(dashboard)/dashboard/_components/browse-parts";
import { foundOrNotFound, pageParamsOrNotFound, queryOrNotFound, readerOrNotFound, withQuery } from "@/app/(dashboard)/dashboard/_components/section-page";
import "@/app/(account)/account/account.css";
import "@/app/(dashboard)/dashboard/dashboard.css";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Events", robots: { index: false, follow: false } };

type Props = { params: Promise<Record<string, string>>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function EventsPage({ params, searchParams }: Props) {
  const address = pageParamsOrNotFound(dashboardParamsSchema.shape, await params);
  const base = `/dashboard/${address.project}/${address.environment}/events`;
  const { view, member } = await readerOrNotFound(address, base);
  const { query, given } = queryOrNotFound(eventsPageQuerySchema, await searchParams);
  const events = await foundOrNotFound(listEvents({ tenant: member.tenant, query, url: base }));
  const filters = { type: given.type ?? "", from: given.from ?? "", to: given.to ?? "" };
  const filtered = Boolean(filters.type || filters.from || filters.to);
  const last = events.data.at(-1);
  return (
    <DashboardShell view={view} section="events">
      <h1>Events</h1>
      <p>What happened to your {address.environment === "sandbox" ? "sandbox" : "live"} objects in the last 30 days, newest first: what your webhook endpoints are sent.</p>
      <FilterForm action={base} label="Filter events" filtered={filtered}>
        <div>
          <label htmlFor="event-type">Type</label>
          <select id="event-type" name="type" defaultValue={filters.type}>
            <option value="">All types</option>
            {EVENT_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="event-from">From</label>
          <input id="event-from" name="from" type="date" defaultValue={filters.from} aria-describedby="event-days-hint" />
        </div>
        <div>
          <label htmlFor="event-to">To</label>
          <input id="event-to" name="to" type="date" defaultValue={filters.to} aria-describedby="event-days-hint" />
        </div>
        <p id="event-days-hint" className="dashboard-muted dashboard-hint">
          Both days included; days run from midnight to midnight UTC.
        </p>
      </FilterForm>
      {events.data.length === 0 ? (
        <p className="account-empty">{filtered || query.starting_after ? "No events match these filters." : "No events yet."}</p>
      ) : (
        <div className="account-table-region" role="region" aria-labelledby="events-caption" tabIndex={0}>
          <table className="account-table dashboard-stacked">
            <caption id="events-caption">{filtered ? "Events matching your filters, newest first" : "Events, newest first"}</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">What</th>
                <th scope="col">Event</th>
              </tr>
            </thead>
            <tbody>
              {events.data.map((event) => (
                <tr key={event.id}>
                  <td data-label="When">{when(event.created_at)}</td>
                  <td data-label="What">
                    {eventWords(event.type)} <code className="dashboard-muted">{event.type}</code>
                  </td>
                  <td data-label="Event">
                    <a href={`${base}/${event.id}`}>{event.id}</a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        words="events"
        olderHref={events.has_more && last ? withQuery(base, { ...filters, starting_after: last.id }) : null}
        newestHref={query.starting_after ? withQuery(base, filters) : null}
      />
    </DashboardShell>
  );
}
