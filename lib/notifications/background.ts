// The notifications' background operation (lib/background/catalogue.ts lists it): emails not yet sent.
import type { Pass } from "../background-operation";
import { sendPendingNotifications } from "./notifications";

export const sendNotifications: Pass = {
  kind: "pass",
  id: "send-notifications",
  cron: "*/5 * * * *",
  localIntervalMs: 60_000,
  claims: "each notification as its email starts: a 15-minute claim deadline (claimed_until), taken FOR UPDATE SKIP LOCKED, then marked sent (or failed), or given back by a process that stops; up to 50 a pass",
  step: "send",
  run: async () => ({ sent: await sendPendingNotifications() }),
};
