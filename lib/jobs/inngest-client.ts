// The Inngest client, configured from lib/env.ts: the event key sends events, the signing key authenticates
// Inngest's calls to /api/inngest, and INNGEST_DEV points both at a local Inngest dev server.
import { Inngest } from "inngest";
import { config } from "../env";

export const APPLICATION_SUBMITTED_EVENT = "lending/application.submitted";

/** Whether Inngest runs the background work (else the local driver does). */
export function inngestConfigured(): boolean {
  const { INNGEST_EVENT_KEY, INNGEST_SIGNING_KEY, INNGEST_DEV } = config();
  return Boolean(INNGEST_EVENT_KEY || INNGEST_SIGNING_KEY || INNGEST_DEV);
}

function createInngestClient() {
  const { INNGEST_EVENT_KEY, INNGEST_SIGNING_KEY, INNGEST_DEV } = config();
  return new Inngest({
    id: "lending-platform",
    eventKey: INNGEST_EVENT_KEY,
    signingKey: INNGEST_SIGNING_KEY,
    isDev: INNGEST_DEV ? true : undefined,
  });
}

let client: ReturnType<typeof createInngestClient> | undefined;

/** The process's Inngest client, created on first use (configuration is read then, not at import). */
export function inngestClient(): ReturnType<typeof createInngestClient> {
  client ??= createInngestClient();
  return client;
}
