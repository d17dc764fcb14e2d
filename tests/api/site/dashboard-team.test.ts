// The dashboard's Team forms, Revoke all tokens and a publishable key's allowed origins over HTTP (docs/dashboard.md):
// each is refused without the page's CSRF token, to someone outside the team (404) and to every role that lacks it
// (403), and a malformed post is 400 or 422; each success changes what it says, answers 303 back to its page, and
// writes its audit entry with the signed-in person as the actor. A refused answer (an email, a role, an origin) comes
// back to its form in the sealed cookie; the last owner's refusal comes back to the Team page as a message; an
// invitation to an address with no sign-in waits for one, and is a notification to that address.
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRefusedForm } from "@/lib/dashboard/form-errors";
import { FORM_ERRORS_COOKIE } from "@/lib/dashboard/shown-once-cookie";
import { db } from "@/lib/db";
import { appAuthSecret } from "@/lib/oidc/keys";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { listNotifications } from "@/lib/notifications/notifications";
import { inviteMember } from "@/lib/team/invitations";
import { addMember, roleOf } from "@/lib/team/service";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { dashboardTeam, oneViewCookieOf, postForm, useServerForDashboard, type DashboardPerson, type DashboardTeam, type PostOptions } from "../../helpers/dashboard";
import { expectApiError, expectErrorPage } from "../../helpers/http";
import { bearer, createTestProject, mintToken } from "../../helpers/partner";
import { signInPerson } from "../../helpers/person-tokens";
import { createTestUser } from "../../helpers/sign-in";

const SESSION_COOKIE = "authjs.session-token";

let server: AppServer;
let project: ProjectCredentials;
let projectId: string;
let people: DashboardTeam;

beforeAll(async () => {
  server = await startAppServer();
  useServerForDashboard(server);
  project = await createTestProject();
  projectId = project.project_id;
  people = await dashboardTeam(server, projectId);
}, 60_000);
afterAll(() => server?.close());

/** A form post as a browser on our page sends it, by the owner unless `as` says who. */
const post = (path: string, fields: Record<string, string>, { as = "owner", ...options }: Partial<PostOptions> & { as?: DashboardPerson } = {}) =>
  postForm(server, path, fields, { session: people[as].session, ...options });

const base = (environment = "sandbox") => `/dashboard/${projectId}/${environment}`;

/** The 303 back to `location` with the form's refusals, as the owner's next view opens them. */
async function refusedAt(response: Response, location: string, environment: "sandbox" | "live" = "sandbox") {
  expect(response.status).toBe(303);
  expect(response.headers.get("location")).toBe(location);
  return openRefusedForm(oneViewCookieOf(response, FORM_ERRORS_COOKIE), { userId: people.owner.userId, projectId, environment });
}

async function expectSeeOther(response: Response, location: string) {
  expect(response.status).toBe(303);
  expect(response.headers.get("location")).toBe(location);
  expect(response.headers.get("cache-control")).toBe("no-store");
}

/** The project's latest audit entry with this object. */
const auditOf = (objectId: string) => db().dashboardAuditEntry.findFirst({ where: { projectId, objectId }, orderBy: { id: "desc" } });

/** A new sign-in user in the team with `role`; answers their id. */
async function memberWith(role: "owner" | "developer" | "viewer"): Promise<string> {
  const user = await createTestUser();
  await addMember({ projectId, email: user.email, role }, { actorId: "cli" });
  return user.id;
}

/** Each action's form, with good fields: the refusals below are the same for all of them. */
async function actions(): Promise<Array<{ name: string; path: string; fields: Record<string, string>; allowed: string[] }>> {
  const target = await memberWith("viewer");
  const publishable = await db().apiKey.findFirstOrThrow({ where: { projectId, environment: "sandbox", type: "publishable" } });
  const invitation = await inviteMember({ projectId, email: `pending.${Date.now()}.${Math.random()}@example.test`, role: "viewer" }, { actorId: "cli" });
  if (invitation.outcome !== "pending") throw new Error("expected a pending invitation");
  return [
    { name: "Invite", path: `${base()}/team/invite`, fields: { email: `invitee.${Date.now()}@example.test`, role: "viewer" }, allowed: ["owner"] },
    { name: "Change role", path: `${base()}/team/${target}/role`, fields: { role: "developer" }, allowed: ["owner"] },
    { name: "Remove", path: `${base()}/team/${target}/remove/confirm`, fields: {}, allowed: ["owner"] },
    { name: "Cancel invitation", path: `${base()}/team/invitations/${invitation.invitationId}/cancel`, fields: {}, allowed: ["owner"] },
    { name: "Revoke all tokens", path: `${base()}/keys/revoke-tokens/confirm`, fields: {}, allowed: ["owner"] },
    { name: "Allowed origins", path: `${base()}/keys/${publishable.id}/origins`, fields: { allowed_origins: "https://shop.example.com" }, allowed: ["owner", "developer"] },
  ];
}

describe("every action's refusals", () => {
  it("refuses each role that lacks the action with 403 role_forbidden, and changes nothing", async () => {
    const all = await actions();
    const before = await db().dashboardAuditEntry.count({ where: { projectId } });
    for (const action of all) {
      for (const role of (["developer", "viewer"] as const).filter((role) => !action.allowed.includes(role))) {
        const page = await expectErrorPage(await post(action.path, action.fields, { as: role }), 403, "Sorry, that did not work");
        expect(page, `${action.name} as ${role}`).toContain("Your role in this project does not allow this.");
      }
    }
    expect(await db().dashboardAuditEntry.count({ where: { projectId } })).toBe(before);
  });

  it("answers someone outside the team with 404, and a missing, different or cross-site CSRF token with 422 or 403", async () => {
    for (const action of await actions()) {
      await expectErrorPage(await post(action.path, action.fields, { as: "stranger" }), 404, "Page not found");
      expect((await post(action.path, action.fields, { csrf: "missing" })).status).toBe(422);
      await expectErrorPage(await post(action.path, action.fields, { csrf: "different" }), 403, "Sorry, that did not work");
      await expectErrorPage(await post(action.path, action.fields, { origin: "https://evil.example" }), 403, "Sorry, that did not work");
    }
  });
});

describe("Invite", () => {
  it("adds someone who has a sign-in at once, notifies their address, and audits it as the owner's", async () => {
    const invitee = await createTestUser();
    await expectSeeOther(await post(`${base()}/team/invite`, { email: invitee.email.toUpperCase(), role: "developer" }), `${base()}/team?done=added`);
    expect(await roleOf({ projectId, userId: invitee.id })).toBe("developer");
    expect(await auditOf(invitee.id)).toMatchObject({ actorId: people.owner.userId, action: "member.added", environment: null });
    const [notification] = (await listNotifications({ projectId, limit: 50 })).filter((row) => row.recipient_email === invitee.email);
    expect(notification).toMatchObject({ kind: "team_invitation", sent_at: null, subject: expect.stringMatching(/^You are invited to the Test Partner .* team on the Lending Platform dashboard$/) });
    expect(notification!.body).toContain("added you to its team as a developer");
  });

  it("holds an invitation for an address with no sign-in, which joins the team when its sign-in is created", async () => {
    const email = `new.partner.${Date.now()}@example.test`;
    await expectSeeOther(await post(`${base()}/team/invite`, { email, role: "viewer" }), `${base()}/team?done=invited`);
    const invitation = await db().teamInvitation.findUniqueOrThrow({ where: { projectId_email: { projectId, email } } });
    expect(invitation).toMatchObject({ role: "viewer", invitedBy: people.owner.userId });
    expect(await auditOf(invitation.id)).toMatchObject({ actorId: people.owner.userId, action: "member.invited" });
    const [notification] = (await listNotifications({ projectId, limit: 50 })).filter((row) => row.recipient_email === email);
    expect(notification!.body).toContain("You do not have a Lending Platform sign-in with this address yet");
    // The audit log keeps ids only.
    expect(JSON.stringify(await db().dashboardAuditEntry.findMany({ where: { projectId } }))).not.toContain(email);

    // Inviting the address again is a message on the Team page.
    await expectSeeOther(await post(`${base()}/team/invite`, { email, role: "owner" }), `${base()}/team?problem=already_in_team`);

    const user = await createTestUser({ email });
    expect(await roleOf({ projectId, userId: user.id })).toBe("viewer");
    expect(await db().teamInvitation.count({ where: { email } })).toBe(0);
    expect(await auditOf(user.id)).toMatchObject({ actorId: people.owner.userId, action: "member.added" });
  });

  it("cancels a pending invitation, audited as the owner's, so the address does not join when its sign-in is created", async () => {
    const email = `withdrawn.${Date.now()}@example.test`;
    await expectSeeOther(await post(`${base()}/team/invite`, { email, role: "developer" }), `${base()}/team?done=invited`);
    const invitation = await db().teamInvitation.findUniqueOrThrow({ where: { projectId_email: { projectId, email } } });
    await expectSeeOther(await post(`${base()}/team/invitations/${invitation.id}/cancel`, {}), `${base()}/team?done=invitation_cancelled`);
    expect(await auditOf(invitation.id)).toMatchObject({ actorId: people.owner.userId, action: "member.invitation_cancelled" });
    await expectErrorPage(await post(`${base()}/team/invitations/${invitation.id}/cancel`, {}), 404, "Page not found");
    const user = await createTestUser({ email });
    expect(await roleOf({ projectId, userId: user.id })).toBeNull();
  });

  it("answers someone already in the team with the Team page's message", async () => {
    const email = (await db().signInUser.findUniqueOrThrow({ where: { id: people.viewer.userId } })).email;
    await expectSeeOther(await post(`${base()}/team/invite`, { email, role: "owner" }), `${base()}/team?problem=already_in_team`);
    expect(await roleOf({ projectId, userId: people.viewer.userId })).toBe("viewer");
  });

  it("brings an address that is not one and a role that does not exist back to the form, as typed; refuses an unknown field (400)", async () => {
    const team = `${base()}/team`;
    const longEmail = `${"a".repeat(250)}@example.test`;
    const refusals: Array<[Record<string, string>, Array<{ field: string; message: string }>]> = [
      [{ email: "not an address", role: "viewer" }, [{ field: "email", message: "Enter an email address in the correct format, like name@example.com" }]],
      [{ email: "  ", role: "viewer" }, [{ field: "email", message: "Enter the email address of the person to invite" }]],
      [{ email: longEmail, role: "viewer" }, [{ field: "email", message: "The email address must be at most 254 characters" }]],
      [{ email: "someone@example.test", role: "admin" }, [{ field: "role", message: "Choose a role: owner, developer or viewer" }]],
      [{ email: "", role: "" }, [{ field: "email", message: "Enter the email address of the person to invite" }, { field: "role", message: "Choose a role: owner, developer or viewer" }]],
    ];
    for (const [fields, errors] of refusals) {
      expect(await refusedAt(await post(`${team}/invite`, fields), team), JSON.stringify(fields)).toEqual({ form: "invite", values: fields, errors });
    }
    // A field left out reads as left empty.
    expect(await refusedAt(await post(`${team}/invite`, { role: "viewer" }), team)).toEqual({
      form: "invite",
      values: { role: "viewer" },
      errors: [{ field: "email", message: "Enter the email address of the person to invite" }],
    });
    expect((await post(`${team}/invite`, { email: "someone@example.test", role: "viewer", project: "proj_x" })).status).toBe(400);
    expect(await db().teamInvitation.count({ where: { email: { in: ["someone@example.test", longEmail] } } })).toBe(0);
    // Only the owner who posted, in that project and environment, can open the refusal.
    const sealed = oneViewCookieOf(await post(`${team}/invite`, { email: "nope", role: "viewer" }), FORM_ERRORS_COOKIE);
    expect(await openRefusedForm(sealed, { userId: people.developer.userId, projectId, environment: "sandbox" })).toBeNull();
    expect(await openRefusedForm(sealed, { userId: people.owner.userId, projectId, environment: "live" })).toBeNull();
  });
});

describe("Change role and Remove", () => {
  it("changes a member's role, audited as the owner's", async () => {
    const target = await memberWith("viewer");
    await expectSeeOther(await post(`${base()}/team/${target}/role`, { role: "developer" }), `${base()}/team?done=role_changed`);
    expect(await roleOf({ projectId, userId: target })).toBe("developer");
    expect(await auditOf(target)).toMatchObject({ actorId: people.owner.userId, action: "member.role_changed" });
  });

  it("removes a member, audited as the owner's", async () => {
    const target = await memberWith("developer");
    await expectSeeOther(await post(`${base()}/team/${target}/remove/confirm`, {}), `${base()}/team?done=removed`);
    expect(await roleOf({ projectId, userId: target })).toBeNull();
    expect(await auditOf(target)).toMatchObject({ actorId: people.owner.userId, action: "member.removed" });
  });

  it("keeps the last owner: demoting or removing them comes back to the Team page with the message", async () => {
    const solo = await createTestProject();
    const owner = await signInPerson(`${server.url}/sso`, { environment: "sandbox" });
    const email = (await db().signInUser.findUniqueOrThrow({ where: { id: owner.userId } })).email;
    await addMember({ projectId: solo.project_id, email, role: "owner" }, { actorId: "cli" });
    const session = await encode({ token: { sub: owner.userId, accessToken: owner.accessToken }, secret: await appAuthSecret(), salt: SESSION_COOKIE });
    const soloBase = `/dashboard/${solo.project_id}/sandbox/team`;
    const asSoloOwner = (path: string, fields: Record<string, string>) => postForm(server, path, fields, { session });
    await expectSeeOther(await asSoloOwner(`${soloBase}/${owner.userId}/role`, { role: "developer" }), `${soloBase}?problem=last_owner`);
    await expectSeeOther(await asSoloOwner(`${soloBase}/${owner.userId}/remove/confirm`, {}), `${soloBase}?problem=last_owner`);
    expect(await roleOf({ projectId: solo.project_id, userId: owner.userId })).toBe("owner");
  });

  it("answers a member id not in the team with 404, and brings a role that does not exist back to that member's form", async () => {
    const outsider = await createTestUser();
    await expectErrorPage(await post(`${base()}/team/${outsider.id}/role`, { role: "viewer" }), 404, "Page not found");
    await expectErrorPage(await post(`${base()}/team/${outsider.id}/remove/confirm`, {}), 404, "Page not found");
    expect(await refusedAt(await post(`${base()}/team/${people.viewer.userId}/role`, { role: "superuser" }), `${base()}/team`)).toEqual({
      form: `role-${people.viewer.userId}`,
      values: { role: "superuser" },
      errors: [{ field: "role", message: "Choose a role: owner, developer or viewer" }],
    });
    expect(await roleOf({ projectId, userId: people.viewer.userId })).toBe("viewer");
  });
});

describe("Revoke all tokens", () => {
  it("makes a token issued before answer 401 token_revoked, in this environment only, audited as the owner's", async () => {
    const sandboxToken = await mintToken(server.url, project);
    const liveToken = await mintToken(server.url, project, { environment: "live" });
    expect((await fetch(`${server.url}/partner/v1/keys`, bearer(sandboxToken))).status).toBe(200);
    await expectSeeOther(await post(`${base()}/keys/revoke-tokens/confirm`, {}), `${base()}/keys?tokens=revoked`);
    await expectApiError(await fetch(`${server.url}/partner/v1/keys`, bearer(sandboxToken)), 401, "token_revoked");
    expect((await fetch(`${server.url}/partner/v1/keys`, bearer(liveToken))).status).toBe(200);
    expect(await auditOf(projectId)).toMatchObject({ actorId: people.owner.userId, action: "tokens.revoked", environment: "sandbox" });
  });
});

describe("Allowed origins", () => {
  it("saves one origin a line for a developer, empties the list when sent empty, audited as theirs", async () => {
    const key = await db().apiKey.findFirstOrThrow({ where: { projectId, environment: "sandbox", type: "publishable" } });
    const response = await post(`${base()}/keys/${key.id}/origins`, { allowed_origins: "https://shop.example.com\r\n\r\n  http://localhost:3000  \r\n" }, { as: "developer" });
    await expectSeeOther(response, `${base()}/keys?origins=${key.id}`);
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: key.id } })).allowedOrigins).toEqual(["https://shop.example.com", "http://localhost:3000"]);
    expect(await auditOf(key.id)).toMatchObject({ actorId: people.developer.userId, action: "key.origins_changed", environment: "sandbox" });
    await expectSeeOther(await post(`${base()}/keys/${key.id}/origins`, { allowed_origins: "" }), `${base()}/keys?origins=${key.id}`);
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: key.id } })).allowedOrigins).toEqual([]);
  });

  it("brings a bad origin back to the key's form, as typed; refuses a secret key with 422 and the other environment's key with 401", async () => {
    const key = await db().apiKey.findFirstOrThrow({ where: { projectId, environment: "sandbox", type: "publishable" } });
    await expectSeeOther(await post(`${base()}/keys/${key.id}/origins`, { allowed_origins: "https://kept.example.com" }), `${base()}/keys?origins=${key.id}`);
    const notAnOrigin = "must be an origin such as https://shop.example.com: https, lower case, no path (plain http only for localhost)";
    const refusals = {
      "http://shop.example.com": `Line 1 ${notAnOrigin}`,
      "https://shop.example.com\n\nhttps://shop.example.com/path": `Line 3 ${notAnOrigin}`,
      "https://Shop.example.com": `Line 1 ${notAnOrigin}`,
      [Array.from({ length: 21 }, (_, index) => `https://s${index}.example.com`).join("\n")]: "Enter at most 20 origins, one a line",
      "https://shop.example.com\nhttps://shop.example.com": "Enter each origin once",
    };
    for (const [origins, message] of Object.entries(refusals)) {
      expect(await refusedAt(await post(`${base()}/keys/${key.id}/origins`, { allowed_origins: origins }), `${base()}/keys`), origins).toEqual({
        form: `origins-${key.id}`,
        values: { allowed_origins: origins },
        errors: [{ field: "allowed_origins", message }],
      });
    }
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: key.id } })).allowedOrigins).toEqual(["https://kept.example.com"]);
    expect((await post(`${base()}/keys/${key.id}/origins`, {})).status).toBe(422);
    const secret = await db().apiKey.findFirstOrThrow({ where: { projectId, environment: "sandbox", type: "secret" } });
    expect((await post(`${base()}/keys/${secret.id}/origins`, { allowed_origins: "https://shop.example.com" })).status).toBe(422);
    await expectErrorPage(await post(`${base("live")}/keys/${key.id}/origins`, { allowed_origins: "https://shop.example.com" }), 401, "Sorry, that did not work");
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: secret.id } })).allowedOrigins).toEqual([]);
  });

  it("brings http://localhost on a live key back to its form, and saves the live key's https origins", async () => {
    const key = await db().apiKey.findFirstOrThrow({ where: { projectId, environment: "live", type: "publishable" } });
    const origins = "https://shop.example.com\nhttp://localhost:3000";
    expect(await refusedAt(await post(`${base("live")}/keys/${key.id}/origins`, { allowed_origins: origins }), `${base("live")}/keys`, "live")).toEqual({
      form: `origins-${key.id}`,
      values: { allowed_origins: origins },
      errors: [{ field: "allowed_origins", message: "Remove http://localhost:3000: a live key's origins must be https (http://localhost is for sandbox keys)" }],
    });
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: key.id } })).allowedOrigins).toEqual([]);
    await expectSeeOther(await post(`${base("live")}/keys/${key.id}/origins`, { allowed_origins: "https://shop.example.com" }), `${base("live")}/keys?origins=${key.id}`);
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: key.id } })).allowedOrigins).toEqual(["https://shop.example.com"]);
  });
});
