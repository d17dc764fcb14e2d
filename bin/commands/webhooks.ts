import { z } from "zod";
import { listWebhookAttempts } from "../../lib/webhooks/attempts";
import { listNotifications } from "../../lib/notifications/notifications";
import { parseFlags, type Command } from "../cli-kit";

const limitFlags = z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) });

export const webhooksAttempts: Command = {
  words: ["webhooks", "attempts"],
  synopsis: "whe_... [--limit N] [--json]",
  description: "A webhook endpoint's delivery attempts, newest first: time, event, status or error, latency.",
  options: { limit: { type: "string", value: "N", description: "How many attempts (1-500, default 50)." } },
  positionals: 1,
  async run({ positionals, values, database, print }) {
    const { limit } = parseFlags(limitFlags, values);
    await database();
    const attempts = await listWebhookAttempts(positionals[0]!, limit);
    const lines = attempts.map(
      (attempt) =>
        `${attempt.attempted_at}  ${attempt.event_type.padEnd(24)} ${attempt.event_id}  #${attempt.number}  ${attempt.succeeded ? "ok " : "err"} ${attempt.response_status ?? attempt.error}  ${attempt.latency_ms} ms`,
    );
    print(lines.length ? lines.join("\n") : "No delivery attempts.", attempts);
  },
};

const notificationFlags = limitFlags.extend({ project: z.string().startsWith("proj_").optional() });

export const notificationsList: Command = {
  words: ["notifications", "list"],
  synopsis: "[--project proj_...] [--limit N] [--json]",
  description: "Notifications to partner teams (endpoints disabled for failing, team invitations), newest first, and whether each was emailed.",
  options: {
    project: { type: "string", value: "proj_...", description: "Only this project's notifications." },
    limit: { type: "string", value: "N", description: "How many notifications (1-500, default 50)." },
  },
  async run({ values, database, print }) {
    const flags = parseFlags(notificationFlags, values);
    await database();
    const notifications = await listNotifications({ projectId: flags.project, limit: flags.limit });
    const lines = notifications.map(
      (notification) =>
        `${notification.created_at}  ${notification.project_id}  ${notification.subject}${notification.recipient_email ? `  to ${notification.recipient_email}` : ""}  (${notification.sent_at ? `emailed ${notification.sent_at}` : "not emailed"})`,
    );
    print(lines.length ? lines.join("\n") : "No notifications.", notifications);
  },
};
