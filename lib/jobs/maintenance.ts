// Periodic housekeeping, run hourly by the background driver: deletes of rows past their retention
// (Idempotency-Keys 24 hours, events 30 days, enquiries 90 days, support sessions 30 days after their last
// message, the partner MCP server's audit rows 395 days, Companies House answers once stale) and erasure of applicants' personal data past its retention
// (lib/applications/personal-data.ts). All are idempotent, so several processes running them is harmless.
// It also disables webhook endpoints whose URL is not https, each under its row lock, so that too is done once.
import { eraseDuePersonalData } from "../applications/personal-data";
import { pruneExpiredEnquiries } from "../enquiries/service";
import { pruneExpiredEvents } from "../events/service";
import { pruneExpiredIdempotencyKeys } from "../idempotency/idempotency";
import { pruneExpiredToolCalls } from "../mcp/audit";
import { pruneExpiredLookups } from "../registry/lookup-cache";
import { pruneExpiredSupportSessions } from "../support/chat";
import { disableInsecureWebhookEndpoints } from "../webhooks/insecure-endpoints";

type MaintenanceReport = {
  idempotencyKeysPruned: number;
  eventsPruned: number;
  enquiriesPruned: number;
  supportSessionsPruned: number;
  mcpToolCallsPruned: number;
  registryLookupsPruned: number;
  insecureWebhookEndpointsDisabled: number;
  personalDataErased: number;
};

export async function runMaintenance(): Promise<MaintenanceReport> {
  return {
    idempotencyKeysPruned: await pruneExpiredIdempotencyKeys(),
    eventsPruned: await pruneExpiredEvents(),
    enquiriesPruned: await pruneExpiredEnquiries(),
    supportSessionsPruned: await pruneExpiredSupportSessions(),
    mcpToolCallsPruned: await pruneExpiredToolCalls(),
    registryLookupsPruned: await pruneExpiredLookups(),
    insecureWebhookEndpointsDisabled: await disableInsecureWebhookEndpoints(),
    personalDataErased: await eraseDuePersonalData(),
  };
}
