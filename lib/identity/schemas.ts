// The verification object's schemas (lib/identity/serialize.ts) and the request schemas of the identity checks
// API (spec 4.4 leaves the fields to us; docs/identity.md has them).
import { z } from "zod";
import { requestString } from "../wire/request-string";
import { requestTime } from "../wire/request-time";
import { calendarDate, idOf, text, timestamp } from "../wire/response-schema";
import { isIdOf } from "../ids";

/**
 * A person is `verified`, referred to manual review (`review_required`), or `failed`: the provider found that
 * they are not who the application says (a mismatch, a sanctions hit), which declines the application.
 */
export const IDENTITY_RESULTS = ["verified", "review_required", "failed"] as const;
export type IdentityResult = (typeof IDENTITY_RESULTS)[number];

export const IDENTITY_ROLES = ["director", "psc"] as const;
export type IdentityRole = (typeof IDENTITY_ROLES)[number];

export const MAX_PEOPLE_PER_CHECK = 10;
const NAME_MAX_LENGTH = 100;
/** A UK company director must be at least 16 (Companies Act 2006, s.157); we hold people with control to the same. */
export const MINIMUM_AGE_YEARS = 16;
/** Older than this is taken for a mistyped year. */
export const MAXIMUM_AGE_YEARS = 120;

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Today's date in the UK, `YYYY-MM-DD`: ages are reckoned by the calendar where the applicant lives. */
function ukDate(instant: Date): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London", year: "numeric", month: "2-digit", day: "2-digit" }).format(instant);
}

/** `YYYY-MM-DD` of the day a person born on year-month-day turns `years` (29 February: 1 March in other years). */
function anniversary(year: number, month: number, day: number, years: number): string {
  return new Date(Date.UTC(year + years, month - 1, day)).toISOString().slice(0, 10);
}

export interface DateOfBirthProblem {
  reason: "invalid_format" | "invalid_date" | "in_future" | "too_young" | "too_old";
  message: string;
}

/** What is wrong with a date of birth on `today`, or null when it will do. */
export function dateOfBirthProblem(value: string, now: Date): DateOfBirthProblem | null {
  const match = DATE_PATTERN.exec(value);
  if (!match) return { reason: "invalid_format", message: "date_of_birth is a date written YYYY-MM-DD, such as 1980-04-23." };
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1 || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return { reason: "invalid_date", message: `date_of_birth ${value} is not a day of the calendar.` };
  }
  const today = ukDate(now);
  if (value > today) return { reason: "in_future", message: "date_of_birth is in the future." };
  if (anniversary(year, month, day, MINIMUM_AGE_YEARS) > today) {
    return { reason: "too_young", message: `A person checked must be at least ${MINIMUM_AGE_YEARS} years old.` };
  }
  if (anniversary(year, month, day, MAXIMUM_AGE_YEARS) <= today) {
    return { reason: "too_old", message: `date_of_birth is more than ${MAXIMUM_AGE_YEARS} years ago; check the year.` };
  }
  return null;
}

// Against the request's time, which is its tenant's: a sandbox project's test clock ages people as it ages loans.
const dateOfBirthSchema = requestString().superRefine((value, context) => {
  const problem = dateOfBirthProblem(value, requestTime());
  if (problem) context.addIssue({ code: "custom", message: problem.message, params: { reason: problem.reason } });
});

function nameSchema(field: string) {
  return requestString()
    .trim()
    .min(1, `${field} must not be empty.`)
    .max(NAME_MAX_LENGTH, `${field} is at most ${NAME_MAX_LENGTH} characters.`);
}

export const identityPersonSchema = z.strictObject({
  first_name: nameSchema("first_name"),
  last_name: nameSchema("last_name"),
  date_of_birth: dateOfBirthSchema,
  role: z.enum(IDENTITY_ROLES, { error: "role is director or psc (a person with significant control)." }),
});

export type IdentityPerson = z.output<typeof identityPersonSchema>;

export const createIdentityCheckBodySchema = z.strictObject({
  application_id: requestString().refine((value) => isIdOf("application", value), {
    message: "application_id is an application's id, app_ followed by 26 characters.",
    params: { reason: "invalid_format" },
  }),
  people: z
    .array(identityPersonSchema)
    .min(1, "people lists at least one person.")
    .max(MAX_PEOPLE_PER_CHECK, `people lists at most ${MAX_PEOPLE_PER_CHECK} people; run another check for the rest.`),
});

export type CreateIdentityCheckInput = z.output<typeof createIdentityCheckBodySchema>;

export const identityCheckIdParamsSchema = z.strictObject({ id: requestString().startsWith("idv_") });

export const verificationPersonSchema = z.strictObject({
  first_name: text(),
  last_name: text(),
  date_of_birth: calendarDate(),
  role: z.enum(IDENTITY_ROLES),
  result: z.enum(IDENTITY_RESULTS),
});

export const verificationResultSchema = z.strictObject({
  role: z.enum(IDENTITY_ROLES),
  result: z.enum(IDENTITY_RESULTS),
});

const verificationFields = {
  id: idOf("idv"),
  object: z.literal("verification"),
  livemode: z.boolean(),
  application_id: idOf("app"),
  reference: text().nullable().meta({ description: "The application's reference, echoed (spec 2.1)." }),
  status: z.enum(IDENTITY_RESULTS),
  results: z.array(verificationResultSchema).meta({ description: "One per person checked, in the order they were sent: the role and the result." }),
};

/** The identity events' `data.object`: the check without its people. */
export const verificationEventSchema = z
  .strictObject({ ...verificationFields, created_at: timestamp() })
  .meta({ id: "VerificationEvent", description: "An identity check as its events carry it: each person's role and result, and no personal data." });

export const verificationSchema = z
  .strictObject({
    ...verificationFields,
    people: z.array(verificationPersonSchema).meta({
      description: "The people checked, in the order they were sent; empty once their personal data is erased under retention (docs/identity.md).",
    }),
    created_at: timestamp(),
  })
  .meta({ id: "Verification", description: "An identity check of an application's directors and people with significant control." });
