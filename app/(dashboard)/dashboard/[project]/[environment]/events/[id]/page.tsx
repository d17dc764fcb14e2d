// GET /dashboard/{project}/{environment}/events/{id} — one event as `GET /partner/v1/events/{id}` answers it (its
// JSON, pretty-printed) and its webhook deliveries: to which endpoint, how many attempts, and where each stands.
import type { Metadata } from "next";
import { retrieveEvent } from "@/lib/events/service";
import { dashboardEventParamsSchema } from "@/lib/dashboard/browse-schemas";
import { listEventDeliveries } from "@/lib/webhooks/queries";
import { DashboardShell } from "@/app/(dashboard)/dashboard/_components/shell";
import {DELIVERY_STATUS_WORDS, eventWords } from "@/app/(dashboard)/dashboard/_components/browse-words";
import { when } from "@/app/(dashboard)/dashboard/_components/when";
import { foundOrNotFound, pageParamsOrNotFound, readerOrNotFound } from "@/app/(dashboard)/dashboard/_components/section-page";
import "@/app/(account)/account/account.css";
import "@/app/(dashboard)/dashboard/dashboard.css";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Event", robots: { index: false, follow: false } };

export default async function EventPage({ params }: { params: Promise<Record<string, string>> }) {
  const address = pageParamsOrNotFound(dashboardEventParamsSchema.shape, await params);
  const eventsPath = `/dashboard/${address.project}/${address.environment}/events`;
  const { view, member } = await readerOrNotFound(address, `${eventsPath}/${address.id}`);
  const event = await foundOrNotFound(retrieveEvent({ tenant: member.tenant, id: address.id }));
  const deliveries = await listEventDeliveries(member.tenant, event.id);
  return (
    <DashboardShell view={view} section="events">
      <p>
        <a className="account-link" href={eventsPath}>
          All events
        </a>
      </p>
      <h1>{eventWords(event.type)}</h1>
      <dl className="account-summary">
        <div>
          <dt>Type</dt>
          <dd>
            <code>{event.type}</code>
          </dd>
        </div>
        <div>
          <dt>When</dt>
          <dd>{when(event.created_at)}</dd>
        </div>
        <div>
          <dt>Event id</dt>
          <dd>{event.id}</dd>
        </div>
      </dl>
      <h2 id="deliveries-heading">Deliveries</h2>
      {deliveries.length === 0 ? (
        <p className="account-empty">No webhook endpoint was subscribed to this event, so it was not sent anywhere.</p>
      ) : (
        <div className="account-table-region" role="region" aria-labelledby="deliveries-heading" tabIndex={0}>
          <table className="account-table dashboard-stacked">
            <thead>
              <tr>
                <th scope="col">Endpoint</th>
                <th scope="col">Attempts</th>
                <th scope="col">Status</th>
                <th scope="col">Last attempt</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((delivery) => (
                <tr key={delivery.id}>
                  <td>
                    <span className="dashboard-url">{delivery.endpointUrl}</span>
                    <br />
                    <span className="dashboard-muted">
                      {delivery.endpointId}
                      {delivery.replay ? ", a replay" : ""}
                    </span>
                  </td>
                  <td data-label="Attempts">{delivery.attempts}</td>
                  <td data-label="Status">
                    {DELIVERY_STATUS_WORDS[delivery.status] ?? delivery.status}
                    {delivery.status === "pending" && delivery.nextAttemptAt ? <> (next try {when(delivery.nextAttemptAt)})</> : null}
                  </td>
                  <td data-label="Last attempt">
                    {delivery.lastAttempt
                      ? `${when(delivery.lastAttempt.at)}: ${delivery.lastAttempt.responseStatus !== null ? `HTTP ${delivery.lastAttempt.responseStatus}` : (delivery.lastAttempt.error ?? "no answer")}`
                      : "None yet"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2 id="event-json-heading">The event as the API sends it</h2>
      <div className="dashboard-json-region" role="region" aria-labelledby="event-json-heading" tabIndex={0}>
        <pre className="dashboard-json" data-testid="event-json">
          {JSON.stringify(event, null, 2)}
        </pre>
      </div>
    </DashboardShell>
  );
}
