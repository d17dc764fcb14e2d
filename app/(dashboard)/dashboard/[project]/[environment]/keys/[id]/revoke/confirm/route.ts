// POST /dashboard/{project}/{environment}/keys/{id}/revoke/confirm — the Revoke confirmation page's button
// (docs/dashboard.md): revokes the key at once and for good through the API's service, then 303 back to the keys page.
import { postedFrom, seeOther } from "@/lib/dashboard/form-request";
import { submitRevokeKeyForm } from "@/lib/dashboard/key-forms";
import { dashboardKeyParamsSchema, revokeKeyFormSchema } from "@/lib/dashboard/schemas";
import { defineRoute, endpoint } from "@/lib/http/route";
import { DASHBOARD_FORM_LIMIT } from "@/lib/ratelimit/policies";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/dashboard/{project}/{environment}/keys/{id}/revoke/confirm", {
  POST: endpoint({
    summary: "Revoke an API key from the dashboard",
    params: dashboardKeyParamsSchema,
    body: revokeKeyFormSchema,
    bodyFormat: "form",
    errorFormat: "page",
    auth: { kind: "dashboard_member", action: "revoke_key", addressLimit: DASHBOARD_FORM_LIMIT },
    responses: { 303: null },
    errors: ["environment_mismatch"],
    handler: async ({ request, member, params, body }) => seeOther(await submitRevokeKeyForm({ member, params, keyId: params.id, form: body, ...postedFrom(request) })),
  }),
});
