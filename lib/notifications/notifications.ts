// Notifications to a partner's team (an endpoint disabled after failing deliveries, spec 3.5, or for a URL that
// is not https) and to one person (an invitation to a team). Always recorded in the database, in the transaction
// of the change they report; sent by email when SMTP_URL is set, to the person's address or else the project's
// owner email. `cli notifications list` shows them either way. Addresses never reach the log.
import nodemailer from "nodemailer";
import { clock } from "../clock";
import { db } from "../db";
import { config } from "../env";
import type { Prisma } from "../generated/prisma/client";
import { newId } from "../ids";
import { log } from "../log";

export interface NewNotification {
  projectId: string;
  kind: "webhook_endpoint_disabled" | "team_invitation";
  subject: string;
  body: string;
  /** For one person: their address, instead of the project's owner email. */
  recipientEmail?: string;
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

/**
 * How long a pass holds a notification it is sending, so that no other pass sends it meanwhile: longer than one
 * send can take under nodemailer's own timeouts (2 minutes to connect, 10 minutes of silence on the socket). A
 * claim left by a pass that died lapses after it, and the notification is sent then.
 */
export const NOTIFICATION_CLAIM_MS = 15 * 60_000;
/** Notifications one pass sends at most. */
const PASS_BATCH = 50;
/** The notifications this process has claimed and not yet marked sent or failed: what it gives back as it stops. */
const heldClaims = new Set<string>();

/**
 * Sends unsent notifications by email, each claimed first (one at a time, so a claim covers one send); returns
 * how many were sent. Two passes at once send different notifications. Without SMTP_URL there is nothing to do.
 */
export async function sendPendingNotifications(mailer: Mailer | null = config().SMTP_URL ? smtpMailer(config().SMTP_URL!) : null): Promise<number> {
  if (!mailer) return 0;
  let sent = 0;
  for (let claimed = 0; claimed < PASS_BATCH; claimed += 1) {
    const notification = await claimNextNotification();
    if (!notification) break;
    heldClaims.add(notification.id);
    try {
      await mailer.send({ from: config().NOTIFICATIONS_FROM, to: notification.owner_email, subject: notification.subject, text: notification.body });
      await db().notification.update({ where: { id: notification.id }, data: { sentAt: clock.now(), claimedUntil: null } });
      sent += 1;
    } catch (error) {
      log.warn("notification email failed", { notification_id: notification.id, ...describeMailError(error) });
      await db().notification.update({ where: { id: notification.id }, data: { sendError: error instanceof Error ? error.message : String(error), claimedUntil: null } });
    } finally {
      heldClaims.delete(notification.id);
    }
  }
  return sent;
}

/**
 * Gives back the claims of the emails this process is sending, for a process that is stopping: another pass may
 * send them at once rather than when the claims lapse (the recipient may then get one twice, should this process's
 * send complete as it exits). Answers how many it gave back.
 */
export async function releaseHeldNotificationClaims(): Promise<number> {
  if (heldClaims.size === 0) return 0;
  const ids = [...heldClaims];
  heldClaims.clear();
  return db().$executeRaw`UPDATE notifications SET claimed_until = NULL WHERE id = ANY(${ids}) AND sent_at IS NULL AND send_error IS NULL`;
}

/**
 * What a failed send can tell the log: the error's kind and the mail server's reply code, never its words, which
 * name the recipient ("550 <owner@…>: Recipient address rejected").
 */
function describeMailError(error: unknown): Record<string, unknown> {
  const { name, code, responseCode } = (typeof error === "object" && error !== null ? error : {}) as { name?: unknown; code?: unknown; responseCode?: unknown };
  return {
    error_name: typeof name === "string" ? name : typeof error,
    ...(typeof code === "string" ? { error_code: code } : {}),
    ...(typeof responseCode === "number" ? { smtp_response_code: responseCode } : {}),
  };
}

/**
 * Claims the oldest unsent notification with an address (its own or its project owner's) that no other pass holds: a row
 * another pass is claiming this instant is skipped (SKIP LOCKED), one it has claimed is left until its claim lapses.
 */
async function claimNextNotification(): Promise<{ id: string; subject: string; body: string; owner_email: string } | undefined> {
  const now = clock.now();
  const [notification] = await db().$queryRaw<{ id: string; subject: string; body: string; owner_email: string }[]>`
    UPDATE notifications SET claimed_until = ${new Date(now.getTime() + NOTIFICATION_CLAIM_MS)}
    FROM projects
    WHERE projects.id = notifications.project_id AND notifications.id = (
      SELECT candidate.id FROM notifications candidate JOIN projects owner ON owner.id = candidate.project_id
      WHERE candidate.sent_at IS NULL AND candidate.send_error IS NULL AND COALESCE(candidate.recipient_email, owner.owner_email) IS NOT NULL
        AND (candidate.claimed_until IS NULL OR candidate.claimed_until <= ${now})
      ORDER BY candidate.id
      LIMIT 1
      FOR UPDATE OF candidate SKIP LOCKED)
    RETURNING notifications.id, notifications.subject, notifications.body, COALESCE(notifications.recipient_email, projects.owner_email) AS owner_email`;
  return notification;
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
    ...(row.recipientEmail ? { recipient_email: row.recipientEmail } : {}),
    created_at: row.createdAt.toISOString(),
    sent_at: row.sentAt?.toISOString() ?? null,
    send_error: row.sendError,
  }));
}
