// POST /dashboard/{project}/{environment}/team/{user}/remove/confirm — the Remove confirmation page's button
// (docs/dashboard.md, "Team"): through the team service; the last owner's removal comes back as a message.
import { postedFrom, seeOther } from "@/lib/dashboard/form-request";
import { confirmFormSchema, dashboardMemberParamsSchema } from "@/lib/dashboard/schemas";
import { submitRemoveMemberForm } from "@/lib/dashboard/team-forms";
import { defineRoute, endpoint } from "@/lib/http/route";
import { DASHBOARD_FORM_LIMIT } from "@/lib/ratelimit/policies";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/dashboard/{project}/{environment}/team/{user}/remove/confirm", {
  POST: endpoint({
    summary: "Remove a team member from the dashboard",
    params: dashboardMemberParamsSchema,
    body: confirmFormSchema,
    bodyFormat: "form",
    errorFormat: "page",
    auth: { kind: "dashboard_member", action: "manage_team", addressLimit: DASHBOARD_FORM_LIMIT },
    responses: { 303: null },
    handler: async ({ request, member, params, body }) => seeOther(await submitRemoveMemberForm({ member, params, memberId: params.user, form: body, ...postedFrom(request) })),
  }),
});
