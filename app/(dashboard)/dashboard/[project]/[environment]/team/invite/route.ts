// POST /dashboard/{project}/{environment}/team/invite — the Team page's Invite form (docs/dashboard.md, "Team"): someone
// with a sign-in joins at once, an address without one is invited; either way they are notified. 303 back to Team.
import { postedFrom, seeOther } from "@/lib/dashboard/form-request";
import { dashboardParamsSchema, inviteMemberFormSchema } from "@/lib/dashboard/schemas";
import { submitInviteForm } from "@/lib/dashboard/team-forms";
import { defineRoute, endpoint } from "@/lib/http/route";
import { DASHBOARD_FORM_LIMIT } from "@/lib/ratelimit/policies";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/dashboard/{project}/{environment}/team/invite", {
  POST: endpoint({
    summary: "Invite someone to the team from the dashboard",
    params: dashboardParamsSchema,
    body: inviteMemberFormSchema,
    bodyFormat: "form",
    errorFormat: "page",
    auth: { kind: "dashboard_member", action: "manage_team", addressLimit: DASHBOARD_FORM_LIMIT },
    responses: { 303: null },
    handler: async ({ request, member, params, body }) => seeOther(await submitInviteForm({ member, params, form: body, ...postedFrom(request) })),
  }),
});
