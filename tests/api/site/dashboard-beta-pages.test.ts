// The dashboard's beta pages (docs/dashboard.md, "Sub-accounts, introductions and payouts"), rendered as Next renders
// them against the real database for a chosen member. They exist only in a project with the beta capability (else,
// like an address outside the team, a 404); the Sub-accounts page counts each sub-account's introductions by stage;
// the Introductions list goes 25 at a time, its Older link keeping the filters; and an address or filter that names
// nothing here (an unknown stage, a malformed sub-account, a parameter the page does not take, another project's or
// the other environment's payout) is a 404, never a 500.
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApplication } from "@/lib/applications/create";
import { submitAsApplicant } from "@/lib/applications/test-helpers";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { changeProjectCapabilities } from "@/lib/projects/capabilities";
import { createSubAccount } from "@/lib/revenue-share/sub-accounts";
import { addMember } from "@/lib/team/service";
import type { Tenant } from "@/lib/tenant";
import { tenantNow } from "@/lib/tenant-clock";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { createTestProject, untilDecided } from "../../helpers/partner";
import { signInPerson } from "../../helpers/person-tokens";

// The pages read the signed-in person through next-auth's page reader, which needs Next's request: here, whoever
// the test says is signed in.
const signedIn = vi.hoisted(() => ({ userId: "" }));
vi.mock("@/app/(dashboard)/dashboard/_components/signed-in", () => ({ signedInOrRedirect: async () => signedIn.userId }));
// The Sub-accounts page reads the refused-form cookie and the CSRF cookie from Next's request: none here.
vi.mock("next/headers", () => ({ cookies: async () => ({ get: () => undefined }) }));
vi.mock("@/app/_auth/signed-in-user", () => ({ signedInUserIdOfPage: async () => signedIn.userId }));

const SubAccountsPage = (await import("@/app/(dashboard)/dashboard/[project]/[environment]/sub-accounts/page")).default;
const IntroductionsPage = (await import("@/app/(dashboard)/dashboard/[project]/[environment]/introductions/page")).default;
const PayoutsPage = (await import("@/app/(dashboard)/dashboard/[project]/[environment]/payouts/page")).default;
const PayoutPage = (await import("@/app/(dashboard)/dashboard/[project]/[environment]/payouts/[id]/page")).default;

let server: AppServer;
let tenant: Tenant;
let plainProjectId: string;
let otherTenant: Tenant;
const people = {} as Record<"viewer" | "stranger", string>;
let northside: string;
let harbour: string;
/** Northside's introductions, oldest first. */
let northsideIntroductions: string[];

/** An application through `subAccountId` for `companyNumber`, made (and, with `decide`, submitted and decided). */
async function introduced(subAccountId: string, companyNumber: string, { decide = false }: { decide?: boolean } = {}) {
  const now = await tenantNow(tenant);
  const created = await createApplication({
    tenant,
    now,
    input: { business: { company_number: companyNumber }, amount_pence: 2_500_000, term_months: 12, applicant: { email: "ada@example.co.uk" }, sub_account_id: subAccountId },
  });
  if (decide) {
    await submitAsApplicant({ tenant, now, id: created.id });
    await untilDecided(created.id, async () => {
      const row = await db().application.findUniqueOrThrow({ where: { id: created.id } });
      return { status: row.status, decision: row.decisionId };
    });
  }
  return db().introduction.findUniqueOrThrow({ where: { applicationId: created.id } });
}

/** A paid payout of the sub-account, as a row: the pages read it as they read any. */
async function payoutOf(subAccountId: string, of: Tenant) {
  const now = await tenantNow(of);
  return db().payout.create({
    data: { id: newId("payout"), ...of, subAccountId, period: "2026-10", status: "paid", grossPence: 0n, introductionCount: 0, paidAt: now, createdAt: now, updatedAt: now },
  });
}

beforeAll(async () => {
  server = await startAppServer();
  const sso = `${server.url}/sso`;
  process.env.SSO_URL = sso;
  tenant = { projectId: (await createTestProject()).project_id, environment: "sandbox" };
  otherTenant = { projectId: (await createTestProject()).project_id, environment: "sandbox" };
  plainProjectId = (await createTestProject()).project_id;
  for (const projectId of [tenant.projectId, otherTenant.projectId]) await changeProjectCapabilities(db(), projectId, { enable: ["beta"] });
  for (const role of ["viewer", "stranger"] as const) {
    const person = await signInPerson(sso, { environment: "sandbox" });
    const user = await db().signInUser.findUniqueOrThrow({ where: { id: person.userId } });
    if (role === "viewer") for (const projectId of [tenant.projectId, plainProjectId]) await addMember({ projectId, email: user.email, role }, { actorId: "cli" });
    people[role] = person.userId;
  }
  const now = await tenantNow(tenant);
  northside = (await createSubAccount({ tenant, now, input: { name: "Northside Brokers", revenue_share_bps: 75 } })).id;
  harbour = (await createSubAccount({ tenant, now, input: { name: "Harbour & Co" } })).id;
  northsideIntroductions = [];
  for (let index = 0; index < 27; index += 1) northsideIntroductions.push((await introduced(northside, `1299${String(index).padStart(4, "0")}`)).id);
  await introduced(harbour, "12340001", { decide: true });
  await introduced(harbour, "12990100");
}, 120_000);
afterAll(() => server?.close());

type SearchValues = Record<string, string | string[] | undefined>;
type Page = (props: { params: Promise<Record<string, string>>; searchParams: Promise<SearchValues> }) => Promise<unknown>;

/** What the page does for `userId`: renders (resolves), or answers 404 (Next's notFound() throws this digest). */
function open(page: Page, userId: string, params: Record<string, string> = {}, searchParams: SearchValues = {}) {
  signedIn.userId = userId;
  return page({ params: Promise.resolve({ project: tenant.projectId, environment: "sandbox", ...params }), searchParams: Promise.resolve(searchParams) });
}
const html = async (page: Page, params: Record<string, string> = {}, query: SearchValues = {}) =>
  renderToStaticMarkup((await open(page, people.viewer, params, query)) as ReactElement).replaceAll("&amp;", "&");
const NOT_FOUND = { digest: "NEXT_HTTP_ERROR_FALLBACK;404" };

describe("the beta pages", () => {
  it("open for a member of a project with the beta capability, and are a 404 without it or outside the team", async () => {
    const payout = await payoutOf(harbour, tenant);
    const pages: Array<[Page, Record<string, string>]> = [
      [SubAccountsPage, {}],
      [IntroductionsPage, {}],
      [PayoutsPage, {}],
      [PayoutPage, { id: payout.id }],
    ];
    for (const [page, params] of pages) {
      await expect(open(page, people.viewer, params)).resolves.toBeTruthy();
      await expect(open(page, people.viewer, { ...params, project: plainProjectId })).rejects.toMatchObject(NOT_FOUND);
      await expect(open(page, people.stranger, params)).rejects.toMatchObject(NOT_FOUND);
    }
    // The nav names them in a beta project only.
    expect(await html(PayoutsPage)).toContain(`href="/dashboard/${tenant.projectId}/sandbox/sub-accounts"`);
  });

  it("show each sub-account's rate to two decimals and its introductions by stage, without a form for a viewer", async () => {
    const page = await html(SubAccountsPage);
    expect(page).toContain("Your master rate is <strong>1.00%</strong>");
    const row = (name: string) => page.slice(page.indexOf(name), page.indexOf("</tr>", page.indexOf(name)));
    expect(row("Northside Brokers")).toContain("0.75%");
    expect(row("Northside Brokers").match(/>(Started|Decisioned|Funded|Declined): \d+</g)).toEqual([">Started: 27<", ">Decisioned: 0<", ">Funded: 0<", ">Declined: 0<"]);
    expect(row("Harbour & Co")).toContain("1.00%");
    expect(row("Harbour & Co").match(/>(Started|Decisioned|Funded|Declined): \d+</g)).toEqual([">Started: 1<", ">Decisioned: 0<", ">Funded: 0<", ">Declined: 1<"]);
    expect(row("Harbour & Co")).toContain(`href="/dashboard/${tenant.projectId}/sandbox/introductions?stage=declined&sub_account_id=${harbour}"`);
    expect(page).not.toContain("Create sub-account");
  });

  it("list introductions 25 at a time, filtered by sub-account and stage, the Older link keeping the filters", async () => {
    const base = `/dashboard/${tenant.projectId}/sandbox/introductions`;
    const listed = (page: string) => page.match(/<td>[^<]*<br\/><span class="dashboard-muted">intro_/g)?.length ?? 0;
    const first = await html(IntroductionsPage, {}, { stage: "started", sub_account_id: northside });
    expect(listed(first)).toBe(25);
    expect(first.indexOf(northsideIntroductions[26]!)).toBeLessThan(first.indexOf(northsideIntroductions[25]!));
    expect(first).toContain(`href="${base}?stage=started&sub_account_id=${northside}&starting_after=${northsideIntroductions[2]}">Older introductions</a>`);
    const second = await html(IntroductionsPage, {}, { stage: "started", sub_account_id: northside, starting_after: northsideIntroductions[2] });
    expect(listed(second)).toBe(2);
    expect(second).toContain(`href="${base}?stage=started&sub_account_id=${northside}">Newest introductions</a>`);
    const declined = await html(IntroductionsPage, {}, { stage: "declined", sub_account_id: "" });
    expect(listed(declined)).toBe(1);
    expect(declined).toContain("Harbour & Co");
    expect(await html(IntroductionsPage, {}, { stage: "funded" })).toContain("No introductions match these filters.");
  });

  it("are a 404 for a filter value or an id that names nothing here, never a 500", async () => {
    const viewer = people.viewer;
    const refused: Array<[Page, SearchValues]> = [
      [IntroductionsPage, { stage: "approved" }],
      [IntroductionsPage, { sub_account_id: "sub_" }],
      [IntroductionsPage, { sub_account_id: "acc_123" }],
      [IntroductionsPage, { starting_after: newId("introduction") }],
      [IntroductionsPage, { limit: "5" }],
      [SubAccountsPage, { created: "po_123" }],
      [SubAccountsPage, { starting_after: newId("subAccount") }],
      [PayoutsPage, { status: "paid" }],
    ];
    for (const [page, query] of refused) await expect(open(page, viewer, {}, query), JSON.stringify(query)).rejects.toMatchObject(NOT_FOUND);
    const liveSubAccount = await createSubAccount({ tenant: { ...tenant, environment: "live" }, now: await tenantNow(tenant), input: { name: "Live only" } });
    const otherSubAccount = await createSubAccount({ tenant: otherTenant, now: await tenantNow(otherTenant), input: { name: "Someone else's" } });
    const ids = [newId("payout"), "po_", "sub_123", (await payoutOf(liveSubAccount.id, { ...tenant, environment: "live" })).id, (await payoutOf(otherSubAccount.id, otherTenant)).id];
    for (const id of ids) await expect(open(PayoutPage, viewer, { id }), id).rejects.toMatchObject(NOT_FOUND);
  });
});
