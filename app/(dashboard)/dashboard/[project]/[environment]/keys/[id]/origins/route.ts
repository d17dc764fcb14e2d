// POST /dashboard/{project}/{environment}/keys/{id}/origins — the keys page's Allowed origins form for a publishable
// key (docs/dashboard.md, docs/apply-js.md): one origin a line, empty for any; 303 back to the keys page.
import { postedFrom, seeOther } from "@/lib/dashboard/form-request";
import { submitAllowedOriginsForm } from "@/lib/dashboard/key-forms";
import { allowedOriginsFormSchema, dashboardKeyParamsSchema } from "@/lib/dashboard/schemas";
import { defineRoute, endpoint } from "@/lib/http/route";
import { DASHBOARD_FORM_LIMIT } from "@/lib/ratelimit/policies";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/dashboard/{project}/{environment}/keys/{id}/origins", {
  POST: endpoint({
    summary: "Set a publishable key's allowed origins from the dashboard",
    params: dashboardKeyParamsSchema,
    body: allowedOriginsFormSchema,
    bodyFormat: "form",
    errorFormat: "page",
    auth: { kind: "dashboard_member", action: "set_key_origins", addressLimit: DASHBOARD_FORM_LIMIT },
    responses: { 303: null },
    errors: ["environment_mismatch"],
    handler: async ({ request, member, params, body }) => seeOther(await submitAllowedOriginsForm({ member, params, keyId: params.id, form: body, ...postedFrom(request) })),
  }),
});
