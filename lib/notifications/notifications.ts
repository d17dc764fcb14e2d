// Notifications to a partner's team (an endpoint disabled after failing deliveries, spec 3.5, or for a URL that is not https). Always recorded
// in the database, in the transaction of the change they report; sent by email when SMTP_URL is set and the
// project has an owner email. `cli notifications list` shows them either way.
import nodemailer from "nodemailer";
import { clock } from "../clock";
import { db } from "../db";
import { config } from "../env";
import type { Prisma } from "../generated/prisma/client";
import { newId } from "../ids";
import { describeError, log } from "../log";

export interface NewNotification {
  projectId: string;
  kind: "webhook_endpoint_disabled";
  subject: string;
  body: string;
}

export async function recordNotification(transaction: Prisma.TransactionClient, notification: NewNotification): Promise<string> {
  const id = newId("notification");
  await transaction.notification.create({ data: { id, ...notification, createdAt: clock.now() } });
  return id;
}

/** What sends a message; SMTP through nodemailer in production, anything with the same shape in tests. */
export interface Mailer {
  send(message: { from: string; to: string; subject: string; text: string }): Promise<void>;
}

function smtpMailer(url: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return { send: async (message) => void (await transport.sendMail(message)) };
}

/** Sends unsent notifications by email; returns how many were sent. Without SMTP_URL there is nothing to do. */
export async function sendPendingNotifications(mailer: Mailer | null = config().SMTP_URL ? smtpMailer(config().SMTP_URL!) : null): Promise<number> {
  if (!mailer) return 0;
  const pending = await db().notification.findMany({
    where: { sentAt: null, sendError: null, project: { ownerEmail: { not: null } } },
    include: { project: { select: { ownerEmail: true } } },
    orderBy: { id: "asc" },
    take: 50,
  });
  let sent = 0;
  for (const notification of pending) {
    try {
      await mailer.send({ from: config().NOTIFICATIONS_FROM, to: notification.project.ownerEmail!, subject: notification.subject, text: notification.body });
      await db().notification.update({ where: { id: notification.id }, data: { sentAt: clock.now() } });
      sent += 1;
    } catch (error) {
      log.warn("notification email failed", { notification_id: notification.id, ...describeError(error) });
      await db().notification.update({ where: { id: notification.id }, data: { sendError: error instanceof Error ? error.message : String(error) } });
    }
  }
  return sent;
}

export async function listNotifications(options: { projectId?: string; limit: number }) {
  const rows = await db().notification.findMany({
    where: options.projectId ? { projectId: options.projectId } : {},
    orderBy: { id: "desc" },
    take: options.limit,
  });
  return rows.map((row) => ({
    id: row.id,
    project_id: row.projectId,
    kind: row.kind,
    subject: row.subject,
    body: row.body,
    created_at: row.createdAt.toISOString(),
    sent_at: row.sentAt?.toISOString() ?? null,
    send_error: row.sendError,
  }));
}
