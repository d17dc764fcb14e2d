// The webhook endpoint lifecycle (spec 3.5, with the moves it leaves open chosen here). An endpoint is `enabled`,
// or `disabled` for a reason: `manual` (its owner's), `failing` (72 hours of failed deliveries, lib/webhooks/deliver.ts)
// or `insecure_url` (not https, lib/webhooks/insecure-endpoints.ts). The owner may disable any endpoint (a failing or
// insecure one becomes a manual one) and enable a disabled one (an insecure one only with an https URL); asking for
// the state it is in changes nothing (lib/webhooks/service.ts). Rows move through lib/webhooks/endpoint-transition.ts.
import type { Lifecycle } from "../lifecycle";

export type WebhookEndpointState = "enabled" | "disabled_manual" | "disabled_failing" | "disabled_insecure_url";

const MOVES = {
  disable: { from: ["enabled", "disabled_failing", "disabled_insecure_url"], to: "disabled_manual", events: ["webhook_endpoint.disabled"] },
  disable_for_failing: { from: ["enabled"], to: "disabled_failing", events: ["webhook_endpoint.disabled"] },
  disable_for_insecure_url: { from: ["enabled"], to: "disabled_insecure_url", events: ["webhook_endpoint.disabled"] },
  enable: { from: ["disabled_manual", "disabled_failing", "disabled_insecure_url"], to: "enabled", events: ["webhook_endpoint.enabled"] },
} as const;
export type WebhookEndpointTrigger = keyof typeof MOVES;

export const WEBHOOK_ENDPOINT_LIFECYCLE: Lifecycle<WebhookEndpointState, WebhookEndpointTrigger> = {
  object: "webhook endpoint",
  moves: MOVES,
  said: { disable: "disabled", disable_for_failing: "disabled for failing", disable_for_insecure_url: "disabled for a URL that is not https", enable: "enabled" },
};
