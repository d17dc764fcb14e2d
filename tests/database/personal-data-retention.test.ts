// Retention of applicants' personal data (docs/reliability.md, "Personal data and capabilities"): the names,
// dates of birth and emails an application gathered (its identity checks' people, the journey's answers and
// refused forms, the applicant's email and first name, the offer's signatory) are erased 90 days after the
// application ends without funding (declined, expired, withdrawn), and 5 years after a funded one's account
// closes; the hourly `maintenance` operation erases them, timed by the clock, on the real time the application
// ended (a sandbox's test clock plays no part). What a decision rests on stays: the checks, their status and each
// person's role and result. Runs in a database of its own: maintenance works across the platform, so its counts
// here are exact.
import { describe, expect, it } from "vitest";
import { writeOffAccount } from "@/lib/accounts/service";
import { acceptOffer } from "@/lib/applications/applicant-actions";
import { createApplication } from "@/lib/applications/create";
import { expireApplicationNow, submitApplication, withdrawApplication } from "@/lib/applications/service";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { decideOnItsClock } from "@/lib/decisions/background";
import { retrieveIdentityCheck } from "@/lib/identity/service";
import { BACKGROUND_OPERATIONS } from "@/lib/background/catalogue";
import type { Pass } from "@/lib/background-operation";
import { answerStep, openJourney } from "@/lib/journey/journey";
import { PERSONAL_DATA_RETENTION } from "@/lib/applications/personal-data";
import type { Tenant } from "@/lib/tenant";
import { dateOfBirthFields } from "../helpers/journey-forms";
import { createTestProject } from "../helpers/partner";
import { tenantNow } from "@/lib/tenant-clock";


const DAY_MS = 86_400_000;
const T0 = new Date("2030-06-01T09:00:00.000Z");
const at = (offsetMs: number) => new Date(T0.getTime() + offsetMs);
const maintenance = BACKGROUND_OPERATIONS.find((operation): operation is Pass => operation.id === "maintenance")!;

const APPLICANT = { first_name: "Perpetua", last_name: "Quillfeather", ...dateOfBirthFields("1971-03-14"), email: "perpetua.quillfeather@example.co.uk" };
const DIRECTOR = { director_first_name: "Bartholomew", director_last_name: "Drinkwater", ...dateOfBirthFields("1966-11-02", "director_") };
const SIGNATORY = "Perpetua Quillfeather";
// The refused form's Day, Month and Year are kept with the refusal as typed: its "1999" is the trace looked for.
const PERSONAL = ["Perpetua", "Quillfeather", "1971-03-14", "Bartholomew", "Drinkwater", "1966-11-02", "1999", "example.co.uk"];

/** An application with every kind of personal data: the applicant's email and name, the journey's answers and a refused form, an identity check. */
async function applicationWithPersonalData(tenant: Tenant, companyNumber: string): Promise<string> {
  const application = await createApplication({
    tenant, now: await tenantNow(tenant),
    input: { business: { company_number: companyNumber }, amount_pence: 1_000_000, term_months: 12, applicant: { email: APPLICANT.email, first_name: APPLICANT.first_name } },
  });
  const { handoffToken: token } = await db().application.findUniqueOrThrow({ where: { id: application.id } });
  const form_token = (await openJourney(token))!.journey.formToken;
  await answerStep(token, "company", { form_token, annual_turnover: "£500,000" });
  await answerStep(token, "loan", { form_token, amount: "10,000", term_months: "12", purpose: "working_capital" });
  expect(await answerStep(token, "about-you", { form_token, ...APPLICANT, role: "director" })).toBe(`/apply/${token}/directors`);
  expect(await answerStep(token, "directors", { form_token, ...DIRECTOR, action: "continue" })).toBe(`/apply/${token}/bank`);
  // Sent again with a date that is no day: refused, and what was typed is kept for the page.
  expect(await answerStep(token, "about-you", { form_token, ...APPLICANT, ...dateOfBirthFields("1999-02-30"), role: "director" })).toMatch(new RegExp(`^/apply/${token}/about-you\\?refused=\\w+$`));
  return application.id;
}

async function submittedAndDecided(tenant: Tenant, id: string) {
  await submitApplication({ tenant, now: await tenantNow(tenant), id, declaredAnnualTurnoverPence: 50_000_000, queueDecisioning: false });
  await decideOnItsClock(id);
  return db().application.findUniqueOrThrow({ where: { id } });
}

/** What is stored about an application that could identify a person, and what must outlive the erasure. */
async function storedAbout(id: string) {
  const application = await db().application.findUniqueOrThrow({ where: { id }, include: { journey: true, identityChecks: true, decision: true } });
  return {
    status: application.status,
    applicant: [application.applicantEmail, application.applicantFirstName],
    erasedAt: application.personalDataErasedAt,
    journey: [application.journey!.people, application.journey!.refusal],
    checks: application.identityChecks.map((check) => [check.status, check.people]),
    signatory: application.decision?.signatoryName ?? null,
    text: JSON.stringify(application, (_key, value) => (typeof value === "bigint" ? String(value) : value)),
  };
}

describe("applicants' personal data", () => {
  it("is kept 90 days after an application ends without funding, and 5 years after a funded one's account closes", () => {
    expect(PERSONAL_DATA_RETENTION).toEqual({ unfundedDays: 90, fundedYears: 5 });
  });

  it("is erased by the maintenance operation on the real time its application ended, keeping each check's roles and results", async () => {
    freezeClock(T0);
    const tenant: Tenant = { projectId: (await createTestProject()).project_id, environment: "sandbox" };
    // A sandbox whose test clock is 400 days ahead: its withdrawal is stamped then, but ended now.
    const advanced: Tenant = { ...tenant, sandboxClockOffsetDays: 400 };

    const declined = await applicationWithPersonalData(tenant, "12340001");
    expect((await submittedAndDecided(tenant, declined)).status).toBe("declined");
    const withdrawn = await applicationWithPersonalData(advanced, "12340042");
    await withdrawApplication({ tenant: advanced, now: await tenantNow(advanced), id: withdrawn, reason: "found other finance" });
    const expired = await applicationWithPersonalData(tenant, "12340042");
    await expireApplicationNow({ tenant, now: await tenantNow(tenant), id: expired });
    const closed = await applicationWithPersonalData(tenant, "12340042");
    expect((await submittedAndDecided(tenant, closed)).status).toBe("approved");
    await acceptOffer({ tenant, now: await tenantNow(tenant), id: closed, signatoryName: SIGNATORY });
    const fundedOpen = await applicationWithPersonalData(tenant, "12340042");
    await submittedAndDecided(tenant, fundedOpen);
    await acceptOffer({ tenant, now: await tenantNow(tenant), id: fundedOpen, signatoryName: SIGNATORY });
    const approved = await applicationWithPersonalData(tenant, "12340042");
    await submittedAndDecided(tenant, approved);
    const open = await applicationWithPersonalData(tenant, "12340042");
    const { accountId } = await db().application.findUniqueOrThrow({ where: { id: closed } });
    await writeOffAccount({ tenant, now: await tenantNow(tenant), id: accountId! });

    const all = [declined, withdrawn, expired, closed, fundedOpen, approved, open];
    const before = await Promise.all(all.map(storedAbout));
    for (const stored of before) {
      expect(stored.applicant).toEqual([APPLICANT.email, APPLICANT.first_name]);
      expect(stored.checks).toHaveLength(1);
    }
    expect(before.map((stored) => stored.status)).toEqual(["declined", "withdrawn", "expired", "funded", "funded", "approved", "created"]);

    freezeClock(at(90 * DAY_MS - 1));
    expect(await maintenance.run()).toMatchObject({ personalDataErased: 0 });

    const erasedAt = at(90 * DAY_MS);
    freezeClock(erasedAt);
    expect(await maintenance.run()).toMatchObject({ personalDataErased: 3 });
    expect(await maintenance.run()).toMatchObject({ personalDataErased: 0 });
    for (const id of [declined, withdrawn, expired]) {
      const stored = await storedAbout(id);
      expect(stored).toMatchObject({ applicant: [null, null], erasedAt, journey: [[], null], signatory: null });
      expect(stored.checks).toEqual([["verified", [{ role: "director", result: "verified" }, { role: "director", result: "verified" }]]]);
      for (const value of PERSONAL) expect(stored.text, `${id} still holds ${value}`).not.toContain(value);
    }
    // The check still reads, without its people.
    const check = (await db().identityCheck.findFirstOrThrow({ where: { applicationId: declined } })).id;
    expect(await retrieveIdentityCheck({ tenant, id: check })).toMatchObject({ status: "verified", people: [], results: [{ role: "director", result: "verified" }, { role: "director", result: "verified" }] });
    for (const id of [closed, fundedOpen, approved, open]) {
      expect((await storedAbout(id)).applicant).toEqual([APPLICANT.email, APPLICANT.first_name]);
    }

    const fiveYearsOn = new Date("2035-06-01T09:00:00.000Z");
    freezeClock(new Date(fiveYearsOn.getTime() - 1));
    expect(await maintenance.run()).toMatchObject({ personalDataErased: 0 });
    freezeClock(fiveYearsOn);
    expect(await maintenance.run()).toMatchObject({ personalDataErased: 1 });
    const stored = await storedAbout(closed);
    expect(stored).toMatchObject({ status: "funded", applicant: [null, null], erasedAt: fiveYearsOn, journey: [[], null], signatory: null });
    for (const value of PERSONAL) expect(stored.text).not.toContain(value);
    // A funded account still open, an offer not yet accepted, an application still being completed: kept.
    for (const id of [fundedOpen, approved, open]) {
      const kept = await storedAbout(id);
      expect(kept).toMatchObject({ applicant: [APPLICANT.email, APPLICANT.first_name], erasedAt: null });
      expect(kept.text).toContain("Bartholomew");
    }
  });
});
