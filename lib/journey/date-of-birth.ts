// A date of birth as the hosted journey asks for it (docs/hosted-journey.md, "Dates of birth"): three text fields,
// Day, Month and Year, read into the `YYYY-MM-DD` the identity checks take, with GOV.UK's messages for each way
// they can be wrong. A date already given is never sent back to the browser: left empty, the fields keep it.
import { dateOfBirthProblem } from "../identity/schemas";

export const DATE_PARTS = ["day", "month", "year"] as const;
export type DatePart = (typeof DATE_PARTS)[number];

/** The applicant signs a credit agreement for the company, so must be an adult; directors are held to the identity checks' 16. */
export const APPLICANT_MINIMUM_AGE_YEARS = 18;

/** The name of one of a date's fields: `date_of_birth-day`, `director_1_date_of_birth-year`. */
export function datePartField(field: string, part: DatePart): string {
  return `${field}-${part}`;
}

/** Whose date it is, as a message names it: "Date of birth" for the applicant, "Other director 1's date of birth". */
export interface DateSubject {
  /** The start of a sentence: "Date of birth", "Other director 1's date of birth". */
  name: string;
  /** What "Enter …" asks for: "your date of birth", "other director 1's date of birth". */
  asked: string;
  /** The sentence for someone too young to be checked. */
  tooYoung: string;
  minimumAgeYears: number;
}

export type DateOfBirthReading = { date: string } | { field: string; message: string };

function listParts(parts: readonly DatePart[]): string {
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

/** Today's date in the UK (`YYYY-MM-DD`) less `years`: the last birthday that makes a person that old today. */
function yearsBefore(now: Date, years: number): string {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London", year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
  const [year, month, day] = today.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year - years, month - 1, day)).toISOString().slice(0, 10);
}

/**
 * Reads the date of birth whose fields start `field` from `form`: the date, or the message for the first field
 * to fix. All three empty keep `kept` (a date given before), if there is one.
 */
export function readDateOfBirth(form: Record<string, string>, field: string, subject: DateSubject, now: Date, kept?: string): DateOfBirthReading {
  const typed = Object.fromEntries(DATE_PARTS.map((part) => [part, (form[datePartField(field, part)] ?? "").trim()])) as Record<DatePart, string>;
  const missing = DATE_PARTS.filter((part) => typed[part] === "");
  if (missing.length === DATE_PARTS.length) return kept ? { date: kept } : { field: datePartField(field, "day"), message: `Enter ${subject.asked}` };
  if (missing.length > 0) return { field: datePartField(field, missing[0]!), message: `${subject.name} must include a ${listParts(missing)}` };
  const notReal = { field: datePartField(field, "day"), message: `${subject.name} must be a real date` };
  if (!/^\d{1,2}$/.test(typed.day) || !/^\d{1,2}$/.test(typed.month) || !/^\d+$/.test(typed.year)) return notReal;
  if (typed.year.length !== 4) return { field: datePartField(field, "year"), message: `${subject.name} must include a year with 4 numbers, such as 1980` };
  const date = `${typed.year}-${typed.month.padStart(2, "0")}-${typed.day.padStart(2, "0")}`;
  const problem = dateOfBirthProblem(date, now);
  if (problem?.reason === "invalid_date" || problem?.reason === "invalid_format") return notReal;
  if (problem?.reason === "in_future") return { field: datePartField(field, "day"), message: `${subject.name} must be in the past` };
  if (problem?.reason === "too_old") return { field: datePartField(field, "year"), message: `${subject.name} must be a real date: check the year` };
  if (problem?.reason === "too_young" || date > yearsBefore(now, subject.minimumAgeYears)) return { field: datePartField(field, "day"), message: subject.tooYoung };
  return { date };
}
