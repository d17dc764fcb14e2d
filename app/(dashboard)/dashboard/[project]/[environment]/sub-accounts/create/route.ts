// POST /dashboard/{project}/{environment}/sub-accounts/create — the Sub-accounts page's Create sub-account form
// (docs/dashboard.md, beta): a new sub-account through the API's service, then 303 back to the page. Refused answers
// (a rate above the master rate among them) come back to the form; a project without the beta capability: 404.
import { postedFrom, seeOther } from "@/lib/dashboard/form-request";
import { createSubAccountFormSchema, dashboardParamsSchema } from "@/lib/dashboard/schemas";
import { submitCreateSubAccountForm } from "@/lib/dashboard/sub-account-forms";
import { defineRoute, endpoint } from "@/lib/http/route";
import { DASHBOARD_FORM_LIMIT } from "@/lib/ratelimit/policies";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/dashboard/{project}/{environment}/sub-accounts/create", {
  POST: endpoint({
    summary: "Create a sub-account from the dashboard",
    params: dashboardParamsSchema,
    body: createSubAccountFormSchema,
    bodyFormat: "form",
    errorFormat: "page",
    auth: { kind: "dashboard_member", action: "manage_sub_accounts", addressLimit: DASHBOARD_FORM_LIMIT },
    responses: { 303: null },
    handler: async ({ request, member, params, body, now }) => seeOther(await submitCreateSubAccountForm({ member, params, form: body, now, ...postedFrom(request) })),
  }),
});
