// The application page's Release decision form (docs/dashboard.md): the page's CSRF token, then the person (signed
// in, in the team, an owner), then the release, audited; 303 back to the application.
import type { z } from "zod";
import { dashboardMemberOrThrow } from "./access";
import { releaseDecisionFromDashboard } from "./browse";
import type { releaseDecisionFormSchema } from "./browse-schemas";
import { assertFromOurPage, type AfterPost, type FormPost } from "./form-request";

export async function submitReleaseDecisionForm(post: FormPost<z.output<typeof releaseDecisionFormSchema>> & { applicationId: string }): Promise<AfterPost> {
  assertFromOurPage(post);
  const member = await dashboardMemberOrThrow({ userId: post.userId, params: post.params, action: "release_decision" });
  await releaseDecisionFromDashboard({ member, applicationId: post.applicationId });
  return { location: `/dashboard/${post.params.project}/${post.params.environment}/applications/${post.applicationId}?released=1` };
}
