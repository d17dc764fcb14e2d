// The support chat body (spec 4.8 leaves it to us) and its limits (spec 8 leaves the message length to us).
// Problems are checked in this order, the first that applies answering: a field the endpoint does not accept
// (400 `unknown_field`), a message over the length limit (422 `support_message_too_long`, spec 7.3), then
// anything else (422 `validation_failed`: a missing, non-string, empty or whitespace-only message, a malformed
// session id). Each error lists its fields in `detail`.
import { z } from "zod";
import { requestString } from "../wire/request-string";
import { ApiError } from "../errors";
import { safeParseInput, validationError } from "../wire/validation";
import { isIdOf } from "../ids";
import { absoluteUrl, text } from "../wire/response-schema";

/** Characters (code points) in one message. */
export const SUPPORT_MESSAGE_MAX_LENGTH = 1000;
/** A session closes after this long without a message. */
export const SUPPORT_SESSION_IDLE_MS = 30 * 60 * 1000;
/** A session closes after this many messages: the next one is refused. */
export const SUPPORT_SESSION_MAX_MESSAGES = 50;
/** Whole body; over it is 422 `request_body_too_large` (the builder's cap). */
export const SUPPORT_CHAT_BODY_LIMIT_BYTES = 8 * 1024;

const messageSchema = requestString()
  .refine((value) => value.trim().length > 0, { message: "message must not be empty.", params: { reason: "too_small" }, abort: true })
  .refine((value) => [...value].length <= SUPPORT_MESSAGE_MAX_LENGTH, {
    message: `message must be at most ${SUPPORT_MESSAGE_MAX_LENGTH} characters.`,
    params: { reason: "too_long" },
  });

export const sendSupportMessageBodySchema = z.strictObject({
  message: messageSchema,
  /** Continues a session; left out, the message starts a new one. */
  session_id: requestString()
    .refine((value) => isIdOf("supportSession", value), { message: "session_id must be a support session id (sess_...).", params: { reason: "invalid_format" } })
    .optional(),
});

export type SendSupportMessageBody = z.output<typeof sendSupportMessageBodySchema>;

/** The builder hands the decoded JSON over as it came: parseSendSupportMessageBody reports in the chat's codes. */
export const sendSupportMessageRawBodySchema = z.unknown();

/** The validated body, or the error for the first check it fails. An empty body is a message left out. */
export function parseSendSupportMessageBody(body: unknown): SendSupportMessageBody {
  const input = body === undefined ? {} : body;
  const parsed = safeParseInput(sendSupportMessageBodySchema, input);
  if (parsed.success) return parsed.data;
  const generic = validationError(parsed.error.issues, input);
  if (generic.code === "unknown_field") throw generic;
  const tooLong = (generic.detail ?? []).filter((item) => item.field === "message" && item.reason === "too_long");
  if (tooLong.length > 0) {
    throw new ApiError("support_message_too_long", { message: `The message is longer than ${SUPPORT_MESSAGE_MAX_LENGTH} characters.`, detail: tooLong });
  }
  throw generic;
}

export const supportReplySchema = z
  .strictObject({
    session_id: text(),
    reply: text().meta({ description: "The assistant's answer, as sanitised HTML." }),
    handoff: z.boolean().meta({ description: "true when the question needs a person or the visitor's account." }),
    sign_in_url: absoluteUrl().optional().meta({ description: "Where to sign in, on a handoff." }),
  })
  .meta({ id: "SupportReply" });
