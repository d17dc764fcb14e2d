// The lending lifecycle over HTTP only, as an integrator meets it in the sandbox: create an application,
// submit it through the test helper, and read the decision the local driver produced; then the magic numbers,
// a referral resolved by the test helper, funding, and the events each move wrote.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError, jsonRequest, expectJson } from "../../helpers/http";
import { bearer, createTestProject, mintToken, untilDecided } from "../../helpers/partner";

let server: AppServer;
let project: ProjectCredentials;
let token: string;

beforeAll(async () => {
  server = await startAppServer();
});
// A project per test: each has its own rate-limit buckets (5 creates a second per project).
beforeEach(async () => {
  project = await createTestProject();
  token = await mintToken(server.url, project);
});
afterAll(() => server?.close());

function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const init = body === undefined ? { method, headers } : jsonRequest(method, body, headers);
  return fetch(`${server.url}/partner/v1${path}`, bearer(token, init));
}

async function createApplication(companyNumber: string, extra: Record<string, unknown> = {}) {
  return expectJson(
    await call("POST", "/applications", {
      business: { company_number: companyNumber },
      amount_pence: 5_000_000,
      term_months: 24,
      purpose: "working_capital",
      applicant: { email: "director@example.co.uk", first_name: "Ada" },
      reference: `ref-${companyNumber}`,
      ...extra,
    }),
    201,
  );
}

/** Reads the application over HTTP until it is decided, running its decisioning as the background driver would. */
async function waitForDecision(id: string) {
  return untilDecided(id, async () => expectJson(await call("GET", `/applications/${id}`), 200));
}

async function eventTypesFor(objectId: string): Promise<string[]> {
  const events = await db().event.findMany({ where: { projectId: project.project_id }, orderBy: { id: "asc" } });
  return events.filter((event) => (event.object as { id?: string; application_id?: string }).id === objectId || (event.object as { application_id?: string }).application_id === objectId).map((event) => event.type);
}

describe("the sandbox lifecycle", () => {
  it("creates, submits and decides an application within seconds, over HTTP only", async () => {
    const started = Date.now();
    const application = await createApplication("12345678");
    expect(application).toMatchObject({
      object: "application",
      status: "created",
      livemode: false,
      business: { company_number: "12345678", name: "Sandbox Trading 12345678 Ltd" },
      amount_pence: 5_000_000,
      term_months: 24,
      purpose: "working_capital",
      reference: "ref-12345678",
      decision: null,
      account_id: null,
      metadata: {},
    });
    expect(application.id).toMatch(/^app_[0-9a-z]{26}$/);
    expect(application.handoff_url).toMatch(/\/apply\/[0-9A-Za-z]{32}$/);
    expect(application.handoff_url).not.toContain(application.id);
    expect(new Date(application.expires_at).getTime() - new Date(application.created_at).getTime()).toBe(14 * 86_400_000);

    const submitted = await expectJson(await call("POST", `/test_helpers/applications/${application.id}/submit`), 200);
    expect(submitted.status).toBe("submitted");

    const decided = await waitForDecision(application.id);
    expect(decided.status).toBe("approved");
    const decision = await expectJson(await call("GET", `/decisions/${decided.decision}`), 200);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(decision).toMatchObject({
      object: "decision",
      application_id: application.id,
      outcome: "approved",
      approved_amount_pence: 5_000_000,
      apr_bps: 1700,
      reference: "ref-12345678",
      version: 1,
      reasons: [],
      conditions: [],
      locked: false,
    });
    expect(decision.offer.principal_pence).toBe(5_000_000);
    expect(decision.offer.total_repayable_pence).toBe(decision.offer.principal_pence + decision.offer.total_interest_pence);
    expect(decision.offer.schedule_preview).toHaveLength(3);

    expect(await eventTypesFor(application.id)).toEqual(["application.created", "application.submitted", "decision.completed"]);
  });

  it.each([
    ["12340001", "adverse_credit"],
    ["12340002", "affordability"],
    ["12340003", "insufficient_trading_history"],
    ["12340004", "identity_unverified"],
    ["12340005", "out_of_appetite"],
  ])("declines %s for %s", async (companyNumber, reason) => {
    const application = await createApplication(companyNumber);
    await expectJson(await call("POST", `/test_helpers/applications/${application.id}/submit`), 200);
    const decided = await waitForDecision(application.id);
    expect(decided.status).toBe("declined");
    const decision = await expectJson(await call("GET", `/decisions/${decided.decision}`), 200);
    expect(decision).toMatchObject({ outcome: "declined", approved_amount_pence: 0, offer: null });
    expect(decision.reasons.map((item: { code: string }) => item.code)).toEqual([reason]);
  });

  it("approves a number ending 0007 for half the amount, rounded down to whole pounds", async () => {
    const application = await createApplication("12340007", { amount_pence: 1_234_567 });
    await expectJson(await call("POST", `/test_helpers/applications/${application.id}/submit`), 200);
    const decided = await waitForDecision(application.id);
    const decision = await expectJson(await call("GET", `/decisions/${decided.decision}`), 200);
    expect(decision).toMatchObject({ outcome: "approved", approved_amount_pence: 617_200 });
    expect(decision.conditions[0].code).toBe("reduced_amount");
  });

  it("refers a number ending 0006 and resolves the referral through the test helper", async () => {
    const application = await createApplication("12340006");
    await expectJson(await call("POST", `/test_helpers/applications/${application.id}/submit`), 200);
    const referred = await waitForDecision(application.id);
    expect(referred.status).toBe("in_review");
    const decision = await expectJson(await call("GET", `/decisions/${referred.decision}`), 200);
    expect(decision.outcome).toBe("referred");

    const resolved = await expectJson(await call("POST", `/test_helpers/decisions/${decision.id}/resolve_referral`, { outcome: "approved" }), 200);
    expect(resolved).toMatchObject({ id: decision.id, outcome: "approved", version: 2, approved_amount_pence: 5_000_000 });
    const approved = await expectJson(await call("GET", `/applications/${application.id}`), 200);
    expect(approved.status).toBe("approved");

    const funded = await expectJson(await call("POST", `/test_helpers/applications/${application.id}/fund`), 200);
    expect(funded.status).toBe("funded");
    await expectApiError(await call("POST", `/applications/${application.id}/withdraw`), 409, "conflict");
    expect(await eventTypesFor(application.id)).toEqual([
      "application.created",
      "application.submitted",
      "decision.completed",
      "decision.referred",
      "decision.completed",
      "offer.accepted",
      "application.funded",
      "account.activated",
    ]);
  });

  it("keeps test helpers away from live tokens", async () => {
    const live = await mintToken(server.url, project, { environment: "live" });
    const response = await fetch(`${server.url}/partner/v1/test_helpers/applications/app_00000000000000000000000000/submit`, bearer(live, { method: "POST" }));
    await expectApiError(response, 404, "route_not_found");
  });
});
