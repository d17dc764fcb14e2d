// The API keys page's forms (docs/dashboard.md): each post, once the route builder has checked the page's CSRF token
// and the person (signed in, a member of the project, a role allowed the action), has its answers checked (a refusal
// comes back to the form: lib/dashboard/form-errors.ts), then calls the keys service the API calls, and answers where
// the browser goes next (303 back to the keys page) with, for a new secret, the sealed cookie that shows it once.
import { createKeyFromDashboard, revokeKeyFromDashboard, revokeTokensFromDashboard, rollKeyFromDashboard, setAllowedOriginsFromDashboard } from "./keys";
import { backWithRefusals, checkForm } from "./form-errors";
import type { AfterPost, FormPost } from "./form-request";
import {
  allowedOriginsFieldsSchema,
  createKeyFieldsSchema,
  rollKeyFieldsSchema,
  type allowedOriginsFormSchema,
  type confirmFormSchema,
  type createKeyFormSchema,
  type DashboardParams,
  type revokeKeyFormSchema,
  type rollKeyFormSchema,
} from "./schemas";
import { shownOnceCookie } from "./shown-once";
import { sandboxOnlyOriginIndex } from "../keys/schemas";
import type { z } from "zod";

export function keysPagePath(params: DashboardParams): string {
  return `/dashboard/${params.project}/${params.environment}/keys`;
}

export async function submitCreateKeyForm(post: FormPost<z.output<typeof createKeyFormSchema>>): Promise<AfterPost> {
  const { member } = post;
  const checked = checkForm(createKeyFieldsSchema, { type: post.form.type });
  if (!checked.ok) return backWithRefusals(post, { form: "create-key", location: keysPagePath(post.params), values: { type: post.form.type }, errors: checked.errors });
  const created = await createKeyFromDashboard({ member, type: checked.data.type });
  const setCookie = await shownOnceCookie(
    { kind: "key_created", userId: member.userId, projectId: post.params.project, environment: post.params.environment, objectId: created.id, secret: created.secret },
    post.secure,
  );
  return { location: keysPagePath(post.params), setCookie };
}

export async function submitRollKeyForm(post: FormPost<z.output<typeof rollKeyFormSchema>> & { keyId: string }): Promise<AfterPost> {
  const { member } = post;
  const checked = checkForm(rollKeyFieldsSchema, { overlap_hours: post.form.overlap_hours });
  if (!checked.ok) {
    const values = { overlap_hours: post.form.overlap_hours };
    return backWithRefusals(post, { form: `roll-${post.keyId}`, location: keysPagePath(post.params), values, errors: checked.errors });
  }
  const rolled = await rollKeyFromDashboard({ member, id: post.keyId, overlapHours: checked.data.overlap_hours });
  const setCookie = await shownOnceCookie(
    {
      kind: "key_rolled",
      userId: member.userId,
      projectId: post.params.project,
      environment: post.params.environment,
      objectId: rolled.id,
      secret: rolled.secret,
      predecessorId: rolled.predecessor,
      predecessorExpiresAt: rolled.predecessor_expires_at,
    },
    post.secure,
  );
  return { location: keysPagePath(post.params), setCookie };
}

export async function submitRevokeKeyForm(post: FormPost<z.output<typeof revokeKeyFormSchema>> & { keyId: string }): Promise<AfterPost> {
  const { member } = post;
  await revokeKeyFromDashboard({ member, id: post.keyId });
  return { location: `${keysPagePath(post.params)}?revoked=${post.keyId}` };
}

export async function submitAllowedOriginsForm(post: FormPost<z.output<typeof allowedOriginsFormSchema>> & { keyId: string }): Promise<AfterPost> {
  const { member } = post;
  const values = { allowed_origins: post.form.allowed_origins };
  const checked = checkForm(allowedOriginsFieldsSchema, values);
  const refused = { form: `origins-${post.keyId}`, location: keysPagePath(post.params), values };
  if (!checked.ok) return backWithRefusals(post, { ...refused, errors: checked.errors });
  const origins = checked.data.allowed_origins;
  const sandboxOnly = sandboxOnlyOriginIndex(member.tenant.environment, origins);
  if (sandboxOnly >= 0) {
    const message = `Remove ${origins[sandboxOnly]}: a live key's origins must be https (http://localhost is for sandbox keys)`;
    return backWithRefusals(post, { ...refused, errors: [{ field: "allowed_origins", message }] });
  }
  await setAllowedOriginsFromDashboard({ member, id: post.keyId, allowedOrigins: origins });
  return { location: `${keysPagePath(post.params)}?origins=${post.keyId}` };
}

export async function submitRevokeTokensForm(post: FormPost<z.output<typeof confirmFormSchema>>): Promise<AfterPost> {
  const { member } = post;
  await revokeTokensFromDashboard({ member });
  return { location: `${keysPagePath(post.params)}?tokens=revoked` };
}
