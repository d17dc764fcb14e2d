// The background functions under Inngest. Each is thin: every step calls an idempotent operation in lib/, so
// a retried or duplicated run changes nothing. Events start work at once; the crons are the safety net that
// sweeps whatever an event missed (an event lost after commit, a deploy mid-run).
import { decideSubmittedApplication, findApplicationsAwaitingDecision } from "@/lib/decisions/service";
import { expireApplication, findExpiredApplications } from "@/lib/applications/service";
import { APPLICATION_SUBMITTED_EVENT, inngestClient } from "@/lib/jobs/inngest-client";
import { runMaintenance } from "@/lib/jobs/maintenance";
import { sendPendingNotifications } from "@/lib/notifications/notifications";
import { attemptDelivery, claimDueDeliveries } from "@/lib/webhooks/deliver";

const SWEEP_BATCH = 100;
const inngest = inngestClient();

export const decideApplication = inngest.createFunction(
  { id: "decide-application", triggers: [{ event: APPLICATION_SUBMITTED_EVENT }] },
  async ({ event, step }) => {
    const applicationId = String((event.data as { application_id?: unknown }).application_id);
    return step.run("decide", () => decideSubmittedApplication(applicationId));
  },
);

export const sweepDecisioning = inngest.createFunction(
  { id: "sweep-decisioning", triggers: [{ cron: "* * * * *" }] },
  async ({ step }) => {
    const due = await step.run("find-awaiting-decision", () => findApplicationsAwaitingDecision(SWEEP_BATCH));
    let decided = 0;
    for (const applicationId of due) {
      if ((await step.run(`decide-${applicationId}`, () => decideSubmittedApplication(applicationId))) === "decided") decided += 1;
    }
    return { decided };
  },
);

export const expireApplications = inngest.createFunction(
  { id: "expire-applications", triggers: [{ cron: "*/5 * * * *" }] },
  async ({ step }) => {
    const due = await step.run("find-expired", () => findExpiredApplications(SWEEP_BATCH));
    let expired = 0;
    for (const applicationId of due) {
      if (await step.run(`expire-${applicationId}`, async () => (await expireApplication(applicationId)) !== null)) expired += 1;
    }
    return { expired };
  },
);

// Webhook deliveries and their retries: each due delivery is claimed in Postgres (so it is never sent twice at
// once) and attempted in its own step; the schedule lives in the delivery rows, not in Inngest.
export const deliverWebhooks = inngest.createFunction(
  { id: "deliver-webhooks", triggers: [{ cron: "* * * * *" }] },
  async ({ step }) => {
    const claimed = await step.run("claim-due-deliveries", () => claimDueDeliveries(SWEEP_BATCH));
    for (const deliveryId of claimed) await step.run(`attempt-${deliveryId}`, () => attemptDelivery(deliveryId, { claimed: true }));
    return { attempted: claimed.length };
  },
);

export const sendNotifications = inngest.createFunction(
  { id: "send-notifications", triggers: [{ cron: "*/5 * * * *" }] },
  async ({ step }) => step.run("send", () => sendPendingNotifications()),
);

export const maintenance = inngest.createFunction(
  { id: "maintenance", triggers: [{ cron: "0 * * * *" }] },
  async ({ step }) => step.run("prune", () => runMaintenance()),
);

export const functions = [decideApplication, sweepDecisioning, expireApplications, deliverWebhooks, sendNotifications, maintenance];
