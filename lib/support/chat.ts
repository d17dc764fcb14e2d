// The public support chat (spec 4.8 POST /support/chat, 7.3): a visitor's message goes to the assistant
// (lib/assistant), which answers general questions only and hands account questions off to sign-in.
//
// Limits (spec 8 leaves them to us):
// - a message is 1 to 1000 characters, not only whitespace (over: 422 `support_message_too_long`);
// - a session closes after 30 minutes without a message, or once it has had 50 messages; a message to a closed
//   session is 409 `support_session_closed`, and the session is marked closed when that is first noticed;
// - an unknown session id is 404 `not_found` (it never silently starts a new session).
// The visitor's words are not stored: a session row keeps only its status, message count and times, and is
// deleted by the hourly maintenance 30 days after its last message.
import { answerQuestion } from "../assistant/answer";
import { clock } from "../clock";
import { config } from "../env";
import { db, type DatabaseClient } from "../db";
import { ApiError, notFound } from "../errors";
import { newId } from "../ids";
import { SUPPORT_SESSION_IDLE_MS, SUPPORT_SESSION_MAX_MESSAGES, type SendSupportMessageBody } from "./schemas";

/** How long a session is kept after its last message (docs/public-api.md). */
export const SUPPORT_SESSION_RETENTION_MS = 30 * 24 * 3_600_000;

export interface SupportChatReply {
  session_id: string;
  /** Sanitised HTML. */
  reply: string;
  /** True when the visitor should sign in for account-specific help. */
  handoff: boolean;
  /** Where to sign in; present only with `handoff`. */
  sign_in_url?: string;
}

async function startSession(database: DatabaseClient, now: Date): Promise<string> {
  const session = await database.supportSession.create({
    data: { id: newId("supportSession"), status: "open", messageCount: 1, lastMessageAt: now, createdAt: now },
  });
  return session.id;
}

/**
 * Counts one more message on an open session. The check and the count are one conditional update, so two
 * messages arriving together cannot both be the 50th; when it matches nothing, the session is unknown (404) or
 * closed (409, and marked so).
 */
async function continueSession(database: DatabaseClient, sessionId: string, now: Date): Promise<string> {
  const idleSince = new Date(now.getTime() - SUPPORT_SESSION_IDLE_MS);
  const { count } = await database.supportSession.updateMany({
    where: { id: sessionId, status: "open", messageCount: { lt: SUPPORT_SESSION_MAX_MESSAGES }, lastMessageAt: { gte: idleSince } },
    data: { messageCount: { increment: 1 }, lastMessageAt: now },
  });
  if (count === 1) return sessionId;
  const existing = await database.supportSession.findUnique({ where: { id: sessionId }, select: { id: true } });
  if (!existing) throw notFound("support session");
  await database.supportSession.updateMany({ where: { id: sessionId, status: "open" }, data: { status: "closed", closedAt: now } });
  throw new ApiError("support_session_closed", { message: "This support session is closed; start a new one by sending a message without session_id." });
}

export async function sendSupportMessage(options: SendSupportMessageBody & { transaction?: DatabaseClient }): Promise<SupportChatReply> {
  const { transaction: database = db(), message, session_id: sessionId } = options;
  const now = clock.now();
  const id = sessionId === undefined ? await startSession(database, now) : await continueSession(database, sessionId, now);
  // The borrower area's sign-in, as the site assistant's handoff: the provider's own root (SSO_URL) is no page.
  const signInUrl = `${config().BASE_URL}/account`;
  const answer = await answerQuestion(message, { signInUrl });
  return { session_id: id, reply: answer.answerHtml, handoff: answer.handoff, ...(answer.handoff ? { sign_in_url: signInUrl } : {}) };
}

/** Deletes sessions whose last message is more than 30 days old (long closed); returns how many. */
export async function pruneExpiredSupportSessions(): Promise<number> {
  const { count } = await db().supportSession.deleteMany({ where: { lastMessageAt: { lt: new Date(clock.now().getTime() - SUPPORT_SESSION_RETENTION_MS) } } });
  return count;
}
