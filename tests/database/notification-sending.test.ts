// Sending notification emails (lib/notifications/notifications.ts, the `send-notifications` pass of
// lib/background/catalogue.ts): each notification is claimed before its email goes out, so two passes at once (two
// processes, or an Inngest run overlapping the local driver) never send one twice, and a claim left by a pass that
// died lapses, so its notification is sent later rather than never. The mailer is a stub behind the Mailer
// interface; sending is slow where the test says so, with no real waiting.
//
// Runs in a database of its own: the pass sends every project's pending notifications, so here its counts are exact
// and the notifications of files running alongside are never sent by it.
import { describe, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { config } from "@/lib/env";
import { NOTIFICATION_CLAIM_MS, recordNotification, releaseHeldNotificationClaims, sendPendingNotifications, type Mailer } from "@/lib/notifications/notifications";
import { eventually } from "../helpers/eventually";
import { captureLogs } from "../helpers/logs";
import { createTestProject } from "../helpers/partner";


const T0 = new Date("2031-05-06T07:08:09.000Z");
const OWNER_EMAIL = "team@partner.example.co.uk";

type Message = Parameters<Mailer["send"]>[0];

/**
 * A mailer whose sends wait until `together` of them are in flight at once, then all finish (and later ones
 * finish at once): slow enough that two passes are both sending before either has marked anything sent.
 */
function slowMailer(together: number): { mailer: Mailer; sent: Message[] } {
  const sent: Message[] = [];
  const waiting: Array<() => void> = [];
  let open = false;
  const mailer: Mailer = {
    send: async (message) => {
      sent.push(message);
      if (open) return;
      if (waiting.length + 1 >= together) {
        open = true;
        for (const finish of waiting.splice(0)) finish();
        return;
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
    },
  };
  return { mailer, sent };
}

async function notificationsFor(count: number): Promise<{ id: string; subject: string }[]> {
  const project = await createTestProject({ ownerEmail: OWNER_EMAIL });
  const created: { id: string; subject: string }[] = [];
  for (let index = 1; index <= count; index += 1) {
    const subject = `Notification ${index} of ${project.project_id}`;
    const id = await db().$transaction((transaction) =>
      recordNotification(transaction, { projectId: project.project_id, kind: "webhook_endpoint_disabled", subject, body: `Body ${index}` }),
    );
    created.push({ id, subject });
  }
  return created;
}

const expectedMessage = (subject: string, index: number): Message => ({ from: config().NOTIFICATIONS_FROM, to: OWNER_EMAIL, subject, text: `Body ${index}` });
const bySubject = (left: Message, right: Message) => left.subject.localeCompare(right.subject);

describe("the send-notifications pass", () => {
  it("sends each notification exactly once when two passes run at once with a slow mail server", async () => {
    freezeClock(T0);
    const notifications = await notificationsFor(4);
    const { mailer, sent } = slowMailer(2);

    const counts = await Promise.all([sendPendingNotifications(mailer), sendPendingNotifications(mailer)]);

    expect([...sent].sort(bySubject)).toEqual(notifications.map(({ subject }, index) => expectedMessage(subject, index + 1)));
    expect(counts[0]! + counts[1]!).toBe(4);
    const rows = await db().notification.findMany({ where: { id: { in: notifications.map(({ id }) => id) } }, select: { sentAt: true, sendError: true } });
    expect(rows).toEqual(notifications.map(() => ({ sentAt: T0, sendError: null })));
    expect(await sendPendingNotifications(mailer)).toBe(0);
    expect(sent).toHaveLength(4);
  });

  it("leaves a notification another pass has claimed to it, and sends it once that claim has lapsed", async () => {
    const time = freezeClock(T0);
    const [notification] = await notificationsFor(1);
    // A pass that claimed it and died before its email went out.
    await db().notification.update({ where: { id: notification!.id }, data: { claimedUntil: new Date(T0.getTime() + NOTIFICATION_CLAIM_MS) } });
    const { mailer, sent } = slowMailer(1);

    expect(await sendPendingNotifications(mailer)).toBe(0);
    time.advance(NOTIFICATION_CLAIM_MS - 1);
    expect(await sendPendingNotifications(mailer)).toBe(0);
    expect(sent).toEqual([]);

    time.advance(1);
    expect(await sendPendingNotifications(mailer)).toBe(1);
    expect(sent).toEqual([expectedMessage(notification!.subject, 1)]);
    expect(await db().notification.findUniqueOrThrow({ where: { id: notification!.id } })).toMatchObject({ sentAt: new Date(T0.getTime() + NOTIFICATION_CLAIM_MS), sendError: null });
  });

  it("gives back the claim of an email still being sent when its process stops, so another pass sends it at once", async () => {
    freezeClock(T0);
    const [notification] = await notificationsFor(1);
    // The stopping process's send never finishes (it is cut off as the process exits).
    const hanging: Mailer = { send: () => new Promise<void>(() => undefined) };
    void sendPendingNotifications(hanging);
    await eventually(async () => (await db().notification.findUniqueOrThrow({ where: { id: notification!.id } })).claimedUntil, (until) => until !== null);
    const { mailer, sent } = slowMailer(1);
    expect(await sendPendingNotifications(mailer)).toBe(0);

    expect(await releaseHeldNotificationClaims()).toBe(1);
    expect(await sendPendingNotifications(mailer)).toBe(1);
    expect(sent).toEqual([expectedMessage(notification!.subject, 1)]);
    expect(await releaseHeldNotificationClaims()).toBe(0);
  });

  it("logs a refused email without the mail server's words, which name the recipient", async () => {
    freezeClock(T0);
    const [notification] = await notificationsFor(1);
    const refusal = Object.assign(new Error(`Can't send mail - all recipients were rejected: 550 5.1.1 <${OWNER_EMAIL}>: Recipient address rejected`), {
      code: "EENVELOPE",
      responseCode: 550,
    });
    const refusing: Mailer = { send: async () => Promise.reject(refusal) };

    const { entries } = await captureLogs(() => sendPendingNotifications(refusing));

    expect(entries.filter(({ msg }) => msg === "notification email failed").map(({ time, ...entry }) => entry)).toEqual([
      { level: "warn", msg: "notification email failed", notification_id: notification!.id, error_name: "Error", error_code: "EENVELOPE", smtp_response_code: 550 },
    ]);
    expect(JSON.stringify(entries)).not.toContain(OWNER_EMAIL);
  });
});
