// Events carry no personal data (docs/webhooks.md, "What events carry"): every event type the platform emits is
// fired here, over HTTP, from inputs full of names, dates of birth and email addresses (the partner API, the
// white-label flow, the hosted journey's "About you" and offer forms, a public enquiry), and no event's
// `data.object` may hold any of them. (No input takes a postal address today; the company's comes from the
// registry.) A type of the catalogue that nothing emits is named below: once something emits it, the walk must
// fire it too. The test clock's advance answers once done, however busy the machine, so the walk reads its events.
process.env.SANDBOX_CLOCK_ANSWER_WITHIN_MS = "30000";

import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freezeClock, restoreClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { EVENT_TYPES } from "@/lib/events/events";
import { verificationEventSchema } from "@/lib/identity/schemas";
import { openJourney } from "@/lib/journey/journey";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectJson, jsonRequest } from "../../helpers/http";
import { bearer, createTestPartner, untilDecided, type TestPartner } from "../../helpers/partner";
import { readSourceFiles } from "../../helpers/source-files";
import { dateOfBirthFields } from "../../helpers/journey-forms";

/** In the catalogue (spec 6.2 names them), emitted by nothing yet. */
const NOT_EMITTED = ["payment.paid", "consent.withdrawn"] as const;

// Names long and odd enough that no id or token holds them by chance. `Review` and `Unverified` are the sandbox
// provider's last names for a check referred and failed (docs/sandbox.md), so the first names carry the search.
const APPLICANT = { first_name: "Perpetua", last_name: "Quillfeather", date_of_birth: "1971-03-14", email: "perpetua.quillfeather@example.co.uk" };
const DIRECTOR = { first_name: "Bartholomew", last_name: "Drinkwater", date_of_birth: "1966-11-02" };
const REVIEWED = { first_name: "Hortensia", last_name: "Review", date_of_birth: "1983-07-29" };
const FAILED = { first_name: "Ignatius", last_name: "Unverified", date_of_birth: "1990-01-31" };
const SIGNATORY = "Perpetua Quillfeather-Signs";
const ENQUIRER = { name: "Wilhelmina Staunton", email: "wilhelmina.staunton@example.org" };

const PERSONAL = [APPLICANT, DIRECTOR, REVIEWED, FAILED].flatMap((person) => [person.first_name, `${person.first_name} ${person.last_name}`, person.date_of_birth]);
const CHOSEN = [...PERSONAL, APPLICANT.last_name, DIRECTOR.last_name, APPLICANT.email, SIGNATORY, ENQUIRER.name, ENQUIRER.email];
const EMAIL = /[^\s"@]+@[^\s"@]+\.[a-z]{2,}/i;

const WALK_START = new Date("2027-01-01T00:00:00.000Z");

let server: AppServer;
let partner: TestPartner;
let walkClock: ReturnType<typeof freezeClock>;

beforeAll(async () => {
  walkClock = freezeClock(WALK_START);
  process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
  server = await startAppServer();
  partner = await createTestPartner(server.url, { capabilities: ["white_label", "beta"] });
});
afterAll(async () => {
  restoreClock();
  await server?.close();
});

/** A partner's request, a second after the one before: the walk goes at a person's pace, within every limit. */
async function call(method: string, route: string, body?: unknown, status = 200) {
  walkClock.advance(1_000);
  const headers: Record<string, string> = method === "POST" ? { "idempotency-key": randomUUID() } : {};
  const init = body === undefined ? { method, headers } : jsonRequest(method, body, headers);
  return expectJson(await fetch(`${server.url}/partner/v1${route}`, bearer(partner.token, init)), status);
}

async function createApplication(companyNumber: string, more: Record<string, unknown> = {}) {
  return call("POST", "/applications", {
    business: { company_number: companyNumber },
    amount_pence: 1_200_000,
    term_months: 12,
    applicant: { email: APPLICANT.email, first_name: APPLICANT.first_name },
    reference: `walk-${companyNumber}`,
    ...more,
  }, 201);
}

async function identityCheck(applicationId: string, people: Array<{ first_name: string; last_name: string; date_of_birth: string }>) {
  return call("POST", "/identity/checks", { application_id: applicationId, people: people.map(({ first_name, last_name, date_of_birth }) => ({ first_name, last_name, date_of_birth, role: "director" })) }, 201);
}

/** The white-label flow to a funded account, with three identity checks (failed, referred, then verified). */
async function fundThroughWhiteLabel(companyNumber: string) {
  const application = await createApplication(companyNumber);
  await identityCheck(application.id, [FAILED]);
  await identityCheck(application.id, [REVIEWED]);
  const verified = await identityCheck(application.id, [APPLICANT, DIRECTOR]);
  // The white_label-gated read keeps the people: the check is what they were checked for.
  expect(verified.people.map((person: { first_name: string }) => person.first_name)).toEqual([APPLICANT.first_name, DIRECTOR.first_name]);
  const consents = ["credit_search", "data_sharing", "terms"].map((type) => ({ type, text_version: "2026-11-01" }));
  await call("POST", `/applications/${application.id}/consents`, { consents }, 201);
  await call("POST", `/applications/${application.id}/affordability`, { source: "sandbox_bank" }, 201);
  await call("POST", `/applications/${application.id}/submit`);
  const decided = await untilDecided(application.id, () => call("GET", `/applications/${application.id}`));
  expect(decided.status).toBe("approved");
  const funded = await call("POST", `/applications/${application.id}/accept`, { signatory_name: SIGNATORY });
  return funded.account_id as string;
}

/** The hosted journey's forms, as the applicant's browser posts them, to a funded account. */
async function fundThroughJourney(companyNumber: string) {
  const application = await createApplication(companyNumber);
  const { handoffToken } = await db().application.findUniqueOrThrow({ where: { id: application.id } });
  const formToken = (await openJourney(handoffToken))!.journey.formToken;
  const answer = async (step: string, fields: Record<string, string>) => {
    const response = await fetch(`${server.url}/apply/${handoffToken}/${step}/form`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ form_token: formToken, ...fields }),
      redirect: "manual",
    });
    expect(response.status).toBe(303);
    return response.headers.get("location");
  };
  expect(await answer("company", { annual_turnover: "£500,000" })).toBe(`/apply/${handoffToken}/loan`);
  expect(await answer("loan", { amount: "12,000", term_months: "12", purpose: "working_capital" })).toBe(`/apply/${handoffToken}/about-you`);
  const { date_of_birth: applicantDateOfBirth, ...applicant } = APPLICANT;
  expect(await answer("about-you", { ...applicant, ...dateOfBirthFields(applicantDateOfBirth), role: "director" })).toBe(`/apply/${handoffToken}/directors`);
  expect(await answer("directors", {
    director_first_name: DIRECTOR.first_name,
    director_last_name: DIRECTOR.last_name,
    ...dateOfBirthFields(DIRECTOR.date_of_birth, "director_"),
    action: "add",
  })).toBe(`/apply/${handoffToken}/directors`);
  expect(await answer("directors", { action: "continue" })).toBe(`/apply/${handoffToken}/bank`);
  await answer("bank", { action: "connect" });
  expect(await answer("check-answers", { consent_credit_search: "yes", consent_data_sharing: "yes", consent_terms: "yes" })).toBe(`/apply/${handoffToken}/waiting`);
  expect((await untilDecided(application.id, () => call("GET", `/applications/${application.id}`))).status).toBe("approved");
  expect(await answer("offer", { signatory_name: SIGNATORY })).toBe(`/apply/${handoffToken}/done`);
}

/** Every event of the partner's sandbox, over GET /events, oldest first. */
async function partnerEvents(): Promise<Array<{ id: string; type: string; data: { object: unknown } }>> {
  const events = [];
  let page = await call("GET", "/events?limit=100");
  events.push(...page.data);
  while (page.has_more) {
    page = await call("GET", `/events?limit=100&starting_after=${page.data.at(-1).id}`);
    events.push(...page.data);
  }
  return events.reverse();
}

it("fires every event type the platform emits, and none carries a name, date of birth or email address", async () => {
  // Webhook endpoints: disabled by their owner, enabled again.
  const endpoint = await call("POST", "/webhook_endpoints", { url: "https://127.0.0.1:9/hooks", enabled_events: ["*"], description: "walk" }, 201);
  await call("POST", `/webhook_endpoints/${endpoint.id}`, { disabled: true });
  await call("POST", `/webhook_endpoints/${endpoint.id}/enable`);

  // Funded through the white-label API, then paid off: account.updated, account.closed.
  const accountId = await fundThroughWhiteLabel("12340042");
  const failing = await call("POST", "/payments/links", { account_id: accountId, amount_pence: 5_000 }, 201);
  await call("POST", `/test_helpers/payments/${failing.id}/fail`, { failure_code: "insufficient_funds" });
  const { payoff_pence: payoff } = await call("GET", `/accounts/${accountId}/balance`);
  const payoffLink = await call("POST", "/payments/links", { account_id: accountId, amount_pence: payoff }, 201);
  await call("POST", `/test_helpers/payments/${payoffLink.id}/settle`);
  expect((await call("GET", `/accounts/${accountId}`)).status).toBe("settled");

  // Funded through the hosted journey: the "About you" answers run the identity check.
  await fundThroughJourney("12990043");

  // Referred (…0006), then resolved; expired; withdrawn.
  const referred = await createApplication("12340006");
  await call("POST", `/test_helpers/applications/${referred.id}/submit`);
  const inReview = await untilDecided(referred.id, () => call("GET", `/applications/${referred.id}`));
  expect(inReview.status).toBe("in_review");
  await call("POST", `/test_helpers/decisions/${inReview.decision}/resolve_referral`, { outcome: "declined", reason: "adverse_credit" });
  await call("POST", `/test_helpers/applications/${(await createApplication("12340042")).id}/expire`);
  await call("POST", `/applications/${(await createApplication("12340042")).id}/withdraw`, { reason: "found other finance" });

  // A …0009 company revokes its mandate before its first collection, which the test clock brings due.
  const revoking = await createApplication("12340009");
  await call("POST", `/test_helpers/applications/${revoking.id}/submit`);
  await untilDecided(revoking.id, () => call("GET", `/applications/${revoking.id}`));
  await call("POST", `/test_helpers/applications/${revoking.id}/fund`);
  await call("POST", "/test_helpers/clock/advance", { days: 35 });

  // A loan originated through a sub-account (beta), whose revenue share is paid out.
  const subAccount = await call("POST", "/sub-accounts", { name: "Northside Brokers" }, 201);
  const introduced = await createApplication("12340077", { sub_account_id: subAccount.id });
  await call("POST", `/test_helpers/applications/${introduced.id}/submit`);
  await untilDecided(introduced.id, () => call("GET", `/applications/${introduced.id}`));
  await call("POST", `/test_helpers/applications/${introduced.id}/fund`);
  await call("POST", "/test_helpers/payouts/run");

  // A public enquiry: a platform event, never delivered to a partner, and still without contact details.
  const enquiry = await expectJson(await fetch(`${server.url}/public/v1/enquiries`, jsonRequest("POST", { form: "enquiry", ...ENQUIRER, message: "Call me back" })), 201);
  const enquiryEvent = await db().event.findFirstOrThrow({ where: { projectId: null, type: "enquiry.created", object: { path: ["id"], equals: enquiry.id } } });

  const events = [...(await partnerEvents()), { id: enquiryEvent.id, type: enquiryEvent.type, data: { object: enquiryEvent.object } }];
  const emitted = EVENT_TYPES.filter((type) => !(NOT_EMITTED as readonly string[]).includes(type));
  expect([...new Set(events.map((event) => event.type))].sort()).toEqual([...emitted].sort());

  const leaks = events.flatMap((event) => {
    const text = JSON.stringify(event.data.object);
    const found = CHOSEN.filter((value) => text.includes(value));
    const email = EMAIL.exec(text)?.[0];
    // A date of 2010 or before: anyone checked was at least 16 when the platform's records began (2026), and no
    // lending object's date (a version, an incorporation, a schedule) is that old.
    const birthDates = [...text.matchAll(/\b(\d{4})-\d{2}-\d{2}\b/g)].filter((match) => Number(match[1]) <= 2010).map((match) => match[0]);
    return [...new Set([...found, ...(email ? [email] : []), ...birthDates])].map((value) => `${event.type} ${event.id}: ${value}`);
  });
  expect(leaks).toEqual([]);

  // The identity events carry one result per person checked, in order, and nothing a person is known by.
  const verifications = events.filter((event) => event.type.startsWith("identity.")).map((event) => event.data.object as Record<string, unknown>);
  expect(verifications.map((verification) => [verification.status, verification.results])).toEqual([
    ["failed", [{ role: "director", result: "failed" }]],
    ["review_required", [{ role: "director", result: "review_required" }]],
    ["verified", [{ role: "director", result: "verified" }, { role: "director", result: "verified" }]],
    ["verified", [{ role: "director", result: "verified" }, { role: "director", result: "verified" }]],
  ]);
  expect(Object.keys(verifications[0]!).sort()).toEqual(["application_id", "created_at", "id", "livemode", "object", "reference", "results", "status"]);
  for (const verification of verifications) expect(verificationEventSchema.safeParse(verification).error).toBeUndefined();
});

it("names in NOT_EMITTED only types that nothing in the source emits", () => {
  // The catalogue, and the dashboard's words for every type in it, name them without emitting them.
  const describers = new Set(["lib/events/events.ts", "app/(dashboard)/dashboard/_components/browse-words.ts"]);
  const emitters = readSourceFiles(["lib", "app"]).filter(({ file }) => !describers.has(file));
  for (const type of NOT_EMITTED) expect(emitters.filter(({ text }) => text.includes(`"${type}"`)).map(({ file }) => file), type).toEqual([]);
});
