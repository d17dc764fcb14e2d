// The Apply page's form (docs/apply-directly.md) as a browser posts it: every field a string, none other
// accepted. Its answers are checked with the partner API's rules (amount, term, company number, email) in
// validateDirectApplyForm, which words each refusal for the person at the form.
import { z } from "zod";
import { companyNumberSchema } from "../applications/schemas";
import { MAX_AMOUNT_PENCE, MAX_TERM_MONTHS, MIN_AMOUNT_PENCE, MIN_TERM_MONTHS } from "../decisions/pricing-table";
import { formatWholePounds } from "../money";
import { requestString } from "../wire/request-string";

const FIELD_MAX_LENGTH = 300;
const answer = () => requestString().max(FIELD_MAX_LENGTH).optional();

export const directApplyFormSchema = z.strictObject({
  csrf_token: answer(),
  company_number: answer(),
  amount: answer(),
  term_months: answer(),
  email: answer(),
});

export type DirectApplyForm = z.output<typeof directApplyFormSchema>;

/** The form's fields, in the order the page asks them: the error summary lists refusals in this order. */
export const DIRECT_APPLY_FIELDS = ["company_number", "amount", "term_months", "email"] as const;
export type DirectApplyField = (typeof DIRECT_APPLY_FIELDS)[number];

export type DirectApplyValues = Record<DirectApplyField, string>;
export type DirectApplyErrors = Partial<Record<DirectApplyField, string>>;

export interface DirectApplyAnswers {
  companyNumber: string;
  amountPence: number;
  termMonths: number;
  email: string;
}

export const AMOUNT_RANGE_MESSAGE = `Amount must be between ${formatWholePounds(MIN_AMOUNT_PENCE)} and ${formatWholePounds(MAX_AMOUNT_PENCE)}`;
export const TERM_RANGE_MESSAGE = `Term must be between ${MIN_TERM_MONTHS} and ${MAX_TERM_MONTHS} months`;

/** Pounds as people write them ("25000", "25,000", "£25,000.50") to whole pence, or null. No floating point. */
export function poundsToPence(written: string): number | null {
  const match = /^£?\s*((?:\d{1,3}(?:,\d{3})+)|\d{1,12})(?:\.(\d{1,2}))?$/.exec(written.trim());
  if (!match) return null;
  const pounds = Number(match[1]!.replace(/,/g, ""));
  const pence = Number((match[2] ?? "").padEnd(2, "0"));
  const total = pounds * 100 + pence;
  return Number.isSafeInteger(total) ? total : null;
}

function checkCompanyNumber(value: string): string | undefined {
  if (value === "") return "Enter your company number";
  if (!companyNumberSchema.safeParse(value).success) return "Enter your company number as it is shown at Companies House, like 12345678 or SC123456";
  return undefined;
}

function checkAmount(value: string): string | undefined {
  if (value === "") return "Enter how much you want to borrow";
  const pence = poundsToPence(value);
  if (pence === null) return "Amount must be a number of pounds, like 25,000";
  if (pence < MIN_AMOUNT_PENCE || pence > MAX_AMOUNT_PENCE) return AMOUNT_RANGE_MESSAGE;
  return undefined;
}

function checkTerm(value: string): string | undefined {
  if (value === "") return "Enter how many months you want to repay over";
  if (!/^\d{1,3}$/.test(value)) return "Term must be a whole number of months, like 12";
  const months = Number(value);
  if (months < MIN_TERM_MONTHS || months > MAX_TERM_MONTHS) return TERM_RANGE_MESSAGE;
  return undefined;
}

function checkEmail(value: string): string | undefined {
  if (value === "") return "Enter your email address";
  if (value.length > 254 || !z.email().safeParse(value).success) return "Enter an email address in the correct format, like name@example.co.uk";
  return undefined;
}

const CHECKS: Record<DirectApplyField, (value: string) => string | undefined> = {
  company_number: checkCompanyNumber,
  amount: checkAmount,
  term_months: checkTerm,
  email: checkEmail,
};

/** The form's answers, tidied (a company number in capitals, spaces gone), or each field's refusal. */
export function validateDirectApplyForm(form: DirectApplyForm): { ok: true; answers: DirectApplyAnswers } | { ok: false; values: DirectApplyValues; errors: DirectApplyErrors } {
  const values: DirectApplyValues = {
    company_number: (form.company_number ?? "").replace(/\s+/g, "").toUpperCase(),
    amount: (form.amount ?? "").trim(),
    term_months: (form.term_months ?? "").trim(),
    email: (form.email ?? "").trim(),
  };
  const errors: DirectApplyErrors = {};
  for (const field of DIRECT_APPLY_FIELDS) {
    const refusal = CHECKS[field](values[field]);
    if (refusal) errors[field] = refusal;
  }
  if (Object.keys(errors).length > 0) return { ok: false, values, errors };
  return {
    ok: true,
    answers: { companyNumber: values.company_number, amountPence: poundsToPence(values.amount)!, termMonths: Number(values.term_months), email: values.email },
  };
}
