// The application page's Release decision form (docs/dashboard.md): once the route builder has checked the page's
// CSRF token and the person (signed in, in the team, an owner), the release, audited; 303 back to the application.
import type { z } from "zod";
import { releaseDecisionFromDashboard } from "./browse";
import type { releaseDecisionFormSchema } from "./browse-schemas";
import type { AfterPost, FormPost } from "./form-request";

export async function submitReleaseDecisionForm(post: FormPost<z.output<typeof releaseDecisionFormSchema>> & { applicationId: string }): Promise<AfterPost> {
  await releaseDecisionFromDashboard({ member: post.member, applicationId: post.applicationId });
  return { location: `/dashboard/${post.params.project}/${post.params.environment}/applications/${post.applicationId}?released=1` };
}
