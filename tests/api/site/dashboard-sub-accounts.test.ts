// The dashboard's Create sub-account form over HTTP (beta; docs/dashboard.md, "Sub-accounts, introductions and
// payouts"): a developer or an owner makes a sub-account with the API's service (its rate the master rate unless
// named), audited as theirs, and lands back on the Sub-accounts page naming it. Refused answers (no name, a rate that
// is not a whole number, one above the master rate) come back to the form in the sealed cookie with the answers as
// typed and nothing made; a viewer is refused (403), someone outside the team and a project without the beta
// capability answer 404, and a missing or foreign CSRF token 422 or 403.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRefusedForm } from "@/lib/dashboard/form-errors";
import { FORM_ERRORS_COOKIE } from "@/lib/dashboard/shown-once-cookie";
import { db } from "@/lib/db";
import { changeProjectCapabilities } from "@/lib/projects/capabilities";
import { setMasterRevenueShare } from "@/lib/revenue-share/sub-accounts";
import { addMember } from "@/lib/team/service";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { dashboardTeam, oneViewCookieOf, postForm, useServerForDashboard, type DashboardPerson, type DashboardTeam, type PostOptions } from "../../helpers/dashboard";
import { expectErrorPage } from "../../helpers/http";
import { createTestProject } from "../../helpers/partner";

const MASTER_BPS = 250;

let server: AppServer;
let projectId: string;
let people: DashboardTeam;

beforeAll(async () => {
  server = await startAppServer();
  useServerForDashboard(server);
  projectId = (await createTestProject()).project_id;
  await changeProjectCapabilities(db(), projectId, { enable: ["beta"] });
  await setMasterRevenueShare(db(), projectId, MASTER_BPS);
  people = await dashboardTeam(server, projectId);
}, 60_000);
afterAll(() => server?.close());

const pagePath = (project = projectId, environment = "sandbox") => `/dashboard/${project}/${environment}/sub-accounts`;

/** A post of the form as a browser on the page sends it, by the owner unless `as` says who. */
const create = (fields: Record<string, string>, { as = "owner", project = projectId, environment = "sandbox", ...options }: Partial<PostOptions> & { as?: DashboardPerson; project?: string; environment?: string } = {}) =>
  postForm(server, `${pagePath(project, environment)}/create`, fields, { session: people[as].session, ...options });

const subAccountsNamed = (name: string) => db().subAccount.findMany({ where: { projectId, name } });

/** The 303 back to the page with the form's refusals, as the owner's next view opens them. */
async function refused(response: Response) {
  expect(response.status).toBe(303);
  expect(response.headers.get("location")).toBe(pagePath());
  return openRefusedForm(oneViewCookieOf(response, FORM_ERRORS_COOKIE), { userId: people.owner.userId, projectId, environment: "sandbox" });
}

describe("Create sub-account", () => {
  it("makes a sub-account at the master rate when none is named, audited as the owner's, and 303s back to the page naming it", async () => {
    const response = await create({ name: "Northside Brokers", revenue_share_bps: "" });
    expect(response.status).toBe(303);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const [made] = await subAccountsNamed("Northside Brokers");
    expect(made).toMatchObject({ projectId, environment: "sandbox", revenueShareBps: MASTER_BPS });
    expect(response.headers.get("location")).toBe(`${pagePath()}?created=${made!.id}`);
    const audit = await db().dashboardAuditEntry.findFirstOrThrow({ where: { projectId, objectId: made!.id } });
    expect(audit).toMatchObject({ actorId: people.owner.userId, action: "sub_account.created", environment: "sandbox" });
  });

  it("takes a developer's rate up to the master rate, trimmed, in the environment of the address", async () => {
    expect((await create({ name: "  Marketplace sellers  ", revenue_share_bps: " 120 " }, { as: "developer", environment: "live" })).status).toBe(303);
    expect((await create({ name: "At the master rate", revenue_share_bps: String(MASTER_BPS) }, { as: "developer" })).status).toBe(303);
    expect(await subAccountsNamed("Marketplace sellers")).toEqual([expect.objectContaining({ environment: "live", revenueShareBps: 120 })]);
    expect(await subAccountsNamed("At the master rate")).toEqual([expect.objectContaining({ environment: "sandbox", revenueShareBps: MASTER_BPS })]);
  });

  it("brings a rate above the master rate back to its field, saying what the master rate is, and makes nothing", async () => {
    const form = await refused(await create({ name: "Too generous", revenue_share_bps: "251" }));
    expect(form).toEqual({
      form: "create-sub-account",
      values: { name: "Too generous", revenue_share_bps: "251" },
      errors: [{ field: "revenue_share_bps", message: "Revenue share must be at most your master rate, 250 basis points (2.50%); leave it empty to use that rate" }],
    });
    expect(await subAccountsNamed("Too generous")).toEqual([]);
  });

  it("brings back a missing name and a rate that is not a whole number of basis points, in the form's order, with the answers as typed", async () => {
    const before = await db().subAccount.count({ where: { projectId } });
    expect(await refused(await create({ name: "   ", revenue_share_bps: "1.5" }))).toEqual({
      form: "create-sub-account",
      values: { name: "   ", revenue_share_bps: "1.5" },
      errors: [
        { field: "name", message: "Enter the sub-account's name" },
        { field: "revenue_share_bps", message: "Revenue share must be a whole number of basis points, from 0 to 10,000" },
      ],
    });
    expect((await refused(await create({ name: "x".repeat(101) })))!.errors).toEqual([{ field: "name", message: "The name must be at most 100 characters" }]);
    expect((await refused(await create({ name: "Big", revenue_share_bps: "10001" })))!.errors).toEqual([
      { field: "revenue_share_bps", message: "Revenue share must be at most 10,000 basis points (100%)" },
    ]);
    expect((await refused(await create({ name: "Negative", revenue_share_bps: "-5" })))!.errors).toEqual([
      { field: "revenue_share_bps", message: "Revenue share must be a whole number of basis points, from 0 to 10,000" },
    ]);
    expect(await db().subAccount.count({ where: { projectId } })).toBe(before);
  });

  it("refuses a viewer (403 role_forbidden), someone outside the team (404) and a bad CSRF token (422, 403), making nothing", async () => {
    const fields = { name: "Refused", revenue_share_bps: "" };
    const page = await expectErrorPage(await create(fields, { as: "viewer" }), 403, "Sorry, that did not work");
    expect(page).toContain("Your role in this project does not allow this.");
    await expectErrorPage(await create(fields, { as: "stranger" }), 404, "Page not found");
    expect((await create(fields, { csrf: "missing" })).status).toBe(422);
    await expectErrorPage(await create(fields, { csrf: "different" }), 403, "Sorry, that did not work");
    await expectErrorPage(await create(fields, { origin: "https://evil.example" }), 403, "Sorry, that did not work");
    expect(await subAccountsNamed("Refused")).toEqual([]);
  });

  it("answers 404 in a project without the beta capability, and makes nothing there", async () => {
    const plain = (await createTestProject()).project_id;
    const owner = await db().signInUser.findUniqueOrThrow({ where: { id: people.owner.userId } });
    await addMember({ projectId: plain, email: owner.email, role: "owner" }, { actorId: "cli" });
    await expectErrorPage(await create({ name: "Without beta" }, { project: plain }), 404, "Page not found");
    expect(await db().subAccount.count({ where: { projectId: plain } })).toBe(0);
  });
});
