// GET /dashboard/{project}/{environment}/sub-accounts — the environment's sub-accounts (beta; docs/dashboard.md,
// "Sub-accounts, introductions and payouts"), newest first, 25 at a time, through `GET /partner/v1/sub-accounts`'s
// own service: each with its revenue share and its introductions counted by stage; and, for a role that may manage
// sub-accounts, Create sub-account, whose rate defaults to the project's master rate and may not exceed it.
import type { Metadata } from "next";
import { cookies } from "next/headers";
import { subAccountsPageQuerySchema } from "@/lib/dashboard/browse-schemas";
import { dashboardParamsSchema } from "@/lib/dashboard/schemas";
import { CREATE_SUB_ACCOUNT_FORM } from "@/lib/dashboard/sub-account-forms";
import { countIntroductionsByStage } from "@/lib/revenue-share/introductions";
import { INTRODUCTION_STAGES } from "@/lib/revenue-share/schemas";
import { listSubAccounts, masterRevenueShareBps } from "@/lib/revenue-share/sub-accounts";
import { CSRF_COOKIE } from "@/lib/wire/csrf";
import { readPageValues } from "@/lib/wire/page-values";
import { DashboardShell } from "@/app/(dashboard)/dashboard/_components/shell";
import { formatShareRate, INTRODUCTION_STAGE_WORDS } from "@/app/(dashboard)/dashboard/_components/browse-words";
import { when } from "@/app/(dashboard)/dashboard/_components/when";
import { Pager } from "@/app/(dashboard)/dashboard/_components/browse-parts";
import { ErrorSummary, FieldError, refusalsOf, refusedAria, refusedFormMetadata, refusedFormOf } from "@/app/(dashboard)/dashboard/_components/refused-form";
import { betaReaderOrNotFound, foundOrNotFound, pageParamsOrNotFound, queryOrNotFound, withQuery } from "@/app/(dashboard)/dashboard/_components/section-page";
import "@/app/(account)/account/account.css";
import "@/app/(dashboard)/dashboard/dashboard.css";

export const dynamic = "force-dynamic";

type Props = { params: Promise<Record<string, string>>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return refusedFormMetadata("Sub-accounts", readPageValues(dashboardParamsSchema.shape, await params), (refused) => refused.form === CREATE_SUB_ACCOUNT_FORM);
}

const FIELD_LABELS = { name: "Name", revenue_share_bps: "Revenue share" };
const fieldId = (field: string) => `sub-account-${field.replace(/_/g, "-")}`;

export default async function SubAccountsPage({ params, searchParams }: Props) {
  const address = pageParamsOrNotFound(dashboardParamsSchema.shape, await params);
  const base = `/dashboard/${address.project}/${address.environment}/sub-accounts`;
  const { view, member } = await betaReaderOrNotFound(address, base);
  const { query, given } = queryOrNotFound(subAccountsPageQuerySchema, await searchParams);
  const { tenant } = member;
  const [subAccounts, masterBps] = await Promise.all([foundOrNotFound(listSubAccounts({ tenant, query, url: base })), masterRevenueShareBps(tenant.projectId)]);
  const counts = await countIntroductionsByStage({ tenant, subAccountIds: subAccounts.data.map((subAccount) => subAccount.id) });
  const refused = await refusedFormOf({ userId: member.userId, ...address });
  const createRefused = refusalsOf(refused, CREATE_SUB_ACCOUNT_FORM);
  const csrfToken = (await cookies()).get(CSRF_COOKIE)?.value ?? "";
  const environmentWord = address.environment === "sandbox" ? "sandbox" : "live";
  const introductionsPath = `/dashboard/${address.project}/${address.environment}/introductions`;
  const last = subAccounts.data.at(-1);
  return (
    <DashboardShell view={view} section="sub-accounts">
      <h1>Sub-accounts</h1>
      <ErrorSummary refused={createRefused ? refused : null} labels={FIELD_LABELS} fieldId={fieldId} />
      {given.created ? (
        <p className="dashboard-panel" role="status">
          Sub-account {given.created} is created. Send its id as <code>sub_account_id</code> when you create an application through it.
        </p>
      ) : null}
      <p>
        Your {environmentWord} sub-accounts (beta): the distributors you originate applications through. Each earns its revenue share of the principal
        funded through its introductions, paid monthly. Your master rate is <strong>{formatShareRate(masterBps)}</strong> ({masterBps.toLocaleString("en-GB")}{" "}
        basis points).
      </p>
      {subAccounts.data.length === 0 ? (
        <p className="account-empty">No {environmentWord} sub-accounts yet.</p>
      ) : (
        <div className="account-table-region" role="region" aria-labelledby="sub-accounts-caption" tabIndex={0}>
          <table className="account-table dashboard-stacked">
            <caption id="sub-accounts-caption">Your {environmentWord} sub-accounts, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Sub-account</th>
                <th scope="col" className="account-money">
                  Revenue share
                </th>
                <th scope="col">Introductions</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {subAccounts.data.map((subAccount) => {
                const byStage = counts.get(subAccount.id)!;
                return (
                  <tr key={subAccount.id}>
                    <td>
                      {subAccount.name}
                      <br />
                      <span className="dashboard-muted">{subAccount.id}</span>
                    </td>
                    <td data-label="Revenue share" className="account-money">
                      {formatShareRate(subAccount.revenue_share_bps)}
                    </td>
                    <td data-label="Introductions">
                      <ul className="dashboard-stage-counts">
                        {INTRODUCTION_STAGES.map((stage) => (
                          <li key={stage}>
                            <a href={withQuery(introductionsPath, { stage, sub_account_id: subAccount.id })}>
                              {INTRODUCTION_STAGE_WORDS[stage]}: {byStage[stage]}
                            </a>
                          </li>
                        ))}
                      </ul>
                    </td>
                    <td data-label="Created">{when(subAccount.created_at)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <Pager words="sub-accounts" olderHref={subAccounts.has_more && last ? withQuery(base, { starting_after: last.id }) : null} newestHref={query.starting_after ? base : null} />
      {view.allowed.manage_sub_accounts ? (
        <section aria-labelledby="create-sub-account-heading">
          <h2 id="create-sub-account-heading">Create a sub-account</h2>
          <form method="post" action={`${base}/create`} className="dashboard-form dashboard-form-stacked" noValidate>
            <input type="hidden" name="csrf_token" value={csrfToken} />
            <div className="dashboard-field">
              <label htmlFor={fieldId("name")}>Name</label>
              <p className="dashboard-muted" id="sub-account-name-hint">
                The distributor&apos;s name, as your team knows it: up to 100 characters.
              </p>
              <FieldError id="sub-account-name-error" message={createRefused?.errors.name} />
              <input
                id={fieldId("name")}
                name="name"
                type="text"
                autoComplete="off"
                defaultValue={createRefused?.values.name ?? ""}
                {...refusedAria(createRefused?.errors.name, "sub-account-name-error", "sub-account-name-hint")}
              />
            </div>
            <div className="dashboard-field">
              <label htmlFor={fieldId("revenue_share_bps")}>Revenue share in basis points (optional)</label>
              <p className="dashboard-muted" id="sub-account-rate-hint">
                100 basis points is 1%. Leave it empty to use your master rate, {masterBps.toLocaleString("en-GB")} ({formatShareRate(masterBps)}), which is also
                the most a sub-account may earn.
              </p>
              <FieldError id="sub-account-rate-error" message={createRefused?.errors.revenue_share_bps} />
              <input
                id={fieldId("revenue_share_bps")}
                name="revenue_share_bps"
                type="text"
                inputMode="numeric"
                autoComplete="off"
                className="dashboard-input-short"
                defaultValue={createRefused?.values.revenue_share_bps ?? ""}
                {...refusedAria(createRefused?.errors.revenue_share_bps, "sub-account-rate-error", "sub-account-rate-hint")}
              />
            </div>
            <button type="submit" className="account-button">
              Create sub-account
            </button>
          </form>
        </section>
      ) : null}
    </DashboardShell>
  );
}
