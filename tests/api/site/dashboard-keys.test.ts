// The dashboard's API key forms over HTTP (docs/dashboard.md): a signed-in member posts plain HTML forms that call
// the keys services; each is refused without the page's CSRF token, to anyone not signed in or not in the team,
// and to a role that lacks it; a new secret travels only in the sealed shown-once cookie of the 303.
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { openShownOnce, SHOWN_ONCE_COOKIE } from "@/lib/dashboard/shown-once";
import { hashSecret } from "@/lib/keys/secrets";
import { appAuthSecret } from "@/lib/oidc/keys";
import { listAuditEntries } from "@/lib/team/audit";
import { addMember } from "@/lib/team/service";
import { newCsrfToken } from "@/lib/wire/csrf";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectErrorPage } from "../../helpers/http";
import { createTestProject } from "../../helpers/partner";
import { signInPerson } from "../../helpers/person-tokens";
import { CLIENT_ADDRESS_HEADER } from "../../helpers/sign-in";

const SESSION_COOKIE = "authjs.session-token";

let server: AppServer;
let projectId: string;
let otherProjectId: string;
const people = {} as Record<"owner" | "developer" | "viewer" | "stranger", { userId: string; session: string }>;

async function sessionOf(userId: string, accessToken: string): Promise<string> {
  return encode({ token: { sub: userId, accessToken }, secret: await appAuthSecret(), salt: SESSION_COOKIE });
}

beforeAll(async () => {
  server = await startAppServer();
  const sso = `${server.url}/sso`;
  process.env.SSO_URL = sso;
  process.env.TRUSTED_PROXY_HEADER = CLIENT_ADDRESS_HEADER;
  projectId = (await createTestProject()).project_id;
  otherProjectId = (await createTestProject()).project_id;
  for (const role of ["owner", "developer", "viewer", "stranger"] as const) {
    const signedIn = await signInPerson(sso, { environment: "sandbox" });
    const user = await db().signInUser.findUniqueOrThrow({ where: { id: signedIn.userId } });
    if (role !== "stranger") await addMember({ projectId, email: user.email, role }, { actorId: "cli" });
    people[role] = { userId: signedIn.userId, session: await sessionOf(signedIn.userId, signedIn.accessToken) };
  }
}, 60_000);
afterAll(() => server?.close());

let addresses = 0;
/** A form post as a browser on our page sends it: the session and CSRF cookies, the token in the form, our origin. */
function post(path: string, fields: Record<string, string>, options: { session?: string | null; csrf?: "match" | "missing" | "different"; origin?: string } = {}) {
  addresses += 1;
  const token = newCsrfToken();
  const cookies = [`svc_csrf=${token}`];
  if (options.session !== null) cookies.push(`${SESSION_COOKIE}=${options.session ?? people.owner.session}`);
  const csrf = options.csrf ?? "match";
  const form = new URLSearchParams({ ...(csrf === "missing" ? {} : { csrf_token: csrf === "match" ? token : newCsrfToken() }), ...fields });
  return fetch(`${server.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      cookie: cookies.join("; "),
      origin: options.origin ?? server.url,
      [CLIENT_ADDRESS_HEADER]: `10.88.${Math.floor(addresses / 250)}.${addresses % 250}`,
    },
    body: form.toString(),
  });
}

const keysPath = (project = projectId, environment = "sandbox") => `/dashboard/${project}/${environment}/keys`;

async function shownOnce(response: Response, userId: string, environment = "sandbox") {
  const setCookie = response.headers.get("set-cookie") ?? "";
  expect(setCookie).toMatch(new RegExp(`^${SHOWN_ONCE_COOKIE}=[A-Za-z0-9_-]+; Path=/dashboard; Max-Age=60; HttpOnly; SameSite=Strict$`));
  return openShownOnce(setCookie.split(";")[0]!.split("=")[1], { userId, projectId, environment });
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

  it("refuses a type that is not secret or publishable, an unknown field and a bad environment", async () => {
    expect((await post(`${keysPath()}/create`, { type: "root" })).status).toBe(422);
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

  it("refuses an overlap that is not 0 to 168 whole hours", async () => {
    const created = await createKeyAs("owner");
    for (const overlap of ["169", "-1", "1.5", "soon", ""]) expect((await post(`${keysPath()}/${created.objectId}/roll`, { overlap_hours: overlap })).status).toBe(422);
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
