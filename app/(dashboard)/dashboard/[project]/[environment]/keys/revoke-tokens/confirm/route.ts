// POST /dashboard/{project}/{environment}/keys/revoke-tokens/confirm — the Revoke all tokens confirmation page's
// button (docs/dashboard.md): every access token of this environment issued until now answers 401 token_revoked,
// as `cli project revoke-tokens --environment` does; then 303 back to the keys page.
import { postedFrom, seeOther } from "@/lib/dashboard/form-request";
import { submitRevokeTokensForm } from "@/lib/dashboard/key-forms";
import { confirmFormSchema, dashboardParamsSchema } from "@/lib/dashboard/schemas";
import { defineRoute, endpoint } from "@/lib/http/route";
import { DASHBOARD_FORM_LIMIT } from "@/lib/ratelimit/policies";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/dashboard/{project}/{environment}/keys/revoke-tokens/confirm", {
  POST: endpoint({
    summary: "Revoke every access token of an environment from the dashboard",
    params: dashboardParamsSchema,
    body: confirmFormSchema,
    bodyFormat: "form",
    errorFormat: "page",
    auth: { kind: "dashboard_member", action: "revoke_tokens", addressLimit: DASHBOARD_FORM_LIMIT },
    responses: { 303: null },
    handler: async ({ request, member, params, body }) => seeOther(await submitRevokeTokensForm({ member, params, form: body, ...postedFrom(request) })),
  }),
});
