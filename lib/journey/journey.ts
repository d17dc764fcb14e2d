// The hosted journey (docs/hosted-journey.md): an application reached by its handoff token, where it stands, and
// the applicant's answers to each step's form. The steps go through the same services as the white-label API
// (identity checks, affordability, consents, submit, accept), so both paths reach the same states and events.
// Every form carries the journey's form token (CSRF). An answer the step refuses is kept on the journey with
// what was typed and shown on the step's page (post, redirect, get), so a browser without JavaScript gets its
// errors in place.
import { z } from "zod";
import { latestAffordabilityFor, recordAffordability } from "../affordability/service";
import { CONSENT_TYPES, currentConsentText } from "../application-consents/catalogue";
import { recordConsents } from "../application-consents/service";
import { acceptOffer, submitCompletedApplication } from "../applications/applicant-actions";
import { APPLICATION_PURPOSES } from "../applications/schemas";
import { lockOwnApplicationOrThrow } from "../applications/service";
import { amendApplication } from "../applications/transition";
import { db, transact } from "../db";
import { withDeferredTransaction } from "../deferred-transaction";
import { MAX_AMOUNT_PENCE, MAX_TERM_MONTHS, MIN_AMOUNT_PENCE, MIN_TERM_MONTHS } from "../decisions/pricing-table";
import { ApiError, notFound } from "../errors";
import { Prisma, type Application, type ApplicationJourney, type Decision } from "../generated/prisma/client";
import { requestString } from "../wire/request-string";
import { randomToken } from "../ids";
import { IDENTITY_ROLES, MAX_PEOPLE_PER_CHECK, MINIMUM_AGE_YEARS, type IdentityPerson } from "../identity/schemas";
import { IDENTITY_CHECKS_PER_DAY, IdentityCheckCapError, latestIdentityCheckFor, runIdentityCheck } from "../identity/service";
import type { Tenant } from "../tenant";
import { formatWholePounds } from "../money";
import { tenantNow } from "../tenant-clock";
import { isHandoffTokenForm } from "./framing";
import { APPLICANT_MINIMUM_AGE_YEARS, DATE_PARTS, datePartField, readDateOfBirth, type DateSubject } from "./date-of-birth";
import { currentStep, FORM_STEPS, type ClosedState, type FormStep, type JourneyStep } from "./steps";

const FORM_TOKEN_LENGTH = 32;
const STATE_MAX_LENGTH = 500;
const REFUSAL_ID_LENGTH = 16;

export interface JourneyPerson {
  first_name: string;
  last_name: string;
  date_of_birth: string;
  role: (typeof IDENTITY_ROLES)[number];
  email?: string;
}

/**
 * A step's refused form: what was typed, and a message per field (`form` for the form as a whole). Its `id` is in
 * the address the post redirects to, and the page shows the refusal only at that address: errors belong to the
 * post that caused them, not to whoever opens the link later.
 */
export interface Refusal {
  id: string;
  step: FormStep | "offer";
  values: Record<string, string>;
  errors: Record<string, string>;
}

export interface Journey {
  token: string;
  application: Application;
  decision: Decision | null;
  journey: ApplicationJourney;
  tenant: Tenant;
  /**
   * The request's time on the tenant's clock, read once as the journey opens (a handoff token names its tenant
   * only once its application is read): every step's answer and the page's view of it use this one time.
   */
  now: Date;
  /** Where the application stands; `expired` also once its `expires_at` has passed, before the sweep moves it. */
  current: JourneyStep | ClosedState;
  identityStatus: string | null;
  monthlyTurnoverPence: number[] | null;
  people: JourneyPerson[];
  refusal: Refusal | null;
}

/**
 * The journey of the application `token` opens, or null for a token that names none. The first visit makes the
 * journey's record; a `state` in the address (the caller's, for the redirect at the end) is kept.
 */
export async function openJourney(token: string, options: { callerState?: string } = {}): Promise<Journey | null> {
  if (!isHandoffTokenForm(token)) return null;
  const application = await db().application.findUnique({ where: { handoffToken: token }, include: { decision: true, journey: true } });
  if (!application) return null;
  const tenant: Tenant = { projectId: application.projectId, environment: application.environment };
  const now = await tenantNow(tenant);
  const callerState = options.callerState?.slice(0, STATE_MAX_LENGTH);
  let journey = application.journey;
  if (!journey || (callerState && callerState !== journey.callerState)) {
    journey = await db().applicationJourney.upsert({
      where: { applicationId: application.id },
      create: { applicationId: application.id, formToken: randomToken(FORM_TOKEN_LENGTH), callerState: callerState ?? null, createdAt: now, updatedAt: now },
      update: { callerState, updatedAt: now },
    });
  }
  const [identity, affordability] = await Promise.all([latestIdentityCheckFor(application.id), latestAffordabilityFor(application.id)]);
  const lapsed = application.status === "created" && application.expiresAt <= now;
  return {
    token,
    application,
    decision: application.decision,
    journey,
    tenant,
    now,
    current: lapsed
      ? "expired"
      : currentStep({
          status: application.status,
          companyConfirmed: journey.companyConfirmedAt !== null,
          loanGiven: journey.loanConfirmedAt !== null,
          applicantGiven: (journey.people as unknown[]).length > 0,
          identityChecked: identity !== null,
          bankConnected: affordability !== null,
        }),
    identityStatus: identity?.status ?? null,
    monthlyTurnoverPence: affordability ? (affordability.monthlyTurnoverPence as number[]) : null,
    people: journey.people as unknown as JourneyPerson[],
    refusal: (journey.refusal as Refusal | null) ?? null,
  };
}

/** `openJourney`, or 404 `not_found` for a token that names none, in the applicant's words. */
async function openJourneyOrThrow(token: string): Promise<Journey> {
  const journey = await openJourney(token);
  if (!journey) throw notFound("application link", undefined, { message: "This application link is not valid." });
  return journey;
}

/**
 * Where the application of `token` stands: its step, or why it is closed, and whether an underwriter is
 * reviewing it (the waiting page says so). 404 for a token that names nothing.
 */
export async function journeyStatus(token: string): Promise<{ step: JourneyStep | ClosedState; under_review: boolean }> {
  const journey = await openJourneyOrThrow(token);
  return { step: journey.current, under_review: journey.application.status === "in_review" };
}

// The forms -------------------------------------------------------------------------------------------------------

/**
 * Money as typed, in pence: pounds with or without pence, a £ sign and thousands commas ("£1,000.50", "1000.5",
 * "25000"), the way the page shows it (app/(apply)/format.ts, `formatAmountForInput`).
 */
function moneyField(label: string, minPence: number, maxPence: number) {
  const range = `${label} must be between ${formatWholePounds(minPence)} and ${formatWholePounds(maxPence)}.`;
  return requestString()
    .transform((value) => value.replace(/[£,\s]/g, ""))
    .refine((value) => /^\d{1,12}(\.\d{1,2})?$/.test(value), `Enter ${label.toLowerCase()} in pounds, such as 25,000 or 1,000.50.`)
    .transform((value) => {
      const [pounds, pence = ""] = value.split(".");
      return Number(pounds) * 100 + Number(pence.padEnd(2, "0"));
    })
    .pipe(z.number().min(minPence, range).max(maxPence, range));
}

const TERM_RANGE = `The term must be between ${MIN_TERM_MONTHS} and ${MAX_TERM_MONTHS} months.`;

/** "Your company": the company confirmed, with its annual turnover. */
const companyForm = z.object({
  annual_turnover: moneyField("The annual turnover", 100, 1_000_000_000_000),
});

/** "Your loan": what is borrowed, over how long and what for. */
const loanForm = z.object({
  amount: moneyField("The amount", MIN_AMOUNT_PENCE, MAX_AMOUNT_PENCE),
  term_months: requestString()
    .transform((value) => value.trim().replace(/\s*months?$/i, ""))
    .refine((value) => /^\d{1,3}$/.test(value), "Enter the term as a number of months, such as 12.")
    .transform(Number)
    .pipe(z.number().min(MIN_TERM_MONTHS, TERM_RANGE).max(MAX_TERM_MONTHS, TERM_RANGE)),
  purpose: z.enum(APPLICATION_PURPOSES, { error: "Choose what the money is for." }),
});

const nameField = (label: string) => requestString().trim().min(1, `Enter ${label}`).max(100, `${label[0]!.toUpperCase()}${label.slice(1)} must be 100 characters or fewer`);

/** Who a person's fields are about, as the page's messages name them: the applicant (`null`), or a director. */
export function personSubject(row: number | null): DateSubject & { possessive: string } {
  if (row === null) {
    return { possessive: "your", name: "Date of birth", asked: "your date of birth", tooYoung: `You must be ${APPLICANT_MINIMUM_AGE_YEARS} or over to apply`, minimumAgeYears: APPLICANT_MINIMUM_AGE_YEARS };
  }
  return { possessive: "the director's", name: "The director's date of birth", asked: "the director's date of birth", tooYoung: `A director must be ${MINIMUM_AGE_YEARS} or over`, minimumAgeYears: MINIMUM_AGE_YEARS };
}

/**
 * A person's fields: names as typed, and the date of birth from its three fields. A date of birth already given is
 * never sent back to the browser (a leaked link must not show it): its fields come back empty, and left empty they
 * keep the date given before (`kept`).
 */
function readPerson(form: Record<string, string>, prefix: string, row: number | null, now: Date, kept: string | undefined, errors: Record<string, string>): { first_name: string; last_name: string; date_of_birth: string } | null {
  const subject = personSubject(row);
  const names = z.object({ [`${prefix}first_name`]: nameField(`${subject.possessive} first name`), [`${prefix}last_name`]: nameField(`${subject.possessive} last name`) }).safeParse({
    [`${prefix}first_name`]: form[`${prefix}first_name`] ?? "",
    [`${prefix}last_name`]: form[`${prefix}last_name`] ?? "",
  });
  if (!names.success) Object.assign(errors, errorsOf(names.error));
  const reading = readDateOfBirth(form, `${prefix}date_of_birth`, subject, now, kept);
  if ("message" in reading) errors[reading.field] = reading.message;
  if (!names.success || "message" in reading) return null;
  return { first_name: names.data[`${prefix}first_name`]!, last_name: names.data[`${prefix}last_name`]!, date_of_birth: reading.date };
}

/** A date of birth as the journey shows one it already has: the year only (`** ** 1980`). */
export function maskedDateOfBirth(date: string): string {
  return `** ** ${date.slice(0, 4)}`;
}

/** The fields of a refused form that hold a date of birth it accepted: not kept, so no page shows them again. */
function withoutAcceptedDatesOfBirth(values: Record<string, string>, errors: Record<string, string>): Record<string, string> {
  const refusedDates = new Set(Object.keys(errors).filter((field) => /date_of_birth-/.test(field)).map((field) => field.replace(/-\w+$/, "")));
  return Object.fromEntries(Object.entries(values).filter(([field]) => !/date_of_birth/.test(field) || refusedDates.has(field.replace(/-\w+$/, ""))));
}

const emailField = requestString().trim().pipe(z.email("Enter an email address in the correct format, like name@example.co.uk"));
const roleField = z.enum(IDENTITY_ROLES, { error: "Select your role in the company" });
const nameForSignature = requestString().trim().min(2, "Type your full name to sign.").max(140, "A name is at most 140 characters.");

/** The messages of a failed parse, by field (`form` when no field is named). */
function errorsOf(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) errors[String(issue.path[0] ?? "form")] ??= issue.message;
  return errors;
}

class StepRefused extends Error {
  constructor(readonly errors: Record<string, string>) {
    super("The step refused the form.");
  }
}

function parseOrRefuse<T>(schema: z.ZodType<T>, form: Record<string, string>): T {
  const result = schema.safeParse(form);
  if (!result.success) throw new StepRefused(errorsOf(result.error));
  return result.data;
}

/** The address the browser goes to once a step's form is answered: the next step, or the same step with its errors. */
export function stepAddress(token: string, step: JourneyStep): string {
  return `/apply/${token}/${step}`;
}

/**
 * Answers one step's form and says where the browser goes next. 404 for a token that names nothing, 403
 * `csrf_token_invalid` for a form without the journey's token. A step the application is not at (one later
 * than its own, or any once submitted) is not answered: the browser goes to where the application stands.
 */
export async function answerStep(token: string, step: FormStep | "offer", form: Record<string, string>): Promise<string> {
  const journey = await openJourneyOrThrow(token);
  if (form.form_token !== journey.journey.formToken) throw new ApiError("csrf_token_invalid");
  const allowed = step === "offer" ? journey.current === "offer" : journey.application.status === "created" && journey.current !== "expired" && stepIsReached(journey.current, step);
  if (!allowed) return currentAddress(journey);
  // A step opened from "Check your answers" (its Change link) goes back there once answered, if everything is.
  const returning = form.return === "check-answers" && journey.current === "check-answers";
  try {
    const next = await ANSWERS[step](journey, form);
    await saveRefusal(journey, null);
    // A step that stays on its own page (a director added to the list) keeps the way back for its Continue.
    if (next === step) return `${stepAddress(token, next)}${returning ? "?return=check-answers" : ""}`;
    return stepAddress(token, returning ? "check-answers" : next);
  } catch (error) {
    // The application moved on (a submit, a decision) after the journey was read: as for a step out of turn.
    if (error instanceof ApiError && error.code === "conflict") return whereItStands(token);
    if (!(error instanceof StepRefused)) throw error;
    const { form_token: _formToken, return: _return, ...values } = form;
    const id = randomToken(REFUSAL_ID_LENGTH);
    await saveRefusal(journey, { id, step, values: withoutAcceptedDatesOfBirth(values, error.errors), errors: error.errors });
    // A refused change of one director comes back to that director's fields.
    const director = step === "directors" && form.action === "save" && /^\d{1,2}$/.test(form.director ?? "") ? `&director=${form.director}` : "";
    return `${stepAddress(token, step)}?refused=${id}${director}${returning ? "&return=check-answers" : ""}`;
  }
}

/** Where a form of a step the application is not at sends the browser: the step it is at (a closed one's page is the company's). */
function currentAddress(journey: Journey): string {
  return stepAddress(journey.token, journey.current === "withdrawn" || journey.current === "expired" ? "company" : journey.current);
}

async function whereItStands(token: string): Promise<string> {
  const journey = await openJourneyOrThrow(token);
  return currentAddress(journey);
}

const ORDER: readonly string[] = FORM_STEPS;

function stepIsReached(current: JourneyStep | ClosedState, step: FormStep): boolean {
  return ORDER.includes(current) && ORDER.indexOf(step) <= ORDER.indexOf(current);
}

async function saveRefusal(journey: Journey, refusal: Refusal | null): Promise<void> {
  if (refusal === null && journey.refusal === null) return;
  await db().applicationJourney.update({
    where: { applicationId: journey.application.id },
    data: { refusal: refusal === null ? Prisma.DbNull : (refusal as unknown as Prisma.InputJsonValue) },
  });
}

/** The fields of the directors' page's form for one director: `director_first_name`, `director_date_of_birth-day`, … */
export const DIRECTOR_PREFIX = "director_";
const DIRECTOR_FIELDS = [`${DIRECTOR_PREFIX}first_name`, `${DIRECTOR_PREFIX}last_name`, ...DATE_PARTS.map((part) => datePartField(`${DIRECTOR_PREFIX}date_of_birth`, part))];
/** One identity check takes the applicant and at most this many others. */
export const MAX_FURTHER_DIRECTORS = MAX_PEOPLE_PER_CHECK - 1;

/** Keeps the people as answered, under the application's row lock and only while it is being filled in. */
async function savePeople(journey: Journey, people: JourneyPerson[]): Promise<void> {
  await transact(async (transaction) => {
    const application = await lockOwnApplicationOrThrow(transaction, journey.tenant, journey.application.id);
    if (application.status !== "created") throw new ApiError("conflict");
    await transaction.applicationJourney.update({ where: { applicationId: journey.application.id }, data: { people: people as unknown as Prisma.InputJsonValue, updatedAt: journey.now } });
  });
}

/** Checks the identity of the people (the same service as the partner API's checks) and keeps them as checked. */
async function checkPeople(journey: Journey, people: JourneyPerson[]): Promise<void> {
  const { now } = journey;
  try {
    await withDeferredTransaction(async (deferred) => {
      const checked: IdentityPerson[] = people.map(({ first_name, last_name, date_of_birth, role }) => ({ first_name, last_name, date_of_birth, role }));
      // Only while the application is being filled in: its answers, the people decisioning weighs, stay as submitted.
      await runIdentityCheck({ tenant: journey.tenant, now, applicationId: journey.application.id, people: checked, transaction: deferred, checkableStatuses: ["created"] });
      const transaction = await deferred.open();
      await transaction.applicationJourney.update({ where: { applicationId: journey.application.id }, data: { people: people as unknown as Prisma.InputJsonValue, updatedAt: now } });
    });
  } catch (error) {
    if (error instanceof IdentityCheckCapError) throw new StepRefused({ form: checksUsedUp(error.nextCheckAt) });
    throw error;
  }
}

const ukTime = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", hour: "2-digit", minute: "2-digit" });
const ukDay = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", day: "numeric", month: "long", year: "numeric" });

function checksUsedUp(nextCheckAt: Date): string {
  return `We have already checked the details of the people behind this application ${IDENTITY_CHECKS_PER_DAY} times in the last 24 hours, the most we can. You can try again from ${ukTime.format(nextCheckAt)} on ${ukDay.format(nextCheckAt)}.`;
}

type Answer = (journey: Journey, form: Record<string, string>) => Promise<JourneyStep>;

/** Changes the application's answers and marks the step done, under the application's row lock. */
async function amendAndMark(journey: Journey, changes: Parameters<typeof amendApplication>[2], done: { companyConfirmedAt: Date } | { loanConfirmedAt: Date }): Promise<void> {
  const { now } = journey;
  await transact(async (transaction) => {
    const application = await lockOwnApplicationOrThrow(transaction, journey.tenant, journey.application.id);
    await amendApplication(transaction, application, changes, { now });
    await transaction.applicationJourney.update({ where: { applicationId: journey.application.id }, data: { ...done, updatedAt: now } });
  });
}

const ANSWERS: Record<FormStep | "offer", Answer> = {
  async company(journey, form) {
    const answer = parseOrRefuse(companyForm, form);
    await amendAndMark(journey, { declaredAnnualTurnoverPence: answer.annual_turnover }, { companyConfirmedAt: journey.now });
    return "loan";
  },

  async loan(journey, form) {
    const answer = parseOrRefuse(loanForm, form);
    await amendAndMark(journey, { amountPence: answer.amount, termMonths: answer.term_months, purpose: answer.purpose }, { loanConfirmedAt: journey.now });
    return "about-you";
  },

  async "about-you"(journey, form) {
    const { now } = journey;
    // Every field is read before refusing, so the page shows every message at once.
    const errors: Record<string, string> = {};
    const stored = journey.people;
    const applicant = readPerson(form, "", null, now, stored[0]?.date_of_birth, errors);
    const contact = z.object({ email: emailField, role: roleField }).safeParse({ email: form.email ?? "", role: form.role });
    if (!contact.success) Object.assign(errors, errorsOf(contact.error));
    if (!applicant || !contact.success || Object.keys(errors).length > 0) throw new StepRefused(errors);
    const people: JourneyPerson[] = [{ ...applicant, role: contact.data.role, email: contact.data.email }, ...stored.slice(1)];
    // Once the people were checked, a changed answer is checked again at once, so the check always matches them.
    if (journey.identityStatus !== null) await checkPeople(journey, people);
    else await savePeople(journey, people);
    return "directors";
  },

  async directors(journey, form) {
    const { now } = journey;
    const stored = journey.people;
    const directors = stored.slice(1);
    const action = form.action ?? "continue";
    const index = Number(form.director ?? "0");
    if (action === "remove") {
      if (!(index >= 1 && index <= directors.length)) throw new StepRefused({ form: "That director is no longer on the list." });
      await savePeople(journey, stored.filter((_, at) => at !== index));
      return "directors";
    }
    const typed = DIRECTOR_FIELDS.some((field) => (form[field] ?? "").trim() !== "");
    const changing = action === "save" && index >= 1 && index <= directors.length;
    if (action === "add" || changing || typed) {
      if (!changing && directors.length >= MAX_FURTHER_DIRECTORS) throw new StepRefused({ form: `You can add up to ${MAX_FURTHER_DIRECTORS} other directors.` });
      const errors: Record<string, string> = {};
      const director = readPerson(form, DIRECTOR_PREFIX, 0, now, changing ? stored[index]!.date_of_birth : undefined, errors);
      if (!director) throw new StepRefused(errors);
      const people = changing ? stored.map((person, at) => (at === index ? { ...director, role: "director" as const } : person)) : [...stored, { ...director, role: "director" as const }];
      if (action !== "continue") {
        await savePeople(journey, people);
        return "directors";
      }
      await checkPeople(journey, people);
      return "bank";
    }
    await checkPeople(journey, stored);
    return "bank";
  },

  async bank(journey, form) {
    if (form.action !== "connect") throw new StepRefused({ form: "Choose your bank to connect it." });
    try {
      await recordAffordability({ tenant: journey.tenant, now: journey.now, applicationId: journey.application.id, input: { source: "sandbox_bank" } });
    } catch (error) {
      if (error instanceof ApiError && error.code === "validation_failed") throw new StepRefused({ form: "Connecting a bank is not available here yet. Please contact the company that sent you this link." });
      throw error;
    }
    return "check-answers";
  },

  async "check-answers"(journey, form) {
    const given = CONSENT_TYPES.filter((type) => form[`consent_${type}`] === "yes");
    const missing = CONSENT_TYPES.filter((type) => !given.includes(type));
    const consents = given.map((type) => ({ type, text_version: currentConsentText(type).version }));
    if (consents.length > 0) await recordConsents({ tenant: journey.tenant, now: journey.now, applicationId: journey.application.id, consents, source: "hosted" });
    if (missing.length > 0) {
      throw new StepRefused(Object.fromEntries(missing.map((type) => [`consent_${type}`, currentConsentText(type).label.replace(/^I agree/, "Tick the box to agree")])));
    }
    await submitCompletedApplication({ tenant: journey.tenant, now: journey.now, id: journey.application.id, declaredAnnualTurnoverPence: journey.application.declaredAnnualTurnoverPence === null ? undefined : Number(journey.application.declaredAnnualTurnoverPence) });
    return "waiting";
  },

  async offer(journey, form) {
    const signatory = parseOrRefuse(z.object({ signatory_name: nameForSignature }), form);
    await acceptOffer({ tenant: journey.tenant, now: journey.now, id: journey.application.id, signatoryName: signatory.signatory_name });
    return "done";
  },
};

/** Where the journey sends the browser at the end: the caller's `redirect_uri` with `application_id` (and `state`) appended, or null. */
export function completionRedirect(journey: Journey): string | null {
  if (!journey.application.redirectUri) return null;
  const url = new URL(journey.application.redirectUri);
  url.searchParams.set("application_id", journey.application.id);
  if (journey.journey.callerState) url.searchParams.set("state", journey.journey.callerState);
  return url.toString();
}
