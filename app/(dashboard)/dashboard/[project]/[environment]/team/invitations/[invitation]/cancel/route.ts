// POST /dashboard/{project}/{environment}/team/invitations/{invitation}/cancel — the Team page's Cancel invitation
// button (docs/dashboard.md, "Team"): the address will not join when its sign-in is created. 303 back to Team.
import { postedFrom, seeOther } from "@/lib/dashboard/form-request";
import { confirmFormSchema, dashboardInvitationParamsSchema } from "@/lib/dashboard/schemas";
import { submitCancelInvitationForm } from "@/lib/dashboard/team-forms";
import { defineRoute, endpoint } from "@/lib/http/route";
import { DASHBOARD_FORM_LIMIT } from "@/lib/ratelimit/policies";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/dashboard/{project}/{environment}/team/invitations/{invitation}/cancel", {
  POST: endpoint({
    summary: "Cancel a team invitation from the dashboard",
    params: dashboardInvitationParamsSchema,
    body: confirmFormSchema,
    bodyFormat: "form",
    errorFormat: "page",
    auth: { kind: "dashboard_member", action: "manage_team", addressLimit: DASHBOARD_FORM_LIMIT },
    responses: { 303: null },
    handler: async ({ request, member, params, body }) =>
      seeOther(await submitCancelInvitationForm({ member, params, invitationId: params.invitation, form: body, ...postedFrom(request) })),
  }),
});
