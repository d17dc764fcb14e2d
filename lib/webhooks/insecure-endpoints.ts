// Endpoints whose URL is not https. Registration has always refused them in live; sandbox endpoints registered
// over http before https was required there too (spec 4.6) are still rows, and nothing may be delivered to them.
// The hourly maintenance disables each enabled one through the lifecycle, and the delivery path refuses one it
// meets first (lib/webhooks/deliver.ts): either way the endpoint is disabled once, with its event, and its owner told.
import { clock } from "../clock";
import { db } from "../db";
import type { Prisma, WebhookEndpoint } from "../generated/prisma/client";
import { recordNotification } from "../notifications/notifications";
import { abandonPendingDeliveries } from "./delivery-transition";
import { endpointState, lockWebhookEndpoint, transitionWebhookEndpoint } from "./endpoint-transition";
import { isHttpsUrl } from "./outbound";

/**
 * Disables a locked, enabled endpoint whose URL is not https: the lifecycle's move with its event, its pending
 * deliveries stopped, and a notification to its owner.
 */
export async function disableInsecureEndpoint(transaction: Prisma.TransactionClient, endpoint: WebhookEndpoint, now: Date): Promise<void> {
  await transitionWebhookEndpoint(transaction, endpoint, "disable_for_insecure_url", { now });
  await abandonPendingDeliveries(transaction, endpoint.id, now);
  await recordNotification(transaction, {
    projectId: endpoint.projectId,
    kind: "webhook_endpoint_disabled",
    subject: `Webhook endpoint ${endpoint.id} was disabled: its URL is not https`,
    body: [
      `The webhook endpoint ${endpoint.id} delivers to ${endpoint.url}, which is not an https URL. Webhooks are delivered over`,
      "https only, so the endpoint has been disabled and its pending deliveries stopped.",
      `Give it an https URL and enable it in one request: POST /partner/v1/webhook_endpoints/${endpoint.id} with a new "url"`,
      'and "disabled": false. Then replay the events you missed with POST /partner/v1/events/{id}/replay.',
    ].join("\n"),
  });
}

/**
 * Disables every enabled endpoint whose URL is not https (the hourly maintenance); returns how many. Each is
 * re-read under its row lock, so a run alongside another, or alongside a delivery that found it first, moves it once.
 */
export async function disableInsecureWebhookEndpoints(): Promise<number> {
  // A cheap filter on the text; whether the URL really is https is decided on the parsed URL below.
  const candidates = await db().webhookEndpoint.findMany({
    where: { status: "enabled", NOT: { url: { startsWith: "https://", mode: "insensitive" } } },
    select: { id: true },
    orderBy: { id: "asc" },
  });
  let disabled = 0;
  for (const { id } of candidates) {
    const moved = await db().$transaction(async (transaction) => {
      const endpoint = await lockWebhookEndpoint(transaction, id);
      if (!endpoint || endpointState(endpoint) !== "enabled" || isHttpsUrl(endpoint.url)) return false;
      await disableInsecureEndpoint(transaction, endpoint, clock.now());
      return true;
    });
    if (moved) disabled += 1;
  }
  return disabled;
}
