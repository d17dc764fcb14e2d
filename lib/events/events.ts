// The event store's write side (spec 6). An event is written once, in the transaction of the change that
// caused it, with `data.object` frozen as the resource was at that moment; the events API and webhook delivery
// read these rows and never rebuild an object after the fact.
import { clock } from "../clock";
import type { Prisma } from "../generated/prisma/client";
import { newId } from "../ids";
import { scheduleDeliveries } from "../webhooks/deliveries";
import type { TenantEnvironment } from "../tenant";

/** The date version every event is rendered at until a project or endpoint pins another (spec 9). */
export const CURRENT_API_VERSION = "2026-11-01";

/** Event types of spec 6.2, including those "named in other descriptions". */
export const EVENT_TYPES = [
  "application.created",
  "application.submitted",
  "application.expired",
  "application.withdrawn",
  "application.funded",
  "decision.completed",
  "decision.referred",
  "offer.accepted",
  "identity.verified",
  "identity.review_required",
  // Ours: a check that failed (spec 6.2 names only the passed and referred ones).
  "identity.failed",
  "account.activated",
  "account.updated",
  "account.closed",
  "payment.created",
  "payment.settled",
  "payment.failed",
  "payment.paid",
  "payout.paid",
  "mandate.revoked",
  "consent.granted",
  "consent.withdrawn",
  "enquiry.created",
  "webhook_endpoint.disabled",
  "webhook_endpoint.enabled",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export interface NewEvent {
  /** The partner the event belongs to; null for the platform's own events, which are never delivered. */
  projectId: string | null;
  environment: TenantEnvironment;
  type: EventType;
  /** The resource as it is now: it is stored as `data.object`. */
  object: object;
  createdAt: Date;
}

/** An event as stored: what `recordEvents` writes, and the application create's batched transaction too. */
export interface EventRow {
  id: string;
  projectId: string | null;
  environment: TenantEnvironment;
  type: EventType;
  apiVersion: string;
  object: object;
  createdAt: Date;
  /** Real time, whatever a sandbox's test clock says: the retention runs on it (lib/events/service.ts). */
  recordedAt: Date;
}

export function eventRows(events: readonly NewEvent[]): EventRow[] {
  const recordedAt = clock.now();
  return events.map((event) => ({
    id: newId("event"),
    projectId: event.projectId,
    environment: event.environment,
    type: event.type,
    apiVersion: CURRENT_API_VERSION,
    object: event.object,
    createdAt: event.createdAt,
    recordedAt,
  }));
}

/**
 * Writes events, and a pending delivery for each enabled webhook endpoint subscribed to them, in `transaction`:
 * pass the transaction that makes the change they report, so the change, its events and their deliveries
 * commit together or not at all. Returns the event ids in order.
 */
export async function recordEvents(transaction: Prisma.TransactionClient, events: readonly NewEvent[]): Promise<string[]> {
  const rows = eventRows(events);
  if (rows.length === 0) return [];
  await transaction.event.createMany({ data: rows });
  await scheduleDeliveries(transaction, rows);
  return rows.map((row) => row.id);
}

export interface StoredEvent {
  id: string;
  type: string;
  apiVersion: string;
  environment: TenantEnvironment;
  object: unknown;
  createdAt: Date;
}

/** The event envelope (spec 6.1). `apiVersion` is an endpoint's pinned version, when it has one. */
export function serializeEvent(event: StoredEvent, apiVersion: string = event.apiVersion) {
  return {
    id: event.id,
    object: "event" as const,
    type: event.type,
    api_version: apiVersion,
    created_at: event.createdAt.toISOString(),
    livemode: event.environment === "live",
    data: { object: event.object },
  };
}

/** The exact bytes a delivery carries; a replay renders the same event to the same bytes. */
export function renderEventBody(event: StoredEvent, apiVersion?: string | null): string {
  return JSON.stringify(serializeEvent(event, apiVersion ?? event.apiVersion));
}

