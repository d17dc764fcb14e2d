// The Inngest client. Keys come from lib/env.ts; INNGEST_DEV points it at a local Inngest dev server.
import { Inngest } from "inngest";
import { config } from "@/lib/env";

export const APPLICATION_SUBMITTED_EVENT = "lending/application.submitted";

export function inngestConfigured(): boolean {
  const { INNGEST_EVENT_KEY, INNGEST_SIGNING_KEY, INNGEST_DEV } = config();
  return Boolean(INNGEST_EVENT_KEY || INNGEST_SIGNING_KEY || INNGEST_DEV);
}

export const inngest = new Inngest({
  id: "lending-platform",
  eventKey: process.env.INNGEST_EVENT_KEY || undefined,
  isDev: process.env.INNGEST_DEV ? true : undefined,
});
