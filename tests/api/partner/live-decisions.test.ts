// Live decisions over HTTP (docs/applications.md, "The live engine"): a live application is approved only when
// the newest identity check of everyone named on it is verified and an affordability record exists; otherwise
// it is referred, with a condition saying what is missing. Live identity checks go to a stand-in provider on
// 127.0.0.1 (tests/helpers/identity-provider.ts). The sandbox keeps deciding without either (docs/sandbox.md).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CONSENT_TEXTS } from "@/lib/application-consents/catalogue";
import { createApplication } from "@/lib/applications/create";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { openJourney } from "@/lib/journey/journey";
import type { Tenant } from "@/lib/tenant";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectJson, jsonRequest } from "../../helpers/http";
import { everyoneVerified, resultsByLastName, startFakeIdentityProvider, useForLive } from "../../helpers/identity-provider";
import { bearer, createTestPartner, untilDecided, type TestPartner } from "../../helpers/partner";
import { tenantNow } from "@/lib/tenant-clock";

type Json = Record<string, any>;

const provider = await startFakeIdentityProvider();
useForLive(provider);

// Each test makes more requests of one project than a sandbox burst; the limits have their own tests.
process.env.RATE_LIMIT_SCALE = "100";

const T0 = "2031-09-01T10:00:00.000Z";

let server: AppServer;
beforeAll(async () => {
  server = await startAppServer();
});
afterAll(async () => {
  await server?.close();
  await provider.close();
});
beforeEach(() => {
  freezeClock(T0);
  provider.answer = everyoneVerified;
  provider.calls.length = 0;
});

const ADA = { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1961-12-10", role: "director" };
const GRACE = { first_name: "Grace", last_name: "Hopper", date_of_birth: "1956-12-09", role: "director" };
const ALL_CONSENTS = { consents: CONSENT_TEXTS.credit_search.concat(CONSENT_TEXTS.data_sharing, CONSENT_TEXTS.terms).map(({ type, version }) => ({ type, text_version: version })) };
/** £10,000 a month: £10,000 asked is well within 20% of the year's turnover. */
const AFFORDABLE = { monthly_turnover_pence: Array(12).fill(1_000_000) };
const MANUAL_REVIEW = { code: "manual_review", description: "An underwriter is reviewing the application." };

function post(token: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server.url}/partner/v1${path}`, bearer(token, body === undefined ? { method: "POST" } : jsonRequest("POST", body)));
}

async function read(token: string, path: string): Promise<Json> {
  return expectJson(await fetch(`${server.url}/partner/v1${path}`, bearer(token)), 200);
}

function partner(environment: "live" | "sandbox" = "live"): Promise<TestPartner> {
  return createTestPartner(server.url, { environment, capabilities: ["white_label"] });
}

/** 12340120 was incorporated ten years before 2026 (docs/sandbox.md): no trading-history or appetite rule applies. */
async function openApplication(tenant: Tenant): Promise<string> {
  const application = await createApplication({
    tenant, now: await tenantNow(tenant),
    input: { business: { company_number: "12340120" }, amount_pence: 1_000_000, term_months: 12, applicant: { email: "director@example.co.uk" } },
  });
  return application.id;
}

const checkIdentity = async (token: string, id: string, people: unknown[]) => expectJson<Json>(await post(token, "/identity/checks", { application_id: id, people }), 201);
const recordAffordability = async (token: string, id: string) => expectJson(await post(token, `/applications/${id}/affordability`, AFFORDABLE), 201);

/** Consents given and submitted (with an optional body), then decided: the decision as the partner reads it. */
async function submitAndDecide({ token }: TestPartner, id: string, body?: unknown): Promise<Json> {
  await expectJson(await post(token, `/applications/${id}/consents`, ALL_CONSENTS), 201);
  await expectJson(await post(token, `/applications/${id}/submit`, body), 200);
  const application = await untilDecided(id, () => read(token, `/applications/${id}`));
  return read(token, `/decisions/${application.decision}`);
}

describe("a live application", () => {
  it("with no identity check is referred, saying no one is verified", async () => {
    const live = await partner();
    const id = await openApplication(live.tenant);
    await recordAffordability(live.token, id);
    const decision = await submitAndDecide(live, id);
    expect(decision).toMatchObject({ outcome: "referred", livemode: true, approved_amount_pence: 0, reasons: [], offer: null });
    expect(decision.conditions).toEqual([MANUAL_REVIEW, { code: "identity_not_verified", description: "No identity check has verified the applicant and the company's directors." }]);
    expect((await read(live.token, `/applications/${id}`)).status).toBe("in_review");
  });

  it("is approved once the newest check of everyone named is verified and its affordability is recorded", async () => {
    const live = await partner();
    const id = await openApplication(live.tenant);
    await checkIdentity(live.token, id, [ADA, GRACE]);
    await recordAffordability(live.token, id);
    const decision = await submitAndDecide(live, id);
    expect(decision).toMatchObject({ outcome: "approved", approved_amount_pence: 1_000_000, apr_bps: 2400, reasons: [], conditions: [] });
    expect(provider.calls.map((call) => call.body.people.map((person: Json) => person.last_name))).toEqual([["Lovelace", "Hopper"]]);
  });

  it("is referred when a newer check leaves out a director an earlier check did not verify", async () => {
    const live = await partner();
    const id = await openApplication(live.tenant);
    provider.answer = resultsByLastName({ Hopper: "review_required" });
    expect((await checkIdentity(live.token, id, [ADA, GRACE])).status).toBe("review_required");
    provider.answer = everyoneVerified;
    expect((await checkIdentity(live.token, id, [ADA])).status).toBe("verified");
    await recordAffordability(live.token, id);
    const decision = await submitAndDecide(live, id);
    expect(decision).toMatchObject({ outcome: "referred", reasons: [] });
    expect(decision.conditions).toEqual([
      MANUAL_REVIEW,
      { code: "identity_review", description: "An underwriter is reviewing the identity check of the company's directors or people with significant control." },
    ]);
  });

  it("is referred when a director the hosted journey named has no check, counting them and naming no one", async () => {
    const live = await partner();
    const id = await openApplication(live.tenant);
    // The applicant and a further director as the journey's About you keeps them; the check names the applicant alone.
    const { handoffToken } = await db().application.findUniqueOrThrow({ where: { id } });
    await openJourney(handoffToken);
    await db().applicationJourney.update({ where: { applicationId: id }, data: { people: [{ ...ADA, email: "ada@example.co.uk" }, GRACE] } });
    await checkIdentity(live.token, id, [ADA]);
    await recordAffordability(live.token, id);
    const decision = await submitAndDecide(live, id);
    expect(decision).toMatchObject({ outcome: "referred", reasons: [] });
    expect(decision.conditions).toEqual([MANUAL_REVIEW, { code: "identity_not_verified", description: "1 of the 2 people named on the application have no identity check." }]);
  });

  it("is declined when anyone named failed their newest check, though a newer check verified the rest", async () => {
    const live = await partner();
    const id = await openApplication(live.tenant);
    provider.answer = resultsByLastName({ Hopper: "failed" });
    await checkIdentity(live.token, id, [ADA, GRACE]);
    provider.answer = everyoneVerified;
    await checkIdentity(live.token, id, [ADA]);
    await recordAffordability(live.token, id);
    expect(await submitAndDecide(live, id)).toMatchObject({ outcome: "declined", reasons: [{ code: "identity_unverified" }], conditions: [] });
  });

  it("of the white-label flow without an affordability record is referred, though its declared turnover affords the loan", async () => {
    const live = await partner();
    const id = await openApplication(live.tenant);
    await checkIdentity(live.token, id, [ADA]);
    const decision = await submitAndDecide(live, id, { declared_annual_turnover_pence: 100_000_000 });
    expect(decision).toMatchObject({ outcome: "referred", reasons: [] });
    expect(decision.conditions).toEqual([
      MANUAL_REVIEW,
      { code: "affordability_missing", description: "No affordability record: twelve months of the company's turnover from open banking are needed." },
    ]);
  });
});

describe("a sandbox application", () => {
  it("keeps today's rules: the test helper's submit is approved with no identity check and no affordability record", async () => {
    const sandbox = await partner("sandbox");
    const id = await openApplication(sandbox.tenant);
    await expectJson(await post(sandbox.token, `/test_helpers/applications/${id}/submit`), 200);
    const application = await untilDecided(id, () => read(sandbox.token, `/applications/${id}`));
    expect(await read(sandbox.token, `/decisions/${application.decision}`)).toMatchObject({ outcome: "approved", approved_amount_pence: 1_000_000, conditions: [] });
    expect(provider.calls).toEqual([]);
  });
});
