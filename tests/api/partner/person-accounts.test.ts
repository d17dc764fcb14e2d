// People reading their company's accounts with a sign-in access token (issue 28; docs/sign-in.md, "People reading
// their accounts"): the four accounts reads take a real token from the real provider, show only the accounts of the
// user's company in the user's environment, and every other partner route refuses the token with 401.
import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freezeClock, restoreClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { PARTNER_SCOPES } from "@/lib/oauth/scopes";
import { openApiDocument } from "@/lib/openapi/document";
import type { Tenant } from "@/lib/tenant";
import { fundedAccount } from "../../database/accounts/helpers";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError, expectJson } from "../../helpers/http";
import { bearer, createTestProject, mintToken } from "../../helpers/partner";
import { signInPerson, type SignedInPersonTokens } from "../../helpers/person-tokens";
import { loadAllEndpoints } from "../../helpers/routes";
import { CLIENT_ADDRESS_HEADER } from "../../helpers/sign-in";

const COMPANY = "12345678";
const OTHER_COMPANY = "12345679";
const PERSON_ROUTES = ["GET /accounts", "GET /accounts/{id}", "GET /accounts/{id}/balance", "GET /accounts/{id}/transactions"];

let server: AppServer;
let sso: string;
let partnerToken: string;
const accounts = {} as { first: string; second: string; otherPartners: string; otherCompany: string; live: string };
const people = {} as { sandbox: SignedInPersonTokens; live: SignedInPersonTokens; companyless: SignedInPersonTokens; withoutScope: SignedInPersonTokens };

beforeAll(async () => {
  server = await startAppServer();
  sso = `${server.url}/sso`;
  process.env.SSO_URL = sso;
  process.env.HUB_URL = server.url;
  process.env.TRUSTED_PROXY_HEADER = CLIENT_ADDRESS_HEADER;
  const project = await createTestProject({ scopes: [...PARTNER_SCOPES] });
  const otherPartner = await createTestProject({ scopes: [...PARTNER_SCOPES] });
  partnerToken = await mintToken(server.url, project);
  const tenant: Tenant = { projectId: project.project_id, environment: "sandbox" };
  accounts.first = (await fundedAccount(tenant, { companyNumber: COMPANY })).id;
  accounts.second = (await fundedAccount(tenant, { companyNumber: COMPANY, product: "flex" })).id;
  accounts.otherCompany = (await fundedAccount(tenant, { companyNumber: OTHER_COMPANY })).id;
  accounts.otherPartners = (await fundedAccount({ projectId: otherPartner.project_id, environment: "sandbox" }, { companyNumber: COMPANY })).id;
  // The live environment has no registry of its own here: a sandbox account moved there stands for a live one.
  accounts.live = (await fundedAccount(tenant, { companyNumber: COMPANY })).id;
  await db().account.update({ where: { id: accounts.live }, data: { environment: "live" } });
  people.sandbox = await signInPerson(sso, { companyNumber: COMPANY, environment: "sandbox" });
  people.live = await signInPerson(sso, { companyNumber: COMPANY });
  people.companyless = await signInPerson(sso, { companyNumber: undefined, companyName: undefined, environment: "sandbox" });
  people.withoutScope = await signInPerson(sso, { companyNumber: COMPANY, environment: "sandbox" }, "openid profile business");
}, 60_000);
afterAll(() => server?.close());

let addresses = 0;
/** A request from an address of its own, so refusals never meet the per-address limit of another test. */
function get(path: string, token: string): Promise<Response> {
  addresses += 1;
  return fetch(`${server.url}/partner/v1${path}`, bearer(token, { headers: { [CLIENT_ADDRESS_HEADER]: `10.77.${Math.floor(addresses / 250)}.${addresses % 250}` } }));
}

const ids = (list: Record<string, any>) => (list.data as Array<{ id: string }>).map((account) => account.id);

describe("a person's sign-in access token with accounts.read", () => {
  it("lists exactly their company's accounts in their environment, with every partner's, newest first", async () => {
    const list = await expectJson(await get("/accounts", people.sandbox.accessToken), 200);
    expect(list).toMatchObject({ object: "list", has_more: false, url: "/partner/v1/accounts" });
    expect(ids(list)).toEqual([accounts.otherPartners, accounts.second, accounts.first]);
    expect(ids(await expectJson(await get("/accounts", people.live.accessToken), 200))).toEqual([accounts.live]);
  });

  it("pages and filters as a partner's list does (spec 4.11)", async () => {
    const first = await expectJson(await get("/accounts?limit=2", people.sandbox.accessToken), 200);
    expect({ ids: ids(first), has_more: first.has_more }).toEqual({ ids: [accounts.otherPartners, accounts.second], has_more: true });
    const next = await expectJson(await get(`/accounts?limit=2&starting_after=${accounts.second}`, people.sandbox.accessToken), 200);
    expect({ ids: ids(next), has_more: next.has_more }).toEqual({ ids: [accounts.first], has_more: false });
    await expectApiError(await get(`/accounts?starting_after=${accounts.otherCompany}`, people.sandbox.accessToken), 404, "not_found");
    expect(ids(await expectJson(await get("/accounts?status=closed", people.sandbox.accessToken), 200))).toEqual([]);
  });

  it("gives a user with no company number an empty list", async () => {
    const list = await expectJson(await get("/accounts", people.companyless.accessToken), 200);
    expect(list).toEqual({ object: "list", data: [], has_more: false, url: "/partner/v1/accounts" });
    await expectApiError(await get(`/accounts/${accounts.first}`, people.companyless.accessToken), 404, "not_found");
  });

  it("reads an account, its balance and its ledger exactly as its partner does", async () => {
    for (const path of [`/accounts/${accounts.first}`, `/accounts/${accounts.first}/balance`, `/accounts/${accounts.first}/transactions`]) {
      const asPerson = await expectJson(await get(path, people.sandbox.accessToken), 200);
      expect(asPerson).toEqual(await expectJson(await get(path, partnerToken), 200));
    }
    const account = await expectJson(await get(`/accounts/${accounts.first}`, people.sandbox.accessToken), 200);
    expect(account).toMatchObject({ id: accounts.first, object: "account", borrower: { company_number: COMPANY }, principal_pence: 1_000_000 });
    expect(account.schedule).toHaveLength(3);
    const ledger = await expectJson(await get(`/accounts/${accounts.first}/transactions`, people.sandbox.accessToken), 200);
    expect(ledger.data.map((entry: { type: string; amount_pence: number }) => [entry.type, entry.amount_pence])).toEqual([["drawdown", -1_000_000]]);
  });

  it.each(["", "/balance", "/transactions"])("refuses another company's account on /accounts/{id}%s with 404, even at another partner", async (tail) => {
    await expectApiError(await get(`/accounts/${accounts.otherCompany}${tail}`, people.sandbox.accessToken), 404, "not_found");
    await expectApiError(await get(`/accounts/acc_01jd0000000000000000000000${tail}`, people.sandbox.accessToken), 404, "not_found");
  });

  it.each(["", "/balance", "/transactions"])("refuses their company's account of the other environment on /accounts/{id}%s with 401 environment_mismatch", async (tail) => {
    await expectApiError(await get(`/accounts/${accounts.live}${tail}`, people.sandbox.accessToken), 401, "environment_mismatch");
    await expectApiError(await get(`/accounts/${accounts.first}${tail}`, people.live.accessToken), 401, "environment_mismatch");
  });

  it("meters the person's own bucket, not a project's", async () => {
    const response = await get("/accounts", people.sandbox.accessToken);
    expect(response.status).toBe(200);
    expect(response.headers.get("ratelimit-limit")).toBe("50");
    expect(response.headers.get("ratelimit-policy")).toBe("10;w=1;burst=50");
  });
});

describe("refusals", () => {
  it.each(PERSON_ROUTES)("%s without accounts.read is 403 insufficient_scope naming it", async (route) => {
    const response = await get(route.slice(4).replace("{id}", accounts.first), people.withoutScope.accessToken);
    expect(response.headers.get("www-authenticate")).toContain('scope="accounts.read"');
    await expectApiError(response, 403, "insufficient_scope");
  });

  it("refuses an expired token with 401", async () => {
    const { accessToken } = await signInPerson(sso, { companyNumber: COMPANY, environment: "sandbox" });
    expect((await get("/accounts", accessToken)).status).toBe(200);
    freezeClock(new Date(Date.now() + 3601_000));
    try {
      await expectApiError(await get("/accounts", accessToken), 401, "unauthenticated");
    } finally {
      restoreClock();
    }
  });

  it("refuses a token whose grant was revoked (a rotated refresh token presented again) with 401", async () => {
    const person = await signInPerson(sso, { companyNumber: COMPANY, environment: "sandbox" });
    const refreshed = await client.refreshTokenGrant(person.configuration, person.refreshToken);
    expect((await get("/accounts", refreshed.access_token)).status).toBe(200);
    await expect(client.refreshTokenGrant(person.configuration, person.refreshToken)).rejects.toMatchObject({ error: "invalid_grant" });
    await expectApiError(await get("/accounts", refreshed.access_token), 401, "unauthenticated");
    await expectApiError(await get("/accounts", person.accessToken), 401, "unauthenticated");
  });

  it("never takes the ID token, a JWT, for an access token: it gets the partner token's check, and fails it", async () => {
    expect(people.sandbox.idToken.split(".")).toHaveLength(3);
    await expectApiError(await get("/accounts", people.sandbox.idToken), 401, "unauthenticated");
  });

  it("refuses an unknown opaque token with 401", async () => {
    await expectApiError(await get("/accounts", "x".repeat(43)), 401, "unauthenticated");
  });
});

describe("every other partner route", () => {
  it("takes a person only on the four accounts reads", async () => {
    const takesPerson = (await loadAllEndpoints())
      .filter(({ ring, config: { auth } }) => ring === "partner" && (auth.kind === "person" || (auth.kind === "bearer" && auth.person)))
      .map(({ method, path }) => `${method} ${path}`);
    expect(takesPerson.sort()).toEqual([...PERSON_ROUTES].sort());
  });

  it("are documented with the sign-in token as a second security scheme, and its per-user and per-address limits", async () => {
    const document = openApiDocument("partner", await loadAllEndpoints(), "http://127.0.0.1:3000") as unknown as {
      components: { securitySchemes: Record<string, { type: string; openIdConnectUrl?: string }> };
      paths: Record<string, Record<string, { security: unknown; description?: string }>>;
    };
    expect(document.components.securitySchemes.signInToken).toMatchObject({ type: "openIdConnect", openIdConnectUrl: "/sso/.well-known/openid-configuration" });
    expect(document.paths["/accounts/{id}/balance"]!.get!.security).toEqual([{ partnerToken: ["accounts.read"] }, { signInToken: ["accounts.read"] }]);
    expect(document.paths["/accounts/{id}/balance"]!.get!.description).toContain("per user");
    expect(document.paths["/accounts/{id}/drawdowns"]!.post!.security).toEqual([{ partnerToken: ["accounts.manage"] }]);
  });

  it("refuses a person's access token with 401 on every route that takes a credential", async () => {
    const routes = (await loadAllEndpoints()).filter(({ ring, config: { auth } }) => ring === "partner" && auth.kind === "bearer" && !auth.person);
    expect(routes.length).toBeGreaterThan(30);
    const answers: Record<string, number> = {};
    for (const { method, path } of routes) {
      addresses += 1;
      const response = await fetch(`${server.url}/partner/v1${path.replaceAll(/\{(\w+)\}/g, "acc_01jd0000000000000000000000")}`, {
        method,
        headers: { authorization: `Bearer ${people.sandbox.accessToken}`, [CLIENT_ADDRESS_HEADER]: `10.78.${Math.floor(addresses / 250)}.${addresses % 250}` },
      });
      const body = (await response.json()) as { error?: { code: string } };
      answers[`${method} ${path}`] = response.status;
      expect(body.error?.code, `${method} ${path}`).toBe("unauthenticated");
    }
    expect(Object.entries(answers).filter(([, status]) => status !== 401)).toEqual([]);
  });
});
