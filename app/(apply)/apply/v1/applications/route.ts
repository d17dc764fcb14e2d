// POST /apply/v1/applications — the apply.js widget starts an application with a publishable key, from a
// partner's page on any origin (docs/apply-js.md; spec 5.1: what a publishable key may do).
import { startWidgetApplication } from "@/lib/apply-widget/start";
import { applicationHandoffSchema, startWidgetApplicationBodySchema } from "@/lib/apply-widget/schemas";
import { created, defineRoute, endpoint } from "@/lib/http/route";
import { SUB_LIMITS, WIDGET_START_ADDRESS_LIMIT } from "@/lib/ratelimit/policies";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/apply/v1/applications", {
  POST: endpoint({
    summary: "Start an application from the apply.js widget",
    description:
      "What `LendingApply.open` calls: a new application for the publishable key's project and environment, made as `POST /partner/v1/applications` makes one " +
      "(`application.created` fires). The calling page's origin may frame the application's journey, which announces its end to that origin alone. " +
      "A key that lists allowed origins starts applications from pages of those origins alone, with a `redirect_uri` on one of them; a live key that lists none starts nothing. " +
      "The reply carries only the application's id and `handoff_url`.",
    auth: { kind: "publishable_key", addressLimit: WIDGET_START_ADDRESS_LIMIT },
    rateLimit: SUB_LIMITS.widgetStartsPerKey,
    body: startWidgetApplicationBodySchema,
    responses: { 201: applicationHandoffSchema },
    errors: ["origin_not_allowed", "service_unavailable"],
    handler: async ({ publishableKey, now, body, request }) => created(
        await startWidgetApplication({ key: publishableKey, now, input: body, origin: request.headers.get("origin") }),
        { "Cache-Control": "no-store" },
      ),
  }),
});
