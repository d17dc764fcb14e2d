// The API keys page's forms (docs/dashboard.md): each post is checked in one order (the page's CSRF token, then
// the person: signed in, a member of the project, a role allowed the action), then calls the keys service the API
// calls, and answers where the browser goes next (303 back to the keys page) with, for a new secret, the sealed
// cookie that shows it once.
import { assertFormFromOurSite } from "../wire/csrf";
import { dashboardMemberOrThrow } from "./access";
import { createKeyFromDashboard, revokeKeyFromDashboard, revokeTokensFromDashboard, rollKeyFromDashboard, setAllowedOriginsFromDashboard } from "./keys";
import type { allowedOriginsFormSchema, confirmFormSchema, createKeyFormSchema, DashboardParams, revokeKeyFormSchema, rollKeyFormSchema } from "./schemas";
import { shownOnceCookie } from "./shown-once";
import type { z } from "zod";

/** What a form post brings besides its fields: who posted it and how (the request's cookie, origin and host). */
export interface FormPost<F> {
  userId: string | null;
  params: DashboardParams;
  form: F;
  cookieToken: string | null;
  origin: string | null;
  host: string | null;
  secure: boolean;
}

export interface AfterPost {
  location: string;
  setCookie?: string;
}

export function keysPagePath(params: DashboardParams): string {
  return `/dashboard/${params.project}/${params.environment}/keys`;
}

export function assertFromOurPage(post: FormPost<{ csrf_token: string }>): void {
  assertFormFromOurSite({ formToken: post.form.csrf_token, cookieToken: post.cookieToken, origin: post.origin, host: post.host });
}

export async function submitCreateKeyForm(post: FormPost<z.output<typeof createKeyFormSchema>>): Promise<AfterPost> {
  assertFromOurPage(post);
  const member = await dashboardMemberOrThrow({ userId: post.userId, params: post.params, action: "create_key" });
  const created = await createKeyFromDashboard({ member, type: post.form.type });
  const setCookie = await shownOnceCookie(
    { kind: "created", userId: member.userId, projectId: post.params.project, environment: post.params.environment, keyId: created.id, secret: created.secret },
    post.secure,
  );
  return { location: keysPagePath(post.params), setCookie };
}

export async function submitRollKeyForm(post: FormPost<z.output<typeof rollKeyFormSchema>> & { keyId: string }): Promise<AfterPost> {
  assertFromOurPage(post);
  const member = await dashboardMemberOrThrow({ userId: post.userId, params: post.params, action: "roll_key" });
  const rolled = await rollKeyFromDashboard({ member, id: post.keyId, overlapHours: post.form.overlap_hours });
  const setCookie = await shownOnceCookie(
    {
      kind: "rolled",
      userId: member.userId,
      projectId: post.params.project,
      environment: post.params.environment,
      keyId: rolled.id,
      secret: rolled.secret,
      predecessorId: rolled.predecessor,
      predecessorExpiresAt: rolled.predecessor_expires_at,
    },
    post.secure,
  );
  return { location: keysPagePath(post.params), setCookie };
}

export async function submitRevokeKeyForm(post: FormPost<z.output<typeof revokeKeyFormSchema>> & { keyId: string }): Promise<AfterPost> {
  assertFromOurPage(post);
  const member = await dashboardMemberOrThrow({ userId: post.userId, params: post.params, action: "revoke_key" });
  await revokeKeyFromDashboard({ member, id: post.keyId });
  return { location: `${keysPagePath(post.params)}?revoked=${post.keyId}` };
}

export async function submitAllowedOriginsForm(post: FormPost<z.output<typeof allowedOriginsFormSchema>> & { keyId: string }): Promise<AfterPost> {
  assertFromOurPage(post);
  const member = await dashboardMemberOrThrow({ userId: post.userId, params: post.params, action: "set_key_origins" });
  await setAllowedOriginsFromDashboard({ member, id: post.keyId, allowedOrigins: post.form.allowed_origins });
  return { location: `${keysPagePath(post.params)}?origins=${post.keyId}` };
}

export async function submitRevokeTokensForm(post: FormPost<z.output<typeof confirmFormSchema>>): Promise<AfterPost> {
  assertFromOurPage(post);
  const member = await dashboardMemberOrThrow({ userId: post.userId, params: post.params, action: "revoke_tokens" });
  await revokeTokensFromDashboard({ member });
  return { location: `${keysPagePath(post.params)}?tokens=revoked` };
}
