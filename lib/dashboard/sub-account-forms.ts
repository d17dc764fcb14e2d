// The Sub-accounts page's Create sub-account form (docs/dashboard.md, "Sub-accounts, introductions and payouts"):
// once the route builder has checked the page's CSRF token and the person (a role allowed `manage_sub_accounts`),
// its answers are checked (a refusal comes back to the form: lib/dashboard/form-errors.ts), then the API's service
// makes the sub-account, and the browser goes back to the Sub-accounts page saying which it made.
import type { z } from "zod";
import { ApiError } from "../errors";
import { masterRevenueShareBps } from "../revenue-share/sub-accounts";
import { backWithRefusals, checkForm, withFieldRefusals } from "./form-errors";
import type { AfterPost, FormPost } from "./form-request";
import { createSubAccountFieldsSchema, type createSubAccountFormSchema, type DashboardParams } from "./schemas";
import { createSubAccountFromDashboard } from "./sub-accounts";

export const CREATE_SUB_ACCOUNT_FORM = "create-sub-account";
const SUB_ACCOUNT_FIELDS = ["name", "revenue_share_bps"] as const;

export function subAccountsPagePath(params: DashboardParams): string {
  return `/dashboard/${params.project}/${params.environment}/sub-accounts`;
}

/** The service's refusal of a rate above the master rate, in words for people: the rate it may be at most. */
const aboveMasterRate = (masterBps: number) =>
  `Revenue share must be at most your master rate, ${masterBps.toLocaleString("en-GB")} basis points (${(masterBps / 100).toFixed(2)}%); leave it empty to use that rate`;

export async function submitCreateSubAccountForm(post: FormPost<z.output<typeof createSubAccountFormSchema>> & { now: Date }): Promise<AfterPost> {
  const { member } = post;
  const location = subAccountsPagePath(post.params);
  const values = { name: post.form.name, revenue_share_bps: post.form.revenue_share_bps };
  const checked = checkForm(createSubAccountFieldsSchema, values);
  if (!checked.ok) return backWithRefusals(post, { form: CREATE_SUB_ACCOUNT_FORM, location, values, errors: checked.errors });
  const input = { name: checked.data.name, ...(checked.data.revenue_share_bps === undefined ? {} : { revenue_share_bps: checked.data.revenue_share_bps }) };
  return withFieldRefusals(post, { form: CREATE_SUB_ACCOUNT_FORM, location, values, fields: SUB_ACCOUNT_FIELDS }, async () => {
    try {
      const created = await createSubAccountFromDashboard({ member, now: post.now, input });
      return { location: `${location}?created=${created.id}` };
    } catch (error) {
      if (!(error instanceof ApiError && error.detail?.some((item) => item.reason === "above_master_rate"))) throw error;
      const errors = [{ field: "revenue_share_bps", message: aboveMasterRate(await masterRevenueShareBps(member.tenant.projectId)) }];
      return backWithRefusals(post, { form: CREATE_SUB_ACCOUNT_FORM, location, values, errors });
    }
  });
}
