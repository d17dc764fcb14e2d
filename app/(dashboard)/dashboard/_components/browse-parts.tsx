// Pieces the read sections' pages share: an object's timeline of events, the link to a list's older page, and the
// filter form's frame.
import type { ReactNode } from "react";
import {eventWords } from "./browse-words";
import { when } from "./when";

export interface TimelineEvent {
  id: string;
  type: string;
  createdAt: Date;
}

/** What happened to an object, oldest first: when, in words, and a link to each event's page. */
export function Timeline({ events, eventsPath, about }: { events: readonly TimelineEvent[]; eventsPath: string; about: string }) {
  if (events.length === 0) return <p className="account-empty">No events about this {about} in the last 30 days.</p>;
  return (
    <ol className="dashboard-timeline">
      {events.map((event) => (
        <li key={event.id}>
          <time dateTime={event.createdAt.toISOString()}>{when(event.createdAt)}</time>{" "}
          <a href={`${eventsPath}/${event.id}`}>{eventWords(event.type)}</a> <code className="dashboard-muted">{event.type}</code>
        </li>
      ))}
    </ol>
  );
}

/** The next page of a newest-first list, when there is one; and the way back to its first page. */
export function Pager({ olderHref, newestHref, words }: { olderHref: string | null; newestHref: string | null; words: string }) {
  if (!olderHref && !newestHref) return null;
  return (
    <nav className="dashboard-pager" aria-label={`Pages of ${words}`}>
      {newestHref ? <a href={newestHref}>Newest {words}</a> : null}
      {olderHref ? <a href={olderHref}>Older {words}</a> : null}
    </nav>
  );
}

/** A GET form whose values become the list's address (shareable), with a way to clear them. */
export function FilterForm({ action, label, filtered, children }: { action: string; label: string; filtered: boolean; children: ReactNode }) {
  return (
    <form method="get" action={action} className="dashboard-form dashboard-filters" role="search" aria-label={label}>
      {children}
      <button type="submit" className="account-button">
        Filter
      </button>
      {filtered ? (
        <a className="account-link" href={action}>
          Clear filters
        </a>
      ) : null}
    </form>
  );
}
