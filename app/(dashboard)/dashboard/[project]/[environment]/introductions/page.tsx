// GET /dashboard/{project}/{environment}/introductions — the environment's introductions (beta; docs/dashboard.md,
// "Sub-accounts, introductions and payouts"), newest first, 25 at a time, filtered by stage and sub-account through
// `GET /partner/v1/introductions`'s own service and query schema: each links its application, and its account once
// funded, with the principal it introduced and the share that earns.
import type { Metadata } from "next";
import { introductionsPageQuerySchema } from "@/lib/dashboard/browse-schemas";
import { dashboardParamsSchema } from "@/lib/dashboard/schemas";
import { formatPounds } from "@/lib/money";
import { listIntroductions } from "@/lib/revenue-share/introductions";
import { INTRODUCTION_STAGES } from "@/lib/revenue-share/schemas";
import { listSubAccounts, subAccountNames } from "@/lib/revenue-share/sub-accounts";
import { MAX_PAGE_SIZE } from "@/lib/wire/pagination";
import { DashboardShell } from "@/app/(dashboard)/dashboard/_components/shell";
import { formatShareRate, INTRODUCTION_STAGE_WORDS } from "@/app/(dashboard)/dashboard/_components/browse-words";
import { when } from "@/app/(dashboard)/dashboard/_components/when";
import { FilterForm, Pager } from "@/app/(dashboard)/dashboard/_components/browse-parts";
import { betaReaderOrNotFound, foundOrNotFound, pageParamsOrNotFound, queryOrNotFound, withQuery } from "@/app/(dashboard)/dashboard/_components/section-page";
import "@/app/(account)/account/account.css";
import "@/app/(dashboard)/dashboard/dashboard.css";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Introductions", robots: { index: false, follow: false } };

/** What the introduction earns: its share once funded; before, its rate; declined, nothing. */
function shareWords(introduction: { stage: string; share_pence: number | null; revenue_share_bps: number }): string {
  if (introduction.share_pence !== null) return formatPounds(introduction.share_pence);
  return introduction.stage === "declined" ? "None" : `${formatShareRate(introduction.revenue_share_bps)} once funded`;
}

type Props = { params: Promise<Record<string, string>>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function IntroductionsPage({ params, searchParams }: Props) {
  const address = pageParamsOrNotFound(dashboardParamsSchema.shape, await params);
  const environmentPath = `/dashboard/${address.project}/${address.environment}`;
  const base = `${environmentPath}/introductions`;
  const { view, member } = await betaReaderOrNotFound(address, base);
  const { query, given } = queryOrNotFound(introductionsPageQuerySchema, await searchParams);
  const { tenant } = member;
  const [introductions, choices] = await Promise.all([
    foundOrNotFound(listIntroductions({ tenant, query, url: base })),
    listSubAccounts({ tenant, query: { limit: MAX_PAGE_SIZE }, url: `${environmentPath}/sub-accounts` }),
  ]);
  const names = await subAccountNames({ tenant, ids: introductions.data.map((introduction) => introduction.sub_account_id) });
  const filters = { stage: given.stage ?? "", sub_account_id: given.sub_account_id ?? "" };
  const filtered = Boolean(filters.stage || filters.sub_account_id);
  const last = introductions.data.at(-1);
  return (
    <DashboardShell view={view} section="introductions">
      <h1>Introductions</h1>
      <p>
        Applications originated through your {address.environment === "sandbox" ? "sandbox" : "live"} sub-accounts (beta), newest first. An introduction
        follows its application; once funded it earns its sub-account&apos;s rate on the principal, paid in the next monthly payout.
      </p>
      <FilterForm action={base} label="Filter introductions" filtered={filtered}>
        <div>
          <label htmlFor="introduction-stage">Stage</label>
          <select id="introduction-stage" name="stage" defaultValue={filters.stage}>
            <option value="">Any stage</option>
            {INTRODUCTION_STAGES.map((stage) => (
              <option key={stage} value={stage}>
                {INTRODUCTION_STAGE_WORDS[stage]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="introduction-sub-account">Sub-account</label>
          <select id="introduction-sub-account" name="sub_account_id" defaultValue={filters.sub_account_id}>
            <option value="">Any sub-account</option>
            {choices.data.map((subAccount) => (
              <option key={subAccount.id} value={subAccount.id}>
                {subAccount.name}
              </option>
            ))}
          </select>
        </div>
      </FilterForm>
      {introductions.data.length === 0 ? (
        <p className="account-empty">
          {filtered || query.starting_after ? "No introductions match these filters." : "No introductions yet: create an application with a sub_account_id to make one."}
        </p>
      ) : (
        <div className="account-table-region" role="region" aria-labelledby="introductions-caption" tabIndex={0}>
          <table className="account-table dashboard-stacked">
            <caption id="introductions-caption">{filtered ? "Introductions matching your filters, newest first" : "Introductions, newest first"}</caption>
            <thead>
              <tr>
                <th scope="col">Introduced</th>
                <th scope="col">Sub-account</th>
                <th scope="col">Application</th>
                <th scope="col">Stage</th>
                <th scope="col" className="account-money">
                  Principal
                </th>
                <th scope="col" className="account-money">
                  Share
                </th>
              </tr>
            </thead>
            <tbody>
              {introductions.data.map((introduction) => (
                <tr key={introduction.id}>
                  <td>
                    {when(introduction.introduced_at)}
                    <br />
                    <span className="dashboard-muted">{introduction.id}</span>
                  </td>
                  <td data-label="Sub-account">{names.get(introduction.sub_account_id) ?? introduction.sub_account_id}</td>
                  <td data-label="Application">
                    <a href={`${environmentPath}/applications/${introduction.application_id}`}>{introduction.application_id}</a>
                    {introduction.account_id ? (
                      <>
                        <br />
                        Account <a href={`${environmentPath}/accounts/${introduction.account_id}`}>{introduction.account_id}</a>
                      </>
                    ) : null}
                  </td>
                  <td data-label="Stage">
                    <span className={introduction.stage === "declined" ? "account-status account-status-attention" : "account-status"}>
                      {INTRODUCTION_STAGE_WORDS[introduction.stage] ?? introduction.stage}
                    </span>
                  </td>
                  <td data-label="Principal" className="account-money">
                    {introduction.principal_pence === null ? (introduction.stage === "declined" ? "None" : "None yet") : formatPounds(introduction.principal_pence)}
                  </td>
                  <td data-label="Share" className="account-money">
                    {shareWords(introduction)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        words="introductions"
        olderHref={introductions.has_more && last ? withQuery(base, { ...filters, starting_after: last.id }) : null}
        newestHref={query.starting_after ? withQuery(base, filters) : null}
      />
    </DashboardShell>
  );
}
