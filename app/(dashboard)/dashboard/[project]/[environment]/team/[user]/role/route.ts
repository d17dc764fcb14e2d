// POST /dashboard/{project}/{environment}/team/{user}/role — the Team page's Change role form (docs/dashboard.md,
// "Team"), through the team service the admin command line calls; the last owner's demotion comes back as a message.
import { postedFrom, seeOther } from "@/lib/dashboard/form-request";
import { changeRoleFormSchema, dashboardMemberParamsSchema } from "@/lib/dashboard/schemas";
import { submitChangeRoleForm } from "@/lib/dashboard/team-forms";
import { defineRoute, endpoint } from "@/lib/http/route";
import { DASHBOARD_FORM_LIMIT } from "@/lib/ratelimit/policies";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/dashboard/{project}/{environment}/team/{user}/role", {
  POST: endpoint({
    summary: "Change a team member's role from the dashboard",
    params: dashboardMemberParamsSchema,
    body: changeRoleFormSchema,
    bodyFormat: "form",
    errorFormat: "page",
    auth: { kind: "dashboard_member", action: "manage_team", addressLimit: DASHBOARD_FORM_LIMIT },
    responses: { 303: null },
    handler: async ({ request, member, params, body }) => seeOther(await submitChangeRoleForm({ member, params, memberId: params.user, form: body, ...postedFrom(request) })),
  }),
});
