// POST /api/assistant/public — the site assistant answers one general question (spec 4.1, 2.10); errors in the
// site's shape `{ok: false, error}` (7.4). Only our own pages can call it: the CSRF double-submit is its caller's
// proof (site_visitor), and each address has its own bucket (docs/site.md).
import { askSiteAssistant } from "@/lib/assistant/site-assistant";
import { askSiteAssistantBodySchema, SITE_ASSISTANT_BODY_LIMIT_BYTES, siteAssistantAnswerSchema } from "@/lib/assistant/schemas";
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { SITE_ASSISTANT_LIMIT } from "@/lib/ratelimit/policies";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/api/assistant/public", {
  POST: endpoint({
    summary: "Ask the site assistant a general question",
    description:
      "Answers questions on products, eligibility and costs from a bounded knowledge base; it cannot see or act on accounts. " +
      "A question about the visitor's own account, application, balance or payments answers `handoff: true` with a link to sign in at `/account`.",
    responses: { 200: siteAssistantAnswerSchema },
    auth: { kind: "site_visitor", addressLimit: SITE_ASSISTANT_LIMIT },
    body: askSiteAssistantBodySchema,
    bodyLimitBytes: SITE_ASSISTANT_BODY_LIMIT_BYTES,
    errorFormat: "site",
    handler: async ({ body }) => ok(await askSiteAssistant(body), { "Cache-Control": "no-store" }),
  }),
});
