// The hosted journey's forms over HTTP (POST /apply/{token}/{step}/form) and its pages' server render, against
// the real database: each step's answer and where the browser goes next, every refusal kept for the page with
// what was typed, the form token (CSRF), steps that cannot be answered out of turn, and the events the journey
// fires, the same as the white-label API's. The browser walk is tests/e2e/journey.spec.ts.
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import JourneyStepPage, { generateMetadata } from "@/app/(apply)/apply/[token]/[step]/page";
import { createApplication } from "@/lib/applications/create";
import { freezeClock, restoreClock, tickingClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { submitApplication } from "@/lib/applications/service";
import { lockApplication } from "@/lib/applications/transition";
import { decideOnItsClock } from "@/lib/decisions/background";
import { openJourney } from "@/lib/journey/journey";
import type { Tenant } from "@/lib/tenant";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { eventually } from "../../helpers/eventually";
import { expectErrorPage, expectSiteError } from "../../helpers/http";
import { dateOfBirthFields } from "../../helpers/journey-forms";
import { createTestProject } from "../../helpers/partner";
import { sessionPid, untilSessionsWaitOn } from "../../helpers/row-locks";
import { tenantNow } from "@/lib/tenant-clock";

let server: AppServer;
let tenant: Tenant;

beforeAll(async () => {
  server = await startAppServer();
  tenant = { projectId: (await createTestProject()).project_id, environment: "sandbox" };
});
afterAll(async () => {
  restoreClock();
  await server?.close();
});

// Each test at a minute of its own: the forms' per-address bucket (lib/clock.ts drives the limiter) is full at
// the start of each.
let minute = 0;
beforeEach(() => {
  minute += 1;
  freezeClock(new Date(Date.UTC(2032, 0, 1, 0, minute)));
});

// Sandbox Bank reads the third and fourth digits as £1,000s of monthly turnover (docs/sandbox.md): 99 is
// plenty for any amount here; the last four digits are the sandbox's outcomes.
const APPROVED = "12990042";

async function newApplication(companyNumber = APPROVED, extra: { redirect_uri?: string; amount_pence?: number; reference?: string } = {}) {
  const application = await createApplication({
    tenant, now: await tenantNow(tenant),
    input: { business: { company_number: companyNumber }, amount_pence: 2_500_000, term_months: 12, applicant: { email: "ada@example.co.uk", first_name: "Ada" }, ...extra },
  });
  const { handoffToken } = await db().application.findUniqueOrThrow({ where: { id: application.id } });
  const journey = (await openJourney(handoffToken))!;
  return { id: application.id, token: handoffToken, formToken: journey.journey.formToken };
}

type Started = Awaited<ReturnType<typeof newApplication>>;

async function post(started: Started, step: string, fields: Record<string, string>, formToken = started.formToken): Promise<Response> {
  return fetch(`${server.url}/apply/${started.token}/${step}/form`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ form_token: formToken, ...fields }),
    redirect: "manual",
  });
}

/** The query of the address the last refused answer sent the browser to: the refusal's id, which its page needs to show it. */
let refusedQuery: Record<string, string> = {};

/** Answers a step and returns the step the browser is sent to (a refused answer's address carries `?refused=`, kept in `refusedQuery`). */
async function answer(started: Started, step: string, fields: Record<string, string>): Promise<string> {
  const response = await post(started, step, fields);
  expect(response.status).toBe(303);
  const location = new URL(response.headers.get("location")!, server.url);
  if (location.searchParams.has("refused")) {
    expect(location.searchParams.get("refused")).toMatch(/^[0-9A-Za-z]{16}$/);
    refusedQuery = Object.fromEntries(location.searchParams);
  }
  return location.pathname.replace(`/apply/${started.token}/`, "");
}

const COMPANY = { annual_turnover: "£500,000" };
const LOAN = { amount: "20,000", term_months: "12", purpose: "working_capital" };
const ABOUT_YOU = { first_name: "Ada", last_name: "Lovelace", ...dateOfBirthFields("1980-04-23"), email: "ada@example.co.uk", role: "director" };
const CONSENTS = { consent_credit_search: "yes", consent_data_sharing: "yes", consent_terms: "yes" };

/** A director as the directors' page's form posts one. */
function directorFields(first_name: string, last_name: string, dateOfBirth: string): Record<string, string> {
  return { director_first_name: first_name, director_last_name: last_name, ...dateOfBirthFields(dateOfBirth, "director_") };
}

/** "Your company", then "Your loan": the browser is at "About you". */
async function throughLoan(started: Started, loan: Record<string, string> = LOAN) {
  expect(await answer(started, "company", COMPANY)).toBe("loan");
  expect(await answer(started, "loan", loan)).toBe("about-you");
}

/** "About you", then each other director added, then Continue, which checks everyone: the browser is at the bank. */
async function throughPeople(started: Started, aboutYou: Record<string, string> = ABOUT_YOU, directors: Record<string, string>[] = []) {
  expect(await answer(started, "about-you", aboutYou)).toBe("directors");
  for (const director of directors) expect(await answer(started, "directors", { ...director, action: "add" })).toBe("directors");
  expect(await answer(started, "directors", { action: "continue" })).toBe("bank");
}

async function throughToSubmitted(started: Started, aboutYou = ABOUT_YOU) {
  await throughLoan(started);
  await throughPeople(started, aboutYou);
  expect(await answer(started, "bank", { action: "connect" })).toBe("check-answers");
  expect(await answer(started, "check-answers", CONSENTS)).toBe("waiting");
}

async function eventTypes(applicationId: string): Promise<string[]> {
  const events = await db().event.findMany({ where: { projectId: tenant.projectId }, orderBy: { id: "asc" } });
  return events.filter((event) => JSON.stringify(event.object).includes(applicationId)).map((event) => event.type);
}

/** Decisions the submitted application: the decisioning queued at submit may hold it, so until it is decided. */
function decide(id: string) {
  return eventually(() => db().application.findUniqueOrThrow({ where: { id } }), (application) => Boolean(application.decisionId), {
    drive: () => decideOnItsClock(id),
  });
}

async function renderStep(token: string, step: string, query: Record<string, string> = {}): Promise<string> {
  const html = renderToStaticMarkup(await JourneyStepPage({ params: Promise.resolve({ token, step }), searchParams: Promise.resolve(query) }));
  return html.replace(/<[^>]+>/g, " ").replace(/&#x27;/g, "'").replace(/&amp;/g, "&").replace(/\s+/g, " ").trim();
}

describe("the time of a journey's request", () => {
  it("is read once: the consents a step records and the submission it makes carry the same time, however the clock moves meanwhile", async () => {
    const started = await newApplication(APPROVED);
    await throughLoan(started);
    await throughPeople(started);
    expect(await answer(started, "bank", { action: "connect" })).toBe("check-answers");
    tickingClock(new Date(Date.UTC(2032, 0, 1, 0, minute, 30)), 7);
    expect(await answer(started, "check-answers", CONSENTS)).toBe("waiting");
    freezeClock(new Date(Date.UTC(2032, 0, 1, 0, minute, 59)));

    const application = await db().application.findUniqueOrThrow({ where: { id: started.id } });
    const consents = await db().applicationConsent.findMany({ where: { applicationId: started.id } });
    expect(consents).toHaveLength(3);
    for (const consent of consents) expect(consent.grantedAt).toEqual(application.submittedAt);
    expect(application.consentedAt).toEqual(application.submittedAt);
    const events = await db().event.findMany({ where: { projectId: tenant.projectId, type: { in: ["consent.granted", "application.submitted"] } } });
    const ofThisApplication = events.filter((event) => JSON.stringify(event.object).includes(started.id));
    expect(ofThisApplication.map((event) => event.type).sort()).toEqual(["application.submitted", "consent.granted", "consent.granted", "consent.granted"]);
    for (const event of ofThisApplication) expect(event.createdAt).toEqual(application.submittedAt);
  });
});

describe("a whole journey", () => {
  it("goes from the company to a funded account, firing the same events as the white-label API", async () => {
    const started = await newApplication(APPROVED);
    await throughToSubmitted(started);
    let application = await db().application.findUniqueOrThrow({ where: { id: started.id } });
    expect(application).toMatchObject({ status: "submitted", amountPence: 2_000_000, termMonths: 12, purpose: "working_capital" });
    expect(Number(application.declaredAnnualTurnoverPence)).toBe(50_000_000);
    expect(await db().identityCheck.count({ where: { applicationId: started.id } })).toBe(1);
    expect(await db().affordabilityRecord.count({ where: { applicationId: started.id } })).toBe(1);
    expect((await db().applicationConsent.findMany({ where: { applicationId: started.id } })).map((consent) => [consent.type, consent.source]).sort()).toEqual([
      ["credit_search", "hosted"],
      ["data_sharing", "hosted"],
      ["terms", "hosted"],
    ]);

    await decide(started.id);
    expect(await renderStep(started.token, "offer")).toContain("Type your full name to sign");
    expect(await answer(started, "offer", { signatory_name: "Ada Lovelace" })).toBe("done");
    application = await db().application.findUniqueOrThrow({ where: { id: started.id } });
    expect(application.status).toBe("funded");
    expect(application.accountId).toMatch(/^acc_/);
    const types = await eventTypes(started.id);
    expect(types.filter((type) => type === "consent.granted")).toHaveLength(3);
    for (const type of ["application.submitted", "identity.verified", "decision.completed", "offer.accepted", "application.funded"]) expect(types).toContain(type);
    const done = await renderStep(started.token, "done");
    expect(done).toContain("Your loan is on its way");
    expect(done).toContain(`Your reference is ${started.id.slice(-8, -4).toUpperCase()}-${started.id.slice(-4).toUpperCase()} : keep it`);
    expect(done).not.toContain(started.id);
  });

  it("refers an applicant whose identity needs review, and the waiting page says an underwriter will look", async () => {
    const started = await newApplication("12990043");
    await throughToSubmitted(started, { ...ABOUT_YOU, last_name: "Review" });
    await decide(started.id);
    expect((await db().application.findUniqueOrThrow({ where: { id: started.id } })).status).toBe("in_review");
    expect(await renderStep(started.token, "waiting")).toContain("An underwriter is looking at your application");
  });

  it("shows a declined company the reasons and what it can do next", async () => {
    const started = await newApplication("12990002");
    await throughToSubmitted(started);
    await decide(started.id);
    const text = await renderStep(started.token, "offer");
    expect(text).toContain("We cannot offer a loan this time");
    expect(text).toContain("The repayments are not affordable on the business's turnover.");
    expect(text).toContain("apply for a smaller amount, or over a longer term");
  });
});

describe("the loan, a page of its own", () => {
  it("comes after the company and before About you, and the status says where the journey is", async () => {
    const started = await newApplication();
    const status = async () => (await fetch(`${server.url}/apply/${started.token}/status`)).json();
    expect(await answer(started, "company", COMPANY)).toBe("loan");
    expect(await status()).toEqual({ step: "loan", under_review: false });
    const journey = await db().applicationJourney.findUniqueOrThrow({ where: { applicationId: started.id } });
    expect(journey.companyConfirmedAt).not.toBeNull();
    expect(journey.loanConfirmedAt).toBeNull();
    expect(await answer(started, "loan", LOAN)).toBe("about-you");
    expect(await status()).toEqual({ step: "about-you", under_review: false });
    expect((await db().applicationJourney.findUniqueOrThrow({ where: { applicationId: started.id } })).loanConfirmedAt).not.toBeNull();
  });

  it("asks only what is borrowed: the amount, the term and the purpose, with one Continue button", async () => {
    const started = await newApplication();
    await answer(started, "company", COMPANY);
    const html = renderToStaticMarkup(await JourneyStepPage({ params: Promise.resolve({ token: started.token, step: "loan" }), searchParams: Promise.resolve({}) }));
    expect([...html.matchAll(/ name="([^"]+)"/g)].map((match) => match[1])).toEqual(["form_token", "amount", "term_months", "purpose"]);
    expect([...html.matchAll(/<button[^>]*>([^<]+)<\/button>/g)].map((match) => match[1])).toEqual(["Continue"]);
    const text = await renderStep(started.token, "loan");
    for (const label of ["Your loan", "How much would you like to borrow?", "Over how long?", "What is the money for?", "Step 2 of 6"]) expect(text).toContain(label);
    expect((await generateMetadata({ params: Promise.resolve({ token: started.token, step: "loan" }) })).title).toBe("Your loan");
  });

  it("leaves the company page asking only for the company's turnover beside the company it confirms", async () => {
    const started = await newApplication();
    const html = renderToStaticMarkup(await JourneyStepPage({ params: Promise.resolve({ token: started.token, step: "company" }), searchParams: Promise.resolve({}) }));
    expect([...html.matchAll(/ name="([^"]+)"/g)].map((match) => match[1])).toEqual(["form_token", "annual_turnover"]);
    expect(await renderStep(started.token, "company")).toContain("Company number 12990042");
  });

  it("is not shown before the company is confirmed, and its form sends the browser back to the company", async () => {
    const started = await newApplication();
    expect(await renderStep(started.token, "loan")).toContain("Finish the earlier steps first");
    expect(await answer(started, "loan", LOAN)).toBe("company");
    expect((await db().application.findUniqueOrThrow({ where: { id: started.id } })).amountPence).toBe(2_500_000);
  });

  it("does not move on from the loan while it is not given, even when later steps were reached before it (a journey resumes at it)", async () => {
    const started = await newApplication();
    await throughLoan(started);
    await throughPeople(started);
    // A journey whose loan mark is missing resumes at the loan; the migration marks those confirmed before this page existed.
    await db().applicationJourney.update({ where: { applicationId: started.id }, data: { loanConfirmedAt: null } });
    expect(await answer(started, "bank", { action: "connect" })).toBe("loan");
    expect(await answer(started, "loan", LOAN)).toBe("about-you");
    expect(await answer(started, "bank", { action: "connect" })).toBe("check-answers");
  });
});

describe("refusals", () => {
  it("keeps what was typed and a message per field, and clears them once the step is answered", async () => {
    const started = await newApplication();
    expect(await answer(started, "company", COMPANY)).toBe("loan");
    expect(await answer(started, "loan", { ...LOAN, amount: "999999", purpose: "holiday" })).toBe("loan");
    const refusal = (await db().applicationJourney.findUniqueOrThrow({ where: { applicationId: started.id } })).refusal as { errors: Record<string, string>; values: Record<string, string> };
    expect(refusal.errors).toEqual({ amount: "The amount must be between £1,000 and £250,000.", purpose: "Choose what the money is for." });
    expect(refusal.values.amount).toBe("999999");
    expect(refusal.values).not.toHaveProperty("form_token");
    const page = await renderStep(started.token, "loan", refusedQuery);
    expect(page).toContain("There is a problem The amount must be between £1,000 and £250,000. Choose what the money is for.");
    expect((await generateMetadata({ params: Promise.resolve({ token: started.token, step: "loan" }), searchParams: Promise.resolve(refusedQuery) })).title).toBe("Error: Your loan");

    // Whoever opens the link later, without the refused post's address, sees the step as it stands.
    const reopened = await renderStep(started.token, "loan");
    expect(reopened).not.toContain("There is a problem");
    expect(reopened).not.toContain("999999");
    expect(await renderStep(started.token, "loan", { refused: "x".repeat(16) })).not.toContain("There is a problem");
    expect((await generateMetadata({ params: Promise.resolve({ token: started.token, step: "loan" }) })).title).toBe("Your loan");

    expect(await answer(started, "loan", LOAN)).toBe("about-you");
    expect((await db().applicationJourney.findUniqueOrThrow({ where: { applicationId: started.id } })).refusal).toBeNull();
  });

  it.each([
    ["an amount in words", { amount: "lots" }, "amount", "Enter the amount in pounds, such as 25,000 or 1,000.50."],
    ["an amount with a tenth of a penny", { amount: "1000.505" }, "amount", "Enter the amount in pounds, such as 25,000 or 1,000.50."],
    ["an amount a penny short of the least", { amount: "999.99" }, "amount", "The amount must be between £1,000 and £250,000."],
    ["a term out of range", { term_months: "99" }, "term_months", "The term must be between 3 and 60 months."],
    ["a term in words", { term_months: "a year" }, "term_months", "Enter the term as a number of months, such as 12."],
    ["no purpose", { purpose: "" }, "purpose", "Choose what the money is for."],
  ])("refuses %s on the loan step, and the journey stays there", async (_case, change, field, message) => {
    const started = await newApplication();
    expect(await answer(started, "company", COMPANY)).toBe("loan");
    expect(await answer(started, "loan", { ...LOAN, ...change })).toBe("loan");
    const journey = await db().applicationJourney.findUniqueOrThrow({ where: { applicationId: started.id } });
    expect((journey.refusal as { errors: Record<string, string> }).errors).toEqual({ [field]: message });
    expect(journey.loanConfirmedAt).toBeNull();
    expect(await renderStep(started.token, "loan", refusedQuery)).toContain(`There is a problem ${message}`);
  });

  it.each([
    ["no turnover", { annual_turnover: "" }, "Enter the annual turnover in pounds, such as 25,000 or 1,000.50."],
    ["a turnover in words", { annual_turnover: "plenty" }, "Enter the annual turnover in pounds, such as 25,000 or 1,000.50."],
  ])("refuses %s on the company step, and the journey stays there", async (_case, change, message) => {
    const started = await newApplication();
    expect(await answer(started, "company", { ...COMPANY, ...change })).toBe("company");
    const journey = await db().applicationJourney.findUniqueOrThrow({ where: { applicationId: started.id } });
    expect((journey.refusal as { errors: Record<string, string> }).errors).toEqual({ annual_turnover: message });
    expect(journey.companyConfirmedAt).toBeNull();
  });

  it("refuses an applicant under 18, and a director added with a first name only, each field with its message", async () => {
    const started = await newApplication();
    await throughLoan(started);
    expect(await answer(started, "about-you", { ...ABOUT_YOU, ...dateOfBirthFields("2016-01-01") })).toBe("about-you");
    const refusalOf = async () => (await db().applicationJourney.findUniqueOrThrow({ where: { applicationId: started.id } })).refusal as { errors: Record<string, string> };
    expect((await refusalOf()).errors).toEqual({ "date_of_birth-day": "You must be 18 or over to apply" });
    expect(await answer(started, "about-you", ABOUT_YOU)).toBe("directors");
    expect(await answer(started, "directors", { director_first_name: "Grace", action: "add" })).toBe("directors");
    expect((await refusalOf()).errors).toEqual({
      director_last_name: "Enter the director's last name",
      "director_date_of_birth-day": "Enter the director's date of birth",
    });
    // Continue with a director half typed refuses it too, rather than dropping it.
    expect(await answer(started, "directors", { director_first_name: "Grace", action: "continue" })).toBe("directors");
    expect(await answer(started, "directors", { ...directorFields("Grace", "Hopper", "2020-01-01"), action: "add" })).toBe("directors");
    expect((await refusalOf()).errors).toEqual({ "director_date_of_birth-day": "A director must be 16 or over" });
    expect(await db().identityCheck.count({ where: { applicationId: started.id } })).toBe(0);
  });

  it("lists the errors in the order of the page's fields, each once, each linking to its field", async () => {
    const started = await newApplication();
    await throughLoan(started);
    const form = { ...ABOUT_YOU, first_name: "", "date_of_birth-month": "", email: "ada@", role: "" };
    expect(await answer(started, "about-you", form)).toBe("about-you");
    const html = renderToStaticMarkup(await JourneyStepPage({ params: Promise.resolve({ token: started.token, step: "about-you" }), searchParams: Promise.resolve(refusedQuery) }));
    const summary = /<ul>(.*?)<\/ul>/.exec(html)![1]!;
    expect([...summary.matchAll(/<a href="#([^"]+)">([^<]+)<\/a>/g)].map((link) => [link[1], link[2]!.replace(/&#x27;/g, "'")])).toEqual([
      ["first_name", "Enter your first name"],
      ["date_of_birth-month", "Date of birth must include a month"],
      ["email", "Enter an email address in the correct format, like name@example.co.uk"],
      ["role", "Select your role in the company"],
    ]);
    // The month is the field marked; the day and year keep what was typed.
    expect(html).toMatch(/<input id="date_of_birth-month"[^>]*aria-invalid="true"/);
    expect(html).not.toMatch(/<input id="date_of_birth-day"[^>]*aria-invalid="true"/);
    expect(html).toMatch(/<input type="radio" id="role"[^>]*aria-invalid="true"/);
  });

  it("runs at most three identity checks of an application a day, then says when the next can run", async () => {
    const started = await newApplication();
    await throughLoan(started);
    // The first check when the directors' page is finished; once checked, each changed "About you" is checked again.
    await throughPeople(started);
    for (let check = 1; check < 3; check += 1) expect(await answer(started, "about-you", ABOUT_YOU)).toBe("directors");
    expect(await answer(started, "about-you", { ...ABOUT_YOU, last_name: "Byron" })).toBe("about-you");
    const refusal = (await db().applicationJourney.findUniqueOrThrow({ where: { applicationId: started.id } })).refusal as { errors: Record<string, string> };
    expect(refusal.errors).toEqual({
      form: `We have already checked the details of the people behind this application 3 times in the last 24 hours, the most we can. You can try again from 00:${String(minute).padStart(2, "0")} on 2 January 2032.`,
    });
    expect(await db().identityCheck.count({ where: { applicationId: started.id } })).toBe(3);
    expect(await renderStep(started.token, "about-you", refusedQuery)).toContain("the most we can. You can try again from");
  });

  it("submits nothing until every consent is given, naming the missing ones", async () => {
    const started = await newApplication();
    await throughLoan(started);
    await throughPeople(started);
    await answer(started, "bank", { action: "connect" });
    expect(await answer(started, "check-answers", { consent_terms: "yes" })).toBe("check-answers");
    expect((await db().application.findUniqueOrThrow({ where: { id: started.id } })).status).toBe("created");
    const refusal = (await db().applicationJourney.findUniqueOrThrow({ where: { applicationId: started.id } })).refusal as { errors: Record<string, string> };
    expect(refusal.errors).toEqual({
      consent_credit_search: "Tick the box to agree to a credit search of the company and its directors",
      consent_data_sharing: "Tick the box to agree to the lender sharing this application's data with its partners",
    });
  });

  it("refuses an offer accepted without a name", async () => {
    const started = await newApplication("12990044");
    await throughToSubmitted(started);
    await decide(started.id);
    expect(await answer(started, "offer", { signatory_name: " " })).toBe("offer");
    expect((await db().application.findUniqueOrThrow({ where: { id: started.id } })).status).toBe("approved");
  });
});

describe("the pages around the submit", () => {
  it("link the loan terms to their page, explain the credit search and the data sharing, and take the term as a number of months", async () => {
    const started = await newApplication();
    await throughLoan(started, { ...LOAN, term_months: "18 months" });
    expect((await db().application.findUniqueOrThrow({ where: { id: started.id } })).termMonths).toBe(18);
    await throughPeople(started);
    await answer(started, "bank", { action: "connect" });
    const html = renderToStaticMarkup(await JourneyStepPage({ params: Promise.resolve({ token: started.token, step: "check-answers" }), searchParams: Promise.resolve({}) }));
    expect(html).toContain('<a href="/business-loan-terms" target="_blank" rel="noopener noreferrer">Business Loan terms and conditions (opens in new tab)</a>');
    expect(html).toContain("<summary>What a credit search involves</summary>");
    expect(html).toContain("<summary>Who we share the application with</summary>");
    const loan = renderToStaticMarkup(await JourneyStepPage({ params: Promise.resolve({ token: started.token, step: "loan" }), searchParams: Promise.resolve({}) }));
    expect(loan).not.toContain("<select id=\"term_months\"");
    expect(/<input id="term_months"[^>]* value="([^"]*)"/.exec(loan)![1]).toBe("18");
  });

  it("moves a waiting page on by itself without JavaScript while a decision is due, but not while an underwriter reviews it", async () => {
    const started = await newApplication("12990043");
    await throughToSubmitted(started);
    const submitted = renderToStaticMarkup(await JourneyStepPage({ params: Promise.resolve({ token: started.token, step: "waiting" }), searchParams: Promise.resolve({}) }));
    expect(submitted).toContain('<meta http-equiv="refresh" content="5"/>');
    const referred = await newApplication("12990043");
    await throughToSubmitted(referred, { ...ABOUT_YOU, last_name: "Review" });
    await decide(referred.id);
    const reviewing = renderToStaticMarkup(await JourneyStepPage({ params: Promise.resolve({ token: referred.token, step: "waiting" }), searchParams: Promise.resolve({}) }));
    expect(reviewing).toContain("An underwriter is looking at your application");
    expect(reviewing).not.toContain("http-equiv");
  });

  it("gives the partner's own reference on the done page when it gave one", async () => {
    const started = await newApplication(APPROVED, { reference: "ORDER-4471" });
    await throughToSubmitted(started);
    await decide(started.id);
    await answer(started, "offer", { signatory_name: "Ada Lovelace" });
    expect(await renderStep(started.token, "done")).toContain("Your reference is ORDER-4471 : keep it");
  });
});

describe("check your answers", () => {
  it("lists every answer grouped by step, the date of birth by its year only, each with a Change link that comes back here", async () => {
    const started = await newApplication();
    await throughLoan(started);
    await throughPeople(started, ABOUT_YOU, [directorFields("Grace", "Hopper", "1966-12-09")]);
    expect(await answer(started, "bank", { action: "connect" })).toBe("check-answers");
    const page = await renderStep(started.token, "check-answers");
    for (const shown of [
      "Your company Company Sandbox Trading 12990042 Ltd (12990042) Annual turnover £500,000.00 Change the annual turnover Your loan Amount £20,000.00 Change the amount Term 12 months Change the term Purpose Working capital Change the purpose",
      "About you Name Ada Lovelace Change your name Date of birth ** ** 1980 Change your date of birth Email ada@example.co.uk Change your email Your role Director (or designated member of an LLP) Change your role",
      "Other directors Other director 1 Grace Hopper, born ** ** 1966 Change other director 1",
      "Your bank Business bank account Connected: twelve months of turnover,",
    ]) {
      expect(page).toContain(shown);
    }
    expect(page).not.toContain("1980-04-23");
    const html = renderToStaticMarkup(await JourneyStepPage({ params: Promise.resolve({ token: started.token, step: "check-answers" }), searchParams: Promise.resolve({}) }));
    for (const [field, label] of [["amount", "the amount"], ["term_months", "the term"], ["purpose", "the purpose"]]) {
      expect(html).toContain(`<a href="/apply/${started.token}/loan?return=check-answers#${field}">Change<span class="visually-hidden"> ${label}</span></a>`);
    }
    expect(html).toContain(`<a href="/apply/${started.token}/company?return=check-answers#annual_turnover">Change<span class="visually-hidden"> the annual turnover</span></a>`);

    // A Change link's page carries the way back, and its answer returns to the summary, even when refused first.
    const loan = renderToStaticMarkup(await JourneyStepPage({ params: Promise.resolve({ token: started.token, step: "loan" }), searchParams: Promise.resolve({ return: "check-answers" }) }));
    expect(loan).toContain('<input type="hidden" name="return" value="check-answers"/>');
    const refused = await post(started, "loan", { ...LOAN, amount: "5", return: "check-answers" });
    expect(refused.headers.get("location")).toMatch(new RegExp(`^/apply/${started.token}/loan\\?refused=\\w{16}&return=check-answers$`));
    expect(await answer(started, "loan", { ...LOAN, amount: "30,000", term_months: "24", purpose: "stock", return: "check-answers" })).toBe("check-answers");
    expect(await renderStep(started.token, "check-answers")).toContain("Your loan Amount £30,000.00 Change the amount Term 24 months Change the term Purpose Buying stock Change the purpose");
    expect(await answer(started, "company", { annual_turnover: "£600,000", return: "check-answers" })).toBe("check-answers");
    expect(await renderStep(started.token, "check-answers")).toContain("Annual turnover £600,000.00");
    expect(await answer(started, "about-you", { ...ABOUT_YOU, "date_of_birth-day": "", "date_of_birth-month": "", "date_of_birth-year": "", return: "check-answers" })).toBe("check-answers");
    expect(await answer(started, "directors", { ...directorFields("Katherine", "Johnson", "1958-08-26"), action: "add", return: "check-answers" })).toBe("directors");
    expect(await answer(started, "directors", { action: "continue", return: "check-answers" })).toBe("check-answers");
    expect(await renderStep(started.token, "check-answers")).toContain("Other director 2 Katherine Johnson, born ** ** 1958 Change other director 2");
    expect(await answer(started, "bank", { action: "connect", return: "check-answers" })).toBe("check-answers");
    // Without the way back, a step goes on to the next as before; nothing but the last step submits.
    expect(await answer(started, "company", COMPANY)).toBe("loan");
    expect(await answer(started, "loan", LOAN)).toBe("about-you");
    expect((await db().application.findUniqueOrThrow({ where: { id: started.id } })).status).toBe("created");
  });

  it("does not return to the summary from a step answered before the summary is reached", async () => {
    const started = await newApplication();
    expect(await answer(started, "company", { ...COMPANY, return: "check-answers" })).toBe("loan");
    expect(await answer(started, "loan", { ...LOAN, return: "check-answers" })).toBe("about-you");
  });
});

describe("amounts", () => {
  it("round-trip: a partner's amount in odd pence is shown as the applicant writes it, and the page takes back what it shows", async () => {
    const started = await newApplication(APPROVED, { amount_pence: 100_050 });
    expect(await answer(started, "company", { annual_turnover: "£1,234,567.89" })).toBe("loan");
    const html = renderToStaticMarkup(await JourneyStepPage({ params: Promise.resolve({ token: started.token, step: "loan" }), searchParams: Promise.resolve({}) }));
    const shown = /<input id="amount"[^>]* value="([^"]*)"/.exec(html)![1]!;
    expect(shown).toBe("1,000.50");
    expect(await answer(started, "loan", { ...LOAN, amount: shown })).toBe("about-you");
    const application = await db().application.findUniqueOrThrow({ where: { id: started.id } });
    expect(application.amountPence).toBe(100_050);
    expect(Number(application.declaredAnnualTurnoverPence)).toBe(123_456_789);
    const again = renderToStaticMarkup(await JourneyStepPage({ params: Promise.resolve({ token: started.token, step: "company" }), searchParams: Promise.resolve({}) }));
    expect(/<input id="annual_turnover"[^>]* value="([^"]*)"/.exec(again)![1]).toBe("1,234,567.89");
  });

  it.each([
    ["25000", 2_500_000],
    ["£25,000", 2_500_000],
    ["1000.5", 100_050],
    [" 1,000.05 ", 100_005],
  ])("reads %s as %i pence", async (typed, pence) => {
    const started = await newApplication();
    await throughLoan(started, { ...LOAN, amount: typed });
    expect((await db().application.findUniqueOrThrow({ where: { id: started.id } })).amountPence).toBe(pence);
  });
});

describe("a date of birth already given", () => {
  const DIRECTOR = directorFields("Grace", "Hopper", "1966-12-09");
  const APPLICANT = { ...ABOUT_YOU, ...dateOfBirthFields("1979-07-14") };
  /** Every way a page could write 14 July 1979 or 9 December 1966. */
  const WRITTEN = ["1979-07-14", "14 July 1979", "14/07/1979", "14 Jul 1979", "14 7 1979", "1966-12-09", "9 December 1966", "09/12/1966", "9 Dec 1966", "9 12 1966"];
  /** The values of the page's date fields (Day, Month, Year), by name. */
  const dateFieldValues = (html: string) => Object.fromEntries([...html.matchAll(/<input [^>]*name="([^"]*date_of_birth[^"]*)" value="([^"]*)"/g)].map((match) => [match[1], match[2]]));

  async function renderHtml(token: string, step: string, query: Record<string, string> = {}): Promise<string> {
    return renderToStaticMarkup(await JourneyStepPage({ params: Promise.resolve({ token, step }), searchParams: Promise.resolve(query) }));
  }

  it("is never written back to a page: each form step shows only its year, masked, and leaves the field empty", async () => {
    const started = await newApplication();
    await throughLoan(started);
    await throughPeople(started, APPLICANT, [DIRECTOR]);
    const pages: Array<[string, Record<string, string>]> = [["company", {}], ["loan", {}], ["about-you", {}], ["directors", {}], ["directors", { director: "1" }], ["bank", {}], ["check-answers", {}]];
    for (const [step, query] of pages) {
      const html = await renderHtml(started.token, step, query);
      for (const written of WRITTEN) expect(html, `${step}: ${written}`).not.toContain(written);
      for (const value of Object.values(dateFieldValues(html))) expect(value, step).toBe("");
    }
    expect(await renderStep(started.token, "about-you")).toContain("We have it as ** ** 1979. Leave it empty to keep it");
    expect(await renderStep(started.token, "directors")).toContain("Other director 1 Grace Hopper, born ** ** 1966 Change other director 1 Remove other director 1");
    expect(await renderStep(started.token, "directors", { director: "1" })).toContain("We have it as ** ** 1966.");
    expect(Object.keys(dateFieldValues(await renderHtml(started.token, "about-you")))).toContain("date_of_birth-year");
  });

  it("is kept when its field is left empty, and changed when it is entered again", async () => {
    const started = await newApplication();
    await throughLoan(started);
    await throughPeople(started, APPLICANT, [DIRECTOR]);
    const emptyDate = { "date_of_birth-day": "", "date_of_birth-month": "", "date_of_birth-year": "" };
    expect(await answer(started, "about-you", { ...APPLICANT, ...emptyDate })).toBe("directors");
    expect(await answer(started, "directors", { ...directorFields("Grace", "Hopper", "1970-01-02"), action: "save", director: "1" })).toBe("directors");
    const { people } = await db().applicationJourney.findUniqueOrThrow({ where: { applicationId: started.id } });
    expect((people as { date_of_birth: string }[]).map((person) => person.date_of_birth)).toEqual(["1979-07-14", "1970-01-02"]);
  });

  it("is not kept in a refused form when it was accepted, so the refused page does not show it either", async () => {
    const started = await newApplication();
    await throughLoan(started);
    expect(await answer(started, "about-you", { ...APPLICANT, email: "not-an-email" })).toBe("about-you");
    const refusalOf = async () => (await db().applicationJourney.findUniqueOrThrow({ where: { applicationId: started.id } })).refusal as { values: Record<string, string> };
    expect(Object.keys((await refusalOf()).values).filter((field) => field.includes("date_of_birth"))).toEqual([]);
    const html = await renderHtml(started.token, "about-you", refusedQuery);
    expect(html).not.toContain("1979");
    expect(dateFieldValues(html)).toEqual({ "date_of_birth-day": "", "date_of_birth-month": "", "date_of_birth-year": "" });
    // A refused date is what was typed, and comes back as typed so it can be put right.
    await throughPeople(started, APPLICANT);
    expect(await answer(started, "directors", { ...DIRECTOR, "director_date_of_birth-month": "13", action: "add" })).toBe("directors");
    expect((await refusalOf()).values).toMatchObject({ "director_date_of_birth-day": "9", "director_date_of_birth-month": "13", "director_date_of_birth-year": "1966" });
    expect(dateFieldValues(await renderHtml(started.token, "directors", refusedQuery))).toEqual({ "director_date_of_birth-day": "9", "director_date_of_birth-month": "13", "director_date_of_birth-year": "1966" });
  });

  it("lets a director be removed from the list, and each change of the list is checked at Continue", async () => {
    const started = await newApplication();
    await throughLoan(started);
    await throughPeople(started, APPLICANT, [DIRECTOR, directorFields("Katherine", "Johnson", "1958-08-26")]);
    expect(await db().identityCheck.count({ where: { applicationId: started.id } })).toBe(1);
    expect(await answer(started, "directors", { action: "remove", director: "1" })).toBe("directors");
    expect(await answer(started, "directors", { action: "remove", director: "5" })).toBe("directors");
    expect(await answer(started, "directors", { action: "continue" })).toBe("bank");
    const { people } = await db().applicationJourney.findUniqueOrThrow({ where: { applicationId: started.id } });
    expect((people as { last_name: string }[]).map((person) => person.last_name)).toEqual(["Lovelace", "Johnson"]);
    expect(await db().identityCheck.count({ where: { applicationId: started.id } })).toBe(2);
  });
});

describe("the guards", () => {
  it("answers a form without the journey's form token 403, and an unknown link 404, each as a page the applicant reads", async () => {
    const started = await newApplication();
    const refused = await expectErrorPage(await post(started, "company", COMPANY, "not-the-token"), 403, "Sorry, that did not work");
    expect(refused).toContain("security token");
    expect(await expectErrorPage(await post({ ...started, token: "A".repeat(32) }, "company", COMPANY), 404, "Page not found")).toContain("not valid");
    expect((await db().applicationJourney.findUniqueOrThrow({ where: { applicationId: started.id } })).companyConfirmedAt).toBeNull();
  });

  it("answers the 21st form at once from one address 429 with Retry-After, as a page, and records nothing of it", async () => {
    const started = await newApplication();
    for (let index = 0; index < 20; index += 1) expect((await post(started, "bank", { action: "connect" })).status).toBe(303);
    const refused = await post(started, "company", COMPANY);
    expect(await expectErrorPage(refused, 429, "Too many requests")).toContain("Wait 1 second, then reload the page.");
    expect(refused.headers.get("retry-after")).toBe("1");
    expect((await db().applicationJourney.findUniqueOrThrow({ where: { applicationId: started.id } })).companyConfirmedAt).toBeNull();
  });

  it("does not answer a step out of turn: a later step sends the browser back to the current one", async () => {
    const started = await newApplication();
    expect(await answer(started, "bank", { action: "connect" })).toBe("company");
    expect(await answer(started, "check-answers", CONSENTS)).toBe("company");
    expect(await answer(started, "loan", LOAN)).toBe("company");
    expect((await db().applicationJourney.findUniqueOrThrow({ where: { applicationId: started.id } })).loanConfirmedAt).toBeNull();
    expect(await db().affordabilityRecord.count({ where: { applicationId: started.id } })).toBe(0);
    expect((await db().application.findUniqueOrThrow({ where: { id: started.id } })).status).toBe("created");
    expect(await renderStep(started.token, "check-answers")).toContain("Finish the earlier steps first");
  });

  it("shows a step of a submitted application as finished, and answers none of its forms", async () => {
    // Referred, so it stays at the waiting page: a decision landing meanwhile cannot move it on.
    const started = await newApplication("12990043");
    await throughToSubmitted(started, { ...ABOUT_YOU, last_name: "Review" });
    await decide(started.id);
    expect(await answer(started, "loan", { ...LOAN, amount: "5000" })).toBe("waiting");
    expect(await answer(started, "company", { annual_turnover: "£1,000" })).toBe("waiting");
    const application = await db().application.findUniqueOrThrow({ where: { id: started.id } });
    expect(application.amountPence).toBe(2_000_000);
    expect(Number(application.declaredAnnualTurnoverPence)).toBe(50_000_000);
    expect(await renderStep(started.token, "company")).toContain("This step is finished");
    expect(await renderStep(started.token, "loan")).toContain("This step is finished");
  });

  it("waits for the application's row lock before changing the amount, so a submit landing first keeps it unchanged", async () => {
    const started = await newApplication();
    await throughLoan(started);
    await throughPeople(started);
    await answer(started, "bank", { action: "connect" });
    // The loan step reads the application as created, then a submit takes the row and commits first.
    let loanPost!: Promise<Response>;
    await db().$transaction(async (transaction) => {
      const application = (await lockApplication(transaction, started.id))!;
      loanPost = post(started, "loan", { ...LOAN, amount: "5000" });
      await untilSessionsWaitOn(await sessionPid(transaction), 1);
      await submitApplication({ tenant, now: await tenantNow(tenant), id: application.id, queueDecisioning: false, transaction });
    });
    const response = await loanPost;
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/apply/${started.token}/waiting`);
    const application = await db().application.findUniqueOrThrow({ where: { id: started.id } });
    expect(application).toMatchObject({ status: "submitted", amountPence: 2_000_000 });
  });

  it("runs no identity check and keeps the people as submitted when a submit lands before About you", async () => {
    const started = await newApplication();
    await throughLoan(started);
    await throughPeople(started);
    await answer(started, "bank", { action: "connect" });
    let aboutYouPost!: Promise<Response>;
    await db().$transaction(async (transaction) => {
      const application = (await lockApplication(transaction, started.id))!;
      aboutYouPost = post(started, "about-you", { ...ABOUT_YOU, last_name: "Byron" });
      await untilSessionsWaitOn(await sessionPid(transaction), 1);
      await submitApplication({ tenant, now: await tenantNow(tenant), id: application.id, queueDecisioning: false, transaction });
    });
    const response = await aboutYouPost;
    expect(response.headers.get("location")).toBe(`/apply/${started.token}/waiting`);
    expect(await db().identityCheck.count({ where: { applicationId: started.id } })).toBe(1);
    const { people } = await db().applicationJourney.findUniqueOrThrow({ where: { applicationId: started.id } });
    expect((people as { last_name: string }[]).map((person) => person.last_name)).toEqual(["Lovelace"]);
  });

  it("tells the waiting page where the application stands, and nothing more", async () => {
    const started = await newApplication("12990043");
    const status = async () => (await fetch(`${server.url}/apply/${started.token}/status`)).json();
    expect(await status()).toEqual({ step: "company", under_review: false });
    await throughToSubmitted(started, { ...ABOUT_YOU, last_name: "Review" });
    await decide(started.id);
    expect(await status()).toEqual({ step: "waiting", under_review: true });
    await expectSiteError(await fetch(`${server.url}/apply/${"B".repeat(32)}/status`), 404, /not valid/);
  });

  it("says a withdrawn application can no longer be completed", async () => {
    const started = await newApplication();
    await db().application.update({ where: { id: started.id }, data: { status: "withdrawn" } });
    expect(await renderStep(started.token, "company")).toContain("This application was withdrawn");
  });
});
