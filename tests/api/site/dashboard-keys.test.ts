// The dashboard's API key forms over HTTP (docs/dashboard.md): a signed-in member posts plain HTML forms that call
// the keys services; each is refused without the page's CSRF token, to anyone not signed in or not in the team,
// and to a role that lacks it; a new secret travels only in the sealed shown-once cookie of the 303.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { openRefusedForm } from "@/lib/dashboard/form-errors";
import { openShownOnce, SHOWN_ONCE_COOKIE } from "@/lib/dashboard/shown-once";
import { FORM_ERRORS_COOKIE } from "@/lib/dashboard/shown-once-cookie";
import { hashSecret } from "@/lib/keys/secrets";
import { listAuditEntries } from "@/lib/team/audit";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { dashboardTeam, oneViewCookieOf, postForm, useServerForDashboard, type DashboardTeam, type PostOptions } from "../../helpers/dashboard";
import { expectErrorPage } from "../../helpers/http";
import { createTestProject } from "../../helpers/partner";

let server: AppServer;
let projectId: string;
let otherProjectId: string;
let people: DashboardTeam;

beforeAll(async () => {
  server = await startAppServer();
  useServerForDashboard(server);
  projectId = (await createTestProject()).project_id;
  otherProjectId = (await createTestProject()).project_id;
  people = await dashboardTeam(server, projectId);
}, 60_000);
afterAll(() => server?.close());

const post = (path: string, fields: Record<string, string>, options: Partial<PostOptions> = {}) => postForm(server, path, fields, { session: people.owner.session, ...options });

const keysPath = (project = projectId, environment = "sandbox") => `/dashboard/${project}/${environment}/keys`;

async function shownOnce(response: Response, userId: string, environment = "sandbox") {
  return openShownOnce(oneViewCookieOf(response, SHOWN_ONCE_COOKIE), { userId, projectId, environment });
}

/** The 303 back to the keys page with the form's refusals, as its next view opens them. */
async function refused(response: Response) {
  expect(response.status).toBe(303);
  expect(response.headers.get("location")).toBe(keysPath());
  return openRefusedForm(oneViewCookieOf(response, FORM_ERRORS_COOKIE), { userId: people.owner.userId, projectId, environment: "sandbox" });
}

async function createKeyAs(role: "owner" | "developer", type = "secret") {
  const response = await post(`${keysPath()}/create`, { type }, { session: people[role].session });
  expect(response.status).toBe(303);
  return (await shownOnce(response, people[role].userId))!;
}

describe("Create key", () => {
  it("makes a key with the API's service, 303s back to the keys page and seals its secret in the shown-once cookie", async () => {
    const response = await post(`${keysPath()}/create`, { type: "secret" });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(keysPath());
    expect(response.headers.get("cache-control")).toBe("no-store");
    const shown = await shownOnce(response, people.owner.userId);
    expect(shown).toMatchObject({ kind: "key_created", objectId: expect.stringMatching(/^key_/), secret: expect.stringMatching(/^sk_sandbox_/) });
    const key = await db().apiKey.findUniqueOrThrow({ where: { id: shown!.objectId } });
    expect(key).toMatchObject({ projectId, environment: "sandbox", type: "secret", status: "active" });
    expect(JSON.stringify(key)).not.toContain(shown!.secret);
    expect(key.secretHash).toBe(hashSecret(shown!.secret));
    // Only the member who made it, in the project and environment where it was made, can open it.
    const sealed = (response.headers.get("set-cookie") ?? "").split(";")[0]!.split("=")[1];
    expect(await openShownOnce(sealed, { userId: people.viewer.userId, projectId, environment: "sandbox" })).toBeNull();
    expect(await openShownOnce(sealed, { userId: people.owner.userId, projectId, environment: "live" })).toBeNull();
  });

  it("lets a developer create a key, in the environment of the address (live)", async () => {
    const response = await post(`${keysPath(projectId, "live")}/create`, { type: "publishable" }, { session: people.developer.session });
    expect(response.status).toBe(303);
    const shown = await shownOnce(response, people.developer.userId, "live");
    expect(shown?.secret).toMatch(/^pk_live_/);
  });

  it("refuses a viewer (403 role_forbidden) and makes no key", async () => {
    const before = await db().apiKey.count({ where: { projectId } });
    const page = await expectErrorPage(await post(`${keysPath()}/create`, { type: "secret" }, { session: people.viewer.session }), 403, "Sorry, that did not work");
    expect(page).toContain("Your role in this project does not allow this.");
    expect(await db().apiKey.count({ where: { projectId } })).toBe(before);
  });

  it("refuses a missing, a different and a cross-site CSRF token with 403 csrf_token_invalid", async () => {
    for (const options of [{ csrf: "missing" as const }, { csrf: "different" as const }, { origin: "https://evil.example" }]) {
      const response = await post(`${keysPath()}/create`, { type: "secret" }, options);
      if (options.csrf === "missing") {
        // The form schema requires the field: the post is refused before anything is read.
        expect(response.status).toBe(422);
      } else {
        await expectErrorPage(response, 403, "Sorry, that did not work");
      }
    }
  });

  it("refuses someone not signed in (401), a forged session (401) and someone outside the team (404)", async () => {
    await expectErrorPage(await post(`${keysPath()}/create`, { type: "secret" }, { session: null }), 401, "Sorry, that did not work");
    await expectErrorPage(await post(`${keysPath()}/create`, { type: "secret" }, { session: "not-a-session" }), 401, "Sorry, that did not work");
    await expectErrorPage(await post(`${keysPath()}/create`, { type: "secret" }, { session: people.stranger.session }), 404, "Page not found");
    await expectErrorPage(await post(`${keysPath(otherProjectId)}/create`, { type: "secret" }), 404, "Page not found");
  });

  it("brings a type that is not secret or publishable back to the form; refuses an unknown field and a bad environment", async () => {
    expect(await refused(await post(`${keysPath()}/create`, { type: "root" }))).toEqual({
      form: "create-key",
      values: { type: "root" },
      errors: [{ field: "type", message: "Choose a secret or a publishable key" }],
    });
    expect((await post(`${keysPath()}/create`, { type: "secret", environment: "live" })).status).toBe(400);
    await expectErrorPage(await post(`/dashboard/${projectId}/staging/keys/create`, { type: "secret" }), 404, "Page not found");
  });
});

describe("Roll", () => {
  it("gives the successor's secret once and ends the predecessor after the overlap", async () => {
    const created = await createKeyAs("owner");
    const response = await post(`${keysPath()}/${created.objectId}/roll`, { overlap_hours: "2" });
    expect(response.status).toBe(303);
    const shown = await shownOnce(response, people.owner.userId);
    expect(shown).toMatchObject({ kind: "key_rolled", predecessorId: created.objectId, secret: expect.stringMatching(/^sk_sandbox_/) });
    const predecessor = await db().apiKey.findUniqueOrThrow({ where: { id: created.objectId } });
    expect(predecessor.expiresAt?.toISOString()).toBe(shown!.predecessorExpiresAt);
    expect(predecessor.expiresAt!.getTime() - Date.now()).toBeGreaterThan(2 * 3_600_000 - 60_000);
    // A rolled key rolls no more: the API's rule, the same here (409).
    await expectErrorPage(await post(`${keysPath()}/${created.objectId}/roll`, { overlap_hours: "2" }), 409, "Sorry, that did not work");
  });

  it("brings an overlap that is not 0 to 168 whole hours back to its row's form, as typed, with an error summary, and rolls nothing", async () => {
    const created = await createKeyAs("owner");
    const messages = {
      "999": "Overlap must be at most 168 hours (a week)",
      "-1": "Overlap must be a whole number of hours, from 0 to 168",
      "1.5": "Overlap must be a whole number of hours, from 0 to 168",
      "": "Enter the overlap in hours, from 0 to 168",
    };
    for (const [overlap, message] of Object.entries(messages)) {
      expect(await refused(await post(`${keysPath()}/${created.objectId}/roll`, { overlap_hours: overlap }))).toEqual({
        form: `roll-${created.objectId}`,
        values: { overlap_hours: overlap },
        errors: [{ field: "overlap_hours", message }],
      });
    }
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: created.objectId } })).expiresAt).toBeNull();

    // Only the member who posted, in that project and environment, can open it (the page shows it: tests/e2e/dashboard-keys.spec.ts).
    const sealed = oneViewCookieOf(await post(`${keysPath()}/${created.objectId}/roll`, { overlap_hours: "999" }), FORM_ERRORS_COOKIE);
    expect(await openRefusedForm(sealed, { userId: people.developer.userId, projectId, environment: "sandbox" })).toBeNull();
    expect(await openRefusedForm(sealed, { userId: people.owner.userId, projectId, environment: "live" })).toBeNull();
  });

  it("refuses a developer and a viewer (403), and another project's key (404)", async () => {
    const created = await createKeyAs("developer");
    await expectErrorPage(await post(`${keysPath()}/${created.objectId}/roll`, { overlap_hours: "0" }, { session: people.developer.session }), 403, "Sorry, that did not work");
    await expectErrorPage(await post(`${keysPath()}/${created.objectId}/roll`, { overlap_hours: "0" }, { session: people.viewer.session }), 403, "Sorry, that did not work");
    const foreign = await db().apiKey.findFirstOrThrow({ where: { projectId: otherProjectId } });
    await expectErrorPage(await post(`${keysPath()}/${foreign.id}/roll`, { overlap_hours: "0" }), 404, "Page not found");
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: created.objectId } })).expiresAt).toBeNull();
  });
});

describe("Revoke", () => {
  it("revokes at once for an owner, then 303s back saying so", async () => {
    const created = await createKeyAs("owner");
    const response = await post(`${keysPath()}/${created.objectId}/revoke/confirm`, {});
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`${keysPath()}?revoked=${created.objectId}`);
    expect(response.headers.get("set-cookie")).toBeNull();
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: created.objectId } })).status).toBe("revoked");
  });

  it("refuses a developer and a viewer (403) and leaves the key working", async () => {
    const created = await createKeyAs("developer");
    for (const role of ["developer", "viewer"] as const) {
      await expectErrorPage(await post(`${keysPath()}/${created.objectId}/revoke/confirm`, {}, { session: people[role].session }), 403, "Sorry, that did not work");
    }
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: created.objectId } })).status).toBe("active");
  });

  it("refuses a key of the other environment (401 environment_mismatch)", async () => {
    const created = await createKeyAs("owner");
    await expectErrorPage(await post(`${keysPath(projectId, "live")}/${created.objectId}/revoke/confirm`, {}), 401, "Sorry, that did not work");
  });
});

describe("the audit log", () => {
  it("names who did what to which key, and never a secret", async () => {
    const created = await createKeyAs("developer");
    await post(`${keysPath()}/${created.objectId}/roll`, { overlap_hours: "1" });
    await post(`${keysPath()}/${created.objectId}/revoke/confirm`, {});
    const entries = (await listAuditEntries({ projectId, limit: 500 })).filter((entry) => entry.objectId === created.objectId);
    expect(entries.map((entry) => [entry.actorId, entry.action, entry.environment])).toEqual([
      [people.owner.userId, "key.revoked", "sandbox"],
      [people.owner.userId, "key.rolled", "sandbox"],
      [people.developer.userId, "key.created", "sandbox"],
    ]);
    expect(JSON.stringify(await db().dashboardAuditEntry.findMany({ where: { projectId } }))).not.toContain(created.secret);
  });
});
