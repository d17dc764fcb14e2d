// POST /dashboard/{project}/{environment}/keys/create — the keys page's Create key form (docs/dashboard.md): a new
// key through the API's service, then 303 back to the page, which shows its secret once.
import { postedFrom, seeOther } from "@/lib/dashboard/form-request";
import { submitCreateKeyForm } from "@/lib/dashboard/key-forms";
import { createKeyFormSchema, dashboardParamsSchema } from "@/lib/dashboard/schemas";
import { defineRoute, endpoint } from "@/lib/http/route";
import { DASHBOARD_FORM_LIMIT } from "@/lib/ratelimit/policies";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/dashboard/{project}/{environment}/keys/create", {
  POST: endpoint({
    summary: "Create an API key from the dashboard",
    params: dashboardParamsSchema,
    body: createKeyFormSchema,
    bodyFormat: "form",
    errorFormat: "page",
    auth: { kind: "dashboard_member", action: "create_key", addressLimit: DASHBOARD_FORM_LIMIT },
    responses: { 303: null },
    errors: ["environment_mismatch"],
    handler: async ({ request, member, params, body }) => seeOther(await submitCreateKeyForm({ member, params, form: body, ...postedFrom(request) })),
  }),
});
