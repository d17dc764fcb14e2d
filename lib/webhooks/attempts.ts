// Delivery attempts as the dashboard and `cli webhooks attempts` show them.
import { db } from "../db";

export async function listWebhookAttempts(endpointId: string, limit: number) {
  const attempts = await db().webhookAttempt.findMany({
    where: { endpointId },
    orderBy: { id: "desc" },
    take: limit,
    include: { delivery: { select: { replay: true, event: { select: { type: true } } } } },
  });
  return attempts.map((attempt) => ({
    id: attempt.id,
    delivery_id: attempt.deliveryId,
    event_id: attempt.eventId,
    event_type: attempt.delivery.event.type,
    replay: attempt.delivery.replay,
    number: attempt.number,
    attempted_at: attempt.attemptedAt.toISOString(),
    succeeded: attempt.succeeded,
    response_status: attempt.responseStatus,
    error: attempt.error,
    latency_ms: attempt.latencyMs,
    response_excerpt: attempt.responseExcerpt,
  }));
}
