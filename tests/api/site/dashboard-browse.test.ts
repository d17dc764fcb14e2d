// The dashboard's read sections (docs/dashboard.md, "Events, applications and accounts"). Their pages, rendered
// as Next renders them against the real database for a chosen member: someone outside the team, an id that names
// nothing here (unknown, malformed, another project's) and a filter value the list does not know are each a 404
// (the dashboard's "Page not found"), never a 500. The one action, Release decision, over HTTP: an owner releases
// a locked decision (audited); a developer or viewer is refused (403), as is a post without the page's CSRF token,
// from someone outside the team (404), or about an application that is not there.
import { encode } from "next-auth/jwt";
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApplication } from "@/lib/applications/create";
import { submitAsApplicant } from "@/lib/applications/test-helpers";
import { db } from "@/lib/db";
import { lockDecision } from "@/lib/decisions/service";
import { eventRows } from "@/lib/events/events";
import { newId } from "@/lib/ids";
import { appAuthSecret } from "@/lib/oidc/keys";
import { listAuditEntries } from "@/lib/team/audit";
import { addMember } from "@/lib/team/service";
import type { Tenant } from "@/lib/tenant";
import { tenantNow } from "@/lib/tenant-clock";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { postForm, type PostOptions } from "../../helpers/dashboard";
import { expectErrorPage } from "../../helpers/http";
import { createTestProject, untilDecided } from "../../helpers/partner";
import { signInPerson } from "../../helpers/person-tokens";
import { CLIENT_ADDRESS_HEADER } from "../../helpers/sign-in";

// The pages read the signed-in person through next-auth's page reader, which needs Next's request: here, whoever
// the test says is signed in.
const signedIn = vi.hoisted(() => ({ userId: "" }));
vi.mock("@/app/(dashboard)/dashboard/_components/signed-in", () => ({ signedInOrRedirect: async () => signedIn.userId }));

const EventsPage = (await import("@/app/(dashboard)/dashboard/[project]/[environment]/events/page")).default;
const EventPage = (await import("@/app/(dashboard)/dashboard/[project]/[environment]/events/[id]/page")).default;
const ApplicationsPage = (await import("@/app/(dashboard)/dashboard/[project]/[environment]/applications/page")).default;
const ApplicationPage = (await import("@/app/(dashboard)/dashboard/[project]/[environment]/applications/[id]/page")).default;
const AccountsPage = (await import("@/app/(dashboard)/dashboard/[project]/[environment]/accounts/page")).default;
const AccountPage = (await import("@/app/(dashboard)/dashboard/[project]/[environment]/accounts/[id]/page")).default;

const SESSION_COOKIE = "authjs.session-token";

let server: AppServer;
let tenant: Tenant;
let otherTenant: Tenant;
const people = {} as Record<"owner" | "developer" | "viewer" | "stranger", { userId: string; session: string }>;

beforeAll(async () => {
  server = await startAppServer();
  const sso = `${server.url}/sso`;
  process.env.SSO_URL = sso;
  process.env.TRUSTED_PROXY_HEADER = CLIENT_ADDRESS_HEADER;
  tenant = { projectId: (await createTestProject()).project_id, environment: "sandbox" };
  otherTenant = { projectId: (await createTestProject()).project_id, environment: "sandbox" };
  for (const role of ["owner", "developer", "viewer", "stranger"] as const) {
    const person = await signInPerson(sso, { environment: "sandbox" });
    const user = await db().signInUser.findUniqueOrThrow({ where: { id: person.userId } });
    if (role !== "stranger") await addMember({ projectId: tenant.projectId, email: user.email, role }, { actorId: "cli" });
    const session = await encode({ token: { sub: person.userId, accessToken: person.accessToken }, secret: await appAuthSecret(), salt: SESSION_COOKIE });
    people[role] = { userId: person.userId, session };
  }
}, 60_000);
afterAll(() => server?.close());

/** A sandbox application for `companyNumber` (its last four digits choose the sandbox's decision), submitted and decided. */
async function decidedApplication(companyNumber: string, of: Tenant = tenant) {
  const now = await tenantNow(of);
  const created = await createApplication({
    tenant: of,
    now,
    input: { business: { company_number: companyNumber }, amount_pence: 2_500_000, term_months: 12, applicant: { email: "ada@example.co.uk" } },
  });
  await submitAsApplicant({ tenant: of, now, id: created.id });
  const decided = await untilDecided(created.id, async () => {
    const row = await db().application.findUniqueOrThrow({ where: { id: created.id } });
    return { status: row.status, decision: row.decisionId };
  });
  return { applicationId: created.id, decisionId: decided.decision! };
}

/** A declined application whose decision an operator locked, as `cli decision lock` does. */
async function lockedApplication(of: Tenant = tenant) {
  const decided = await decidedApplication("12340001", of);
  await lockDecision(decided.decisionId, "operator", await tenantNow(of));
  return decided;
}

const isLocked = async (decisionId: string) => (await db().decision.findUniqueOrThrow({ where: { id: decisionId } })).lockedAt !== null;

/** A form post as a browser on our page sends it, by the owner unless `session` says whose (null: nobody's). */
const post = (path: string, fields: Record<string, string>, { session, ...options }: Partial<PostOptions> = {}) =>
  postForm(server, path, fields, { session: session === undefined ? people.owner.session : session, ...options });

const applicationPath = (id: string, project = tenant.projectId) => `/dashboard/${project}/sandbox/applications/${id}`;

describe("Release decision", () => {
  it("unlocks an owner's locked decision with the CLI's service, audits who released it and 303s back to the application", async () => {
    const { applicationId, decisionId } = await lockedApplication();
    const response = await post(`${applicationPath(applicationId)}/release-decision`, {});
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`${applicationPath(applicationId)}?released=1`);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await db().decision.findUniqueOrThrow({ where: { id: decisionId } })).toMatchObject({ lockedAt: null, lockedBy: null, outcome: "declined" });
    const entries = (await listAuditEntries({ projectId: tenant.projectId, limit: 500 })).filter((entry) => entry.objectId === decisionId);
    expect(entries.map((entry) => [entry.actorId, entry.action, entry.environment])).toEqual([[people.owner.userId, "decision.released", "sandbox"]]);

    // A second press finds nothing locked: 409, and no second audit row.
    await expectErrorPage(await post(`${applicationPath(applicationId)}/release-decision`, {}), 409, "Sorry, that did not work");
    expect((await listAuditEntries({ projectId: tenant.projectId, limit: 500 })).filter((entry) => entry.objectId === decisionId)).toHaveLength(1);
  });

  it("refuses a developer and a viewer (403 role_forbidden) and leaves the decision locked", async () => {
    const { applicationId, decisionId } = await lockedApplication();
    for (const role of ["developer", "viewer"] as const) {
      const page = await expectErrorPage(await post(`${applicationPath(applicationId)}/release-decision`, {}, { session: people[role].session }), 403, "Sorry, that did not work");
      expect(page).toContain("Your role in this project does not allow this.");
    }
    expect(await isLocked(decisionId)).toBe(true);
  });

  it("refuses a missing (422), a different and a cross-site CSRF token (403) and leaves the decision locked", async () => {
    const { applicationId, decisionId } = await lockedApplication();
    expect((await post(`${applicationPath(applicationId)}/release-decision`, {}, { csrf: "missing" })).status).toBe(422);
    await expectErrorPage(await post(`${applicationPath(applicationId)}/release-decision`, {}, { csrf: "different" }), 403, "Sorry, that did not work");
    await expectErrorPage(await post(`${applicationPath(applicationId)}/release-decision`, {}, { origin: "https://evil.example" }), 403, "Sorry, that did not work");
    expect(await isLocked(decisionId)).toBe(true);
  });

  it("refuses someone not signed in (401), outside the team (404), another project's application, an unknown or malformed id (404) and an unknown field (400)", async () => {
    const { applicationId, decisionId } = await lockedApplication();
    const foreign = await lockedApplication(otherTenant);
    await expectErrorPage(await post(`${applicationPath(applicationId)}/release-decision`, {}, { session: null }), 401, "Sorry, that did not work");
    await expectErrorPage(await post(`${applicationPath(applicationId)}/release-decision`, {}, { session: people.stranger.session }), 404, "Page not found");
    await expectErrorPage(await post(`${applicationPath(foreign.applicationId)}/release-decision`, {}), 404, "Page not found");
    await expectErrorPage(await post(`${applicationPath(foreign.applicationId, otherTenant.projectId)}/release-decision`, {}), 404, "Page not found");
    await expectErrorPage(await post(`${applicationPath(newId("application"))}/release-decision`, {}), 404, "Page not found");
    await expectErrorPage(await post(`${applicationPath("acc_123")}/release-decision`, {}), 404, "Page not found");
    expect((await post(`${applicationPath(applicationId)}/release-decision`, { decision: decisionId })).status).toBe(400);
    expect(await isLocked(decisionId)).toBe(true);
    expect(await isLocked(foreign.decisionId)).toBe(true);
  });

  it("answers 409 for an application with no decision yet", async () => {
    const created = await createApplication({
      tenant,
      now: await tenantNow(tenant),
      input: { business: { company_number: "12990042" }, amount_pence: 2_500_000, term_months: 12, applicant: { email: "ada@example.co.uk" } },
    });
    await expectErrorPage(await post(`${applicationPath(created.id)}/release-decision`, {}), 409, "Sorry, that did not work");
  });
});

type SearchValues = Record<string, string | string[] | undefined>;
type Page = (props: { params: Promise<Record<string, string>>; searchParams: Promise<SearchValues> }) => Promise<unknown>;

/** What the page does for `userId`: renders (resolves), or answers 404 (Next's notFound() throws this digest). */
function open(page: Page, userId: string, params: Record<string, string>, searchParams: SearchValues = {}) {
  signedIn.userId = userId;
  return page({ params: Promise.resolve({ project: tenant.projectId, environment: "sandbox", ...params }), searchParams: Promise.resolve(searchParams) });
}
const NOT_FOUND = { digest: "NEXT_HTTP_ERROR_FALLBACK;404" };

describe("the read pages", () => {
  it("open for every role in the team, and are a 404 to someone outside it", async () => {
    const { applicationId } = await decidedApplication("12340002");
    const event = await db().event.findFirstOrThrow({ where: { projectId: tenant.projectId }, orderBy: { id: "desc" } });
    const pages: Array<[Page, Record<string, string>]> = [
      [EventsPage, {}],
      [EventPage, { id: event.id }],
      [ApplicationsPage, {}],
      [AccountsPage, {}],
    ];
    for (const [page, params] of pages) {
      for (const role of ["owner", "developer", "viewer"] as const) await expect(open(page, people[role].userId, params)).resolves.toBeTruthy();
      await expect(open(page, people.stranger.userId, params)).rejects.toMatchObject(NOT_FOUND);
    }
    await expect(open(ApplicationPage, people.stranger.userId, { id: applicationId })).rejects.toMatchObject(NOT_FOUND);
    await expect(open(AccountPage, people.stranger.userId, { id: newId("account") })).rejects.toMatchObject(NOT_FOUND);
  });

  it("are a 404 for an id that names nothing here: unknown, malformed, or another project's", async () => {
    const foreign = await decidedApplication("12340003", otherTenant);
    const foreignEvent = await db().event.findFirstOrThrow({ where: { projectId: otherTenant.projectId } });
    const viewer = people.viewer.userId;
    for (const id of [newId("event"), "evt_", "app_123", foreignEvent.id]) await expect(open(EventPage, viewer, { id })).rejects.toMatchObject(NOT_FOUND);
    for (const id of [newId("application"), "evt_123", foreign.applicationId]) await expect(open(ApplicationPage, viewer, { id })).rejects.toMatchObject(NOT_FOUND);
    for (const id of [newId("account"), "acc\u0000"]) await expect(open(AccountPage, viewer, { id })).rejects.toMatchObject(NOT_FOUND);
    await expect(open(EventsPage, viewer, { environment: "staging" })).rejects.toMatchObject(NOT_FOUND);
  });

  it("list events 25 at a time, the Older link keeping the filters, and filter by days, both included", async () => {
    const now = await tenantNow(tenant);
    const rows = eventRows(Array.from({ length: 27 }, (_, index) => ({ projectId: tenant.projectId, environment: "sandbox" as const, type: "payout.paid" as const, object: { id: `po_${index}`, object: "payout" }, createdAt: now })));
    await db().event.createMany({ data: rows });
    const html = async (query: SearchValues) => renderToStaticMarkup((await open(EventsPage, people.viewer.userId, {}, query)) as ReactElement).replaceAll("&amp;", "&");
    const listed = (page: string) => page.match(/Payout paid/g)?.length ?? 0;
    const eventsPath = `/dashboard/${tenant.projectId}/sandbox/events`;

    const first = await html({ type: "payout.paid", from: "", to: "" });
    expect(listed(first)).toBe(25);
    // Newest first: the 27th recorded leads; the Older link starts after the 25th shown, keeping the type.
    expect(first.indexOf(rows[26]!.id)).toBeLessThan(first.indexOf(rows[25]!.id));
    expect(first).toContain(`href="${eventsPath}?type=payout.paid&starting_after=${rows[2]!.id}">Older events</a>`);
    expect(first).not.toContain("Newest events");
    const second = await html({ type: "payout.paid", starting_after: rows[2]!.id });
    expect(listed(second)).toBe(2);
    expect(second).toContain(`href="${eventsPath}?type=payout.paid">Newest events</a>`);
    expect(second).not.toContain("Older events");

    const today = now.toISOString().slice(0, 10);
    const yesterday = new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10);
    const tomorrow = new Date(now.getTime() + 86_400_000).toISOString().slice(0, 10);
    expect(listed(await html({ type: "payout.paid", from: today, to: today }))).toBe(25);
    expect(listed(await html({ type: "payout.paid", from: yesterday, to: yesterday }))).toBe(0);
    expect(listed(await html({ type: "payout.paid", from: tomorrow }))).toBe(0);
    expect(await html({ type: "payout.paid", to: yesterday })).toContain("No events match these filters.");
  });

  it("are a 404 for a filter value the list does not know, never a 500", async () => {
    const viewer = people.viewer.userId;
    const refused: Array<[Page, SearchValues]> = [
      [EventsPage, { type: "application.exploded" }],
      [EventsPage, { from: "2026-02-30" }],
      [EventsPage, { from: "27/11/2026" }],
      [EventsPage, { from: "2026-11-27", to: "2026-11-01" }],
      [EventsPage, { type: ["application.created", "decision.completed"] }],
      [EventsPage, { starting_after: newId("event") }],
      [EventsPage, { starting_after: "app_123" }],
      [EventsPage, { limit: "5" }],
      [EventsPage, { created_after: "2026-11-01T00:00:00Z" }],
      [ApplicationsPage, { status: "approvedish" }],
      [ApplicationsPage, { status: "approved\u0000" }],
      [ApplicationsPage, { starting_after: newId("application") }],
      [AccountsPage, { status: "in_arrears", sub_account_id: "sub_1" }],
      [AccountsPage, { status: "overdrawn" }],
    ];
    for (const [page, query] of refused) await expect(open(page, viewer, {}, query), JSON.stringify(query)).rejects.toMatchObject(NOT_FOUND);
    // Empty fields, as a GET form sends them, filter nothing.
    await expect(open(EventsPage, viewer, {}, { type: "", from: "", to: "" })).resolves.toBeTruthy();
    await expect(open(ApplicationsPage, viewer, {}, { status: "" })).resolves.toBeTruthy();
  });
});
