// Live identity checks with IDENTITY_PROVIDER=http (docs/identity.md): the check goes to the configured provider,
// here a real HTTP server on 127.0.0.1 standing in for it, and its answer decides the outcome; a provider that
// fails is 503 service_unavailable with nothing written, and the Idempotency-Key is free for the retry. The
// provider is called with no database connection held, on both surfaces that run checks, and an application
// takes at most three checks in 24 hours.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createApplication } from "@/lib/applications/create";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { config } from "@/lib/env";
import { openJourney } from "@/lib/journey/journey";
import { changeProjectCapabilities } from "@/lib/projects/capabilities";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError, expectJson, jsonRequest } from "../../helpers/http";
import { eventually } from "../../helpers/eventually";
import { everyoneVerified, startFakeIdentityProvider, useForLive } from "../../helpers/identity-provider";
import { bearer, createTestProject, mintToken } from "../../helpers/partner";
import { verificationEventOf } from "../../helpers/identity";
import { dateOfBirthFields } from "../../helpers/journey-forms";
import { tenantNow } from "@/lib/tenant-clock";

type Json = Record<string, any>;

const T0 = "2027-07-01T10:00:00.000Z";
const PROVIDER_KEY = "idp_live_key_7";

const provider = await startFakeIdentityProvider();
useForLive(provider, PROVIDER_KEY);
const calls = provider.calls;

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
  calls.length = 0;
});

async function livePartner() {
  const project = await createTestProject();
  await changeProjectCapabilities(db(), project.project_id, { enable: ["white_label"] });
  const tenant = { projectId: project.project_id, environment: "live" as const };
  const application = await createApplication({
    tenant, now: await tenantNow(tenant),
    input: { business: { company_number: "SC123456" }, amount_pence: 500_000, term_months: 12, applicant: { email: "director@example.co.uk" } },
  });
  return { project, applicationId: application.id, token: await mintToken(server.url, project, { environment: "live" }) };
}

const PEOPLE = [
  { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1989-12-10", role: "director" },
  { first_name: "Grace", last_name: "Review", date_of_birth: "1984-12-09", role: "psc" },
];

const postCheck = (token: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/partner/v1/identity/checks`, bearer(token, jsonRequest("POST", body, headers)));

it("runs with the http provider configured", () => {
  expect(config()).toMatchObject({ IDENTITY_PROVIDER: "http", IDENTITY_PROVIDER_API_KEY: PROVIDER_KEY });
});

describe("a live check", () => {
  it("is decided by the provider's answer, not by the sandbox rules", async () => {
    const { project, applicationId, token } = await livePartner();
    provider.answer = () => ({ status: 200, body: { id: "prov-live-1", people: [{ result: "review_required" }, { result: "verified" }] } });
    const check = await expectJson<Json>(await postCheck(token, { application_id: applicationId, people: PEOPLE }), 201);
    expect(check).toMatchObject({ object: "verification", livemode: true, application_id: applicationId, status: "review_required" });
    // The provider referred Ada and verified "Review": the sandbox rule plays no part in live.
    expect(check.people.map((person: Json) => [person.last_name, person.result])).toEqual([["Lovelace", "review_required"], ["Review", "verified"]]);

    expect(calls).toHaveLength(1);
    expect(calls[0]!.headers.authorization).toBe(`Bearer ${PROVIDER_KEY}`);
    expect(calls[0]!.headers["idempotency-key"]).toBe(check.id);
    expect(calls[0]!.body).toEqual({ reference: check.id, company_number: "SC123456", people: PEOPLE });

    expect(await db().identityCheck.findUniqueOrThrow({ where: { id: check.id } })).toMatchObject({ provider: "http", providerReference: "prov-live-1", environment: "live" });
    const events = await db().event.findMany({ where: { projectId: project.project_id, type: { startsWith: "identity." } } });
    expect(events.map((event) => [event.type, event.environment, event.object])).toEqual([["identity.review_required", "live", verificationEventOf(check)]]);
  });

  it("is verified when the provider verifies everyone", async () => {
    const { applicationId, token } = await livePartner();
    provider.answer = () => ({ status: 200, body: { people: [{ result: "verified" }, { result: "verified" }] } });
    expect((await expectJson<Json>(await postCheck(token, { application_id: applicationId, people: PEOPLE }), 201)).status).toBe("verified");
  });

  it("fails when the provider fails anyone, and fires identity.failed", async () => {
    const { project, applicationId, token } = await livePartner();
    provider.answer = () => ({ status: 200, body: { people: [{ result: "verified" }, { result: "failed", reason: "sanctions_match" }] } });
    const check = await expectJson<Json>(await postCheck(token, { application_id: applicationId, people: PEOPLE }), 201);
    expect(check.status).toBe("failed");
    expect(check.people.map((person: Json) => person.result)).toEqual(["verified", "failed"]);
    const events = await db().event.findMany({ where: { projectId: project.project_id, type: { startsWith: "identity." } } });
    expect(events.map((event) => [event.type, event.object])).toEqual([["identity.failed", verificationEventOf(check)]]);
  });

  it("answers 503 service_unavailable when the provider fails, writes nothing, and lets the same Idempotency-Key retry", async () => {
    const { project, applicationId, token } = await livePartner();
    const body = { application_id: applicationId, people: PEOPLE };
    const headers = { "idempotency-key": "live-check-1" };
    provider.answer = () => ({ status: 502, body: { error: "upstream" } });
    const failed = await postCheck(token, body, headers);
    const error = await expectApiError(failed, 503, "service_unavailable");
    expect(error.error).toMatchObject({ retryable: true, retry_after_ms: 5000, message: "The identity provider is not answering; retry shortly." });
    expect(failed.headers.get("retry-after")).toBe("5");
    expect(await db().identityCheck.count({ where: { projectId: project.project_id } })).toBe(0);
    expect(await db().event.count({ where: { projectId: project.project_id, type: { startsWith: "identity." } } })).toBe(0);

    provider.answer = () => ({ status: 200, body: { people: [{ result: "verified" }, { result: "verified" }] } });
    const retried = await postCheck(token, body, headers);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
    expect((await expectJson<Json>(retried, 201)).status).toBe("verified");
    expect(calls).toHaveLength(2);
  });

  it("answers 503 for a provider answer out of contract", async () => {
    const { project, applicationId, token } = await livePartner();
    provider.answer = () => ({ status: 200, body: { people: [{ result: "verified" }] } });
    await expectApiError(await postCheck(token, { application_id: applicationId, people: PEOPLE }), 503, "service_unavailable");
    expect(await db().identityCheck.count({ where: { projectId: project.project_id } })).toBe(0);
  });

  it("is not sent to the provider for a sandbox check", async () => {
    const project = await createTestProject();
    await changeProjectCapabilities(db(), project.project_id, { enable: ["white_label"] });
    const application = await createApplication({
      tenant: { projectId: project.project_id, environment: "sandbox" }, now: await tenantNow({ projectId: project.project_id, environment: "sandbox" }),
      input: { business: { company_number: "12345678" }, amount_pence: 500_000, term_months: 12, applicant: { email: "director@example.co.uk" } },
    });
    const token = await mintToken(server.url, project);
    const check = await expectJson<Json>(await postCheck(token, { application_id: application.id, people: PEOPLE }), 201);
    expect(check.people.map((person: Json) => person.result)).toEqual(["verified", "review_required"]);
    expect(calls).toEqual([]);
  });
});

const HOUR_MS = 3_600_000;
const at = (hours: number) => new Date(Date.parse(T0) + hours * HOUR_MS);

describe("the provider call", () => {
  it("is made with no database connection held, with or without an Idempotency-Key", async () => {
    const { applicationId, token } = await livePartner();
    provider.answer = everyoneVerified;
    await expectJson(await postCheck(token, { application_id: applicationId, people: PEOPLE }), 201);
    await expectJson(await postCheck(token, { application_id: applicationId, people: PEOPLE }, { "idempotency-key": "held-nothing-1" }), 201);
    expect(calls.map((call) => call.connectionsInUse)).toEqual([0, 0]);
    expect(await db().identityCheck.count({ where: { applicationId } })).toBe(2);
  });

  it("is made with no database connection held from the hosted journey's About you", async () => {
    const { applicationId } = await livePartner();
    const { handoffToken } = await db().application.findUniqueOrThrow({ where: { id: applicationId } });
    const { formToken } = (await openJourney(handoffToken))!.journey;
    const postStep = async (step: string, fields: Record<string, string>) => {
      const response = await fetch(`${server.url}/apply/${handoffToken}/${step}/form`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ form_token: formToken, ...fields }),
        redirect: "manual",
      });
      return response.headers.get("location");
    };
    provider.answer = everyoneVerified;
    expect(await postStep("company", { annual_turnover: "500000" })).toBe(`/apply/${handoffToken}/loan`);
    expect(await postStep("loan", { amount: "5000", term_months: "12", purpose: "working_capital" })).toBe(`/apply/${handoffToken}/about-you`);
    expect(await postStep("about-you", { first_name: "Ada", last_name: "Lovelace", ...dateOfBirthFields("1989-12-10"), email: "ada@example.co.uk", role: "director" })).toBe(
      `/apply/${handoffToken}/directors`,
    );
    // The check runs when the directors' page is finished.
    expect(await postStep("directors", { action: "continue" })).toBe(`/apply/${handoffToken}/bank`);
    expect(calls.map((call) => call.connectionsInUse)).toEqual([0]);
    expect((await db().identityCheck.findFirstOrThrow({ where: { applicationId } })).status).toBe("verified");
  });
});

describe("the daily cap", () => {
  it("runs three checks of an application in 24 hours, refuses a fourth 429 without calling the provider, and runs it once the first is a day old", async () => {
    const { project, applicationId } = await livePartner();
    // An access token lasts an hour: one minted at each moment the clock is moved to.
    const tokenAt = async (hours: number) => {
      freezeClock(at(hours));
      return mintToken(server.url, project, { environment: "live" });
    };
    provider.answer = everyoneVerified;
    const body = { application_id: applicationId, people: PEOPLE };
    for (const hours of [0, 1, 2]) await expectJson(await postCheck(await tokenAt(hours), body), 201);
    const refused = await postCheck(await tokenAt(3), body, { "idempotency-key": "fourth-check" });
    const error = await expectApiError(refused, 429, "rate_limited");
    expect(error.error).toMatchObject({
      retryable: true,
      retry_after_ms: 21 * HOUR_MS,
      message: `Application ${applicationId} has had 3 identity checks in the last 24 hours, the most it may have; the next can run from 2027-07-02T10:00:00.000Z.`,
    });
    expect(refused.headers.get("retry-after")).toBe(String(21 * 3600));
    expect(calls).toHaveLength(3);
    expect(await db().identityCheck.count({ where: { applicationId } })).toBe(3);

    await expectJson(await postCheck(await tokenAt(24), body, { "idempotency-key": "fourth-check" }), 201);
    expect(calls).toHaveLength(4);
    // The call a day old is forgotten: only the last 24 hours' are kept.
    const kept = await db().identityCheckAttempt.findMany({ where: { applicationId }, orderBy: { attemptedAt: "asc" } });
    expect(kept.map((attempt) => attempt.attemptedAt.toISOString())).toEqual([at(1), at(2), at(24)].map((moment) => moment.toISOString()));
  });

  it("counts calls still waiting for the provider: of five at once, three reach it and two are refused at once", async () => {
    const { applicationId, token } = await livePartner();
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    provider.answer = async (call) => {
      await held;
      return everyoneVerified(call);
    };
    const settled: number[] = [];
    const requests = Array.from({ length: 5 }, () => postCheck(token, { application_id: applicationId, people: PEOPLE }).then((response) => (settled.push(response.status), response)));
    // The two refused answer while the other three are still waiting for the provider.
    await eventually(async () => ({ settled: [...settled], calls: calls.length }), (now) => now.settled.length === 2 && now.calls === 3);
    expect(settled).toEqual([429, 429]);
    letGo();
    const statuses = (await Promise.all(requests)).map((response) => response.status);
    expect(statuses.sort()).toEqual([201, 201, 201, 429, 429]);
    expect(calls).toHaveLength(3);
    expect(await db().identityCheck.count({ where: { applicationId } })).toBe(3);
  });

  it("does not count a call the provider did not answer", async () => {
    const { applicationId, token } = await livePartner();
    const body = { application_id: applicationId, people: PEOPLE };
    // A second apart: the endpoint's own limit is 5 a second.
    let second = 0;
    const postLater = () => {
      second += 1;
      freezeClock(new Date(Date.parse(T0) + second * 1_000));
      return postCheck(token, body);
    };
    provider.answer = () => ({ status: 502, body: {} });
    for (let attempt = 0; attempt < 3; attempt += 1) await expectApiError(await postLater(), 503, "service_unavailable");
    provider.answer = everyoneVerified;
    for (let attempt = 0; attempt < 3; attempt += 1) await expectJson(await postLater(), 201);
    expect((await expectApiError(await postLater(), 429, "rate_limited")).error.message).toMatch(/has had 3 identity checks in the last 24 hours/);
    expect(calls).toHaveLength(6);
  });
});
