// The site assistant's question and answer (spec 4.1, 2.10): `{message}` of 1 to 500 characters (spec 8), not
// only whitespace; the answer `{ok: true, answer, handoff?}`, with `handoff` present only when it is true.
import { z } from "zod";
import { requestString } from "../wire/request-string";
import { text } from "../wire/response-schema";

/** Characters (code points) in one question (spec 8). */
export const SITE_ASSISTANT_MESSAGE_MAX_LENGTH = 500;
/** Whole body: the longest message even with every character escaped as a JSON surrogate pair (12 bytes each). */
export const SITE_ASSISTANT_BODY_LIMIT_BYTES = 8 * 1024;

export const askSiteAssistantBodySchema = z.strictObject({
  message: requestString()
    .refine((value) => value.trim().length > 0, { message: "Type a question: the message must not be empty.", params: { reason: "too_small" }, abort: true })
    .refine((value) => [...value].length <= SITE_ASSISTANT_MESSAGE_MAX_LENGTH, {
      message: `Keep the question to ${SITE_ASSISTANT_MESSAGE_MAX_LENGTH} characters or fewer.`,
      params: { reason: "too_long" },
    }),
});

export type AskSiteAssistantBody = z.output<typeof askSiteAssistantBodySchema>;

export const siteAssistantAnswerSchema = z
  .strictObject({
    ok: z.literal(true),
    answer: text().meta({ description: "The answer as sanitised HTML: paragraphs, lists and links only." }),
    handoff: z.literal(true).optional().meta({ description: "Present (and true) when the question is about the visitor's own account: the answer links to sign in at `/account`." }),
  })
  .meta({ id: "SiteAssistantAnswer" });

export type SiteAssistantAnswer = z.output<typeof siteAssistantAnswerSchema>;
