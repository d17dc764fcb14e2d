// The one tenancy rule (spec 5.1, 7.2), over HTTP for every partner `{id}` route the registry holds: an object
// of the other environment is 401 `environment_mismatch`, another project's 404 as an unknown id. Every such
// route is either read here, with a fixture of its kind, or listed with why it is not; a new `{id}` route in
// neither table fails this file.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clock } from "@/lib/clock";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { PARTNER_SCOPES } from "@/lib/oauth/scopes";
import { changeProjectCapabilities } from "@/lib/projects/capabilities";
import type { Tenant } from "@/lib/tenant";
import { createWebhookEndpoint } from "@/lib/webhooks/service";
import { createSubAccount } from "@/lib/revenue-share/sub-accounts";
import { fundedAccount } from "../../database/accounts/helpers";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError, jsonRequest } from "../../helpers/http";
import { bearer, createTestProject, mintToken } from "../../helpers/partner";
import { loadAllEndpoints } from "../../helpers/routes";

type Kind = "application" | "decision" | "account" | "payment" | "event" | "identity_check" | "key" | "webhook_endpoint" | "sub_account" | "payout";

interface Read {
  kind: Kind;
  /** A valid body for a POST action, so the request reaches the read. */
  body?: unknown;
  /** What the owner's own call answers. */
  status: 200 | 201;
}

/** Every partner `{id}` route that reads the object it names, and the kind of object it reads. */
const READS: Record<string, Read> = {
  "GET /accounts/{id}": { kind: "account", status: 200 },
  "GET /accounts/{id}/balance": { kind: "account", status: 200 },
  "GET /accounts/{id}/transactions": { kind: "account", status: 200 },
  "POST /accounts/{id}/drawdowns": { kind: "account", body: { amount_pence: 100 }, status: 201 },
  "GET /applications/{id}": { kind: "application", status: 200 },
  "GET /decisions/{id}": { kind: "decision", status: 200 },
  "GET /events/{id}": { kind: "event", status: 200 },
  "GET /identity/checks/{id}": { kind: "identity_check", status: 200 },
  "GET /keys/{id}": { kind: "key", status: 200 },
  "POST /keys/{id}": { kind: "key", body: { allowed_origins: ["https://shop.example"] }, status: 200 },
  "GET /payments/{id}": { kind: "payment", status: 200 },
  "GET /payouts/{id}": { kind: "payout", status: 200 },
  "GET /sub-accounts/{id}": { kind: "sub_account", status: 200 },
  "GET /webhook_endpoints/{id}": { kind: "webhook_endpoint", status: 200 },
};

/** The `{id}` routes not read here, each with why. */
const NOT_READ: Record<string, string> = {
  "POST /applications/{id}/withdraw": "writes: the funded fixture cannot be withdrawn; the read it starts with is applications'",
  "POST /applications/{id}/accept": "writes: a body naming an offer; the read it starts with is applications' (GET /applications/{id})",
  "POST /applications/{id}/affordability": "writes: a full affordability body; the read it starts with is applications'",
  "POST /applications/{id}/consents": "writes: a consents body; the read it starts with is applications'",
  "POST /applications/{id}/submit": "writes: a submission body; the read it starts with is applications'",
  "POST /decisions/{id}/refresh": "writes: a refresh body; the read it starts with is decisions'",
  "POST /events/{id}/replay": "writes: replays to an endpoint named in the body; the read it starts with is events'",
  "POST /keys/{id}/roll": "writes: rolls the key; the read it starts with is keys'",
  "DELETE /keys/{id}": "writes: revokes the key; the read it starts with is keys'",
  "POST /webhook_endpoints/{id}": "writes: an update body; the read it starts with is webhook endpoints'",
  "DELETE /webhook_endpoints/{id}": "writes: deletes the endpoint; the read it starts with is webhook endpoints'",
  "POST /webhook_endpoints/{id}/enable": "writes: enables the endpoint; the read it starts with is webhook endpoints'",
  "POST /webhook_endpoints/{id}/roll_secret": "writes: rolls the secret; the read it starts with is webhook endpoints'",
  "POST /webhook_endpoints/{id}/recover": "writes: a since body; tests/api/partner/webhook-recover.test.ts holds its tenancy",
  "POST /test_helpers/applications/{id}/expire": "sandbox only: a live token is refused before any read",
  "POST /test_helpers/applications/{id}/fund": "sandbox only: a live token is refused before any read",
  "POST /test_helpers/applications/{id}/submit": "sandbox only: a live token is refused before any read",
  "POST /test_helpers/decisions/{id}/resolve_referral": "sandbox only: a live token is refused before any read",
  "POST /test_helpers/payments/{id}/fail": "sandbox only: a live token is refused before any read",
  "POST /test_helpers/payments/{id}/settle": "sandbox only: a live token is refused before any read",
};

let server: AppServer;
let tokens: { owner: string; otherEnvironment: string; otherProject: string };
const fixtures = {} as Record<Kind, string>;

beforeAll(async () => {
  server = await startAppServer();
  const project = await createTestProject({ scopes: [...PARTNER_SCOPES] });
  const stranger = await createTestProject({ scopes: [...PARTNER_SCOPES] });
  for (const { project_id } of [project, stranger]) await changeProjectCapabilities(db(), project_id, { enable: ["white_label", "beta"] });
  tokens = {
    owner: await mintToken(server.url, project),
    otherEnvironment: await mintToken(server.url, project, { environment: "live" }),
    otherProject: await mintToken(server.url, stranger),
  };
  const tenant: Tenant = { projectId: project.project_id, environment: "sandbox" };
  const account = await fundedAccount(tenant, { product: "flex" });
  const decision = await db().decision.findFirstOrThrow({ where: { applicationId: account.applicationId } });
  const payment = await db().payment.findFirstOrThrow({ where: { accountId: (await fundedAccount(tenant)).id } });
  const event = await db().event.findFirstOrThrow({ where: { projectId: project.project_id, environment: "sandbox" } });
  // Publishable: the one kind of key whose allowed origins POST /keys/{id} changes.
  const key = await db().apiKey.findFirstOrThrow({ where: { projectId: project.project_id, environment: "sandbox", type: "publishable" } });
  const endpoint = await createWebhookEndpoint({ tenant, input: { url: "https://93.184.215.14/hooks", enabled_events: ["*"] } });
  const subAccount = await createSubAccount({ tenant, now: clock.now(), input: { name: "Northside Brokers" } });
  const payout = await db().payout.create({
    data: { id: newId("payout"), projectId: project.project_id, environment: "sandbox", subAccountId: subAccount.id, period: "2026-11", status: "pending", grossPence: 0n, introductionCount: 0, createdAt: clock.now(), updatedAt: clock.now() },
  });
  const check = await db().identityCheck.create({
    data: { id: newId("identityCheck"), projectId: project.project_id, environment: "sandbox", applicationId: account.applicationId, status: "verified", people: [], provider: "sandbox", createdAt: clock.now() },
  });
  Object.assign(fixtures, {
    application: account.applicationId,
    decision: decision.id,
    account: account.id,
    payment: payment.id,
    event: event.id,
    identity_check: check.id,
    key: key.id,
    webhook_endpoint: endpoint.id,
    sub_account: subAccount.id,
    payout: payout.id,
  } satisfies Record<Kind, string>);
});
afterAll(() => server?.close());

function call(route: string, token: string, id: string): Promise<Response> {
  const [method, pattern] = route.split(" ") as [string, string];
  const url = `${server.url}/partner/v1${pattern.replace("{id}", id)}`;
  const body = READS[route]!.body;
  const init = body === undefined ? { method } : jsonRequest(method, body, { "idempotency-key": newId("request") });
  return fetch(url, bearer(token, init));
}

describe("every partner {id} route", () => {
  it("is read here with a fixture of its kind, or listed with why it is not", async () => {
    const routes = (await loadAllEndpoints())
      .filter((endpoint) => endpoint.ring === "partner" && endpoint.path.includes("{id}"))
      .map((endpoint) => `${endpoint.method} ${endpoint.path}`);
    expect([...Object.keys(READS), ...Object.keys(NOT_READ)].sort()).toEqual([...new Set(routes)].sort());
  });

  it.each(Object.keys(READS))("%s answers the owner, the other environment 401 environment_mismatch, another project 404", async (route) => {
    const id = fixtures[READS[route]!.kind];
    expect((await call(route, tokens.owner, id)).status).toBe(READS[route]!.status);
    await expectApiError(await call(route, tokens.otherEnvironment, id), 401, "environment_mismatch");
    await expectApiError(await call(route, tokens.otherProject, id), 404, "not_found");
  });
});
