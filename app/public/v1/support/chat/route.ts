// POST /public/v1/support/chat — one visitor message to the support assistant (spec 4.8, 7.3); 200 the reply.
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { sendSupportMessage } from "@/lib/support/chat";
import { parseSendSupportMessageBody, SUPPORT_CHAT_BODY_LIMIT_BYTES, sendSupportMessageRawBodySchema } from "@/lib/support/schemas";
import { supportReplySchema } from "@/lib/support/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("public", "/support/chat", {
  POST: endpoint({
    summary: "Send a message to the support assistant",
    description: "Omit `session_id` to start a conversation; send the returned one with each further message.",
    responses: { 200: supportReplySchema },
    errors: ["support_message_too_long", "support_session_closed", "not_found"],
    auth: { kind: "none" },
    body: sendSupportMessageRawBodySchema,
    bodyLimitBytes: SUPPORT_CHAT_BODY_LIMIT_BYTES,
    handler: async ({ body }) => ok(await sendSupportMessage(parseSendSupportMessageBody(body))),
  }),
});
