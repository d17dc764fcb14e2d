// The public enquiry form (spec 4.8 leaves the body to us) and how its problems map to the intake codes of
// spec 7.3. Checked in this order, the first that applies answering: a field the form does not accept (400
// `unknown_field`), then `form` (`form_required`), `email` (`invalid_email`), `dept` (`invalid_dept`), the size
// of `fields` (`payload_too_large`), and anything else (`validation_failed`). Each lists its fields in `detail`.
import { z } from "zod";
import { requestString } from "../wire/request-string";
import { ApiError, type ErrorCode, type ErrorDetail } from "../errors";
import { fieldLabel, safeParseInput, validationError } from "../wire/validation";
import { idOf, timestamp } from "../wire/response-schema";

export const ENQUIRY_FORMS = ["enquiry", "lead", "complaint"] as const;
export const ENQUIRY_DEPARTMENTS = ["sales", "support", "complaints", "partnerships"] as const;
export type EnquiryForm = (typeof ENQUIRY_FORMS)[number];
export type EnquiryDepartment = (typeof ENQUIRY_DEPARTMENTS)[number];

/** Where a form goes when the visitor picks no department. */
export const DEFAULT_DEPARTMENTS: Record<EnquiryForm, EnquiryDepartment> = { enquiry: "sales", lead: "sales", complaint: "complaints" };

/** Whole body; over it is 422 `request_body_too_large` (the builder's cap). */
export const ENQUIRY_BODY_LIMIT_BYTES = 16 * 1024;
export const EMAIL_MAX_LENGTH = 254;
export const NAME_MAX_LENGTH = 100;
export const MESSAGE_MAX_LENGTH = 5000;
/** `fields`: the site's extra form inputs, string to string; over any bound is 422 `payload_too_large`. */
export const FIELDS_MAX_KEYS = 20;
export const FIELDS_KEY_MAX_LENGTH = 40;
export const FIELDS_VALUE_MAX_LENGTH = 1000;
export const FIELDS_MAX_BYTES = 8 * 1024;

/** A string of `min` to `max` characters, counted in code points so an accented letter or an emoji is one. */
function characters(min: number, max: number) {
  return requestString()
    .refine((value) => [...value].length >= min, {
      error: (issue) => `${fieldLabel(issue.path)} must be at least ${min} ${min === 1 ? "character" : "characters"} long.`,
      params: { reason: "too_small" },
      abort: true,
    })
    .refine((value) => [...value].length <= max, { error: (issue) => `${fieldLabel(issue.path)} must be at most ${max} characters long.`, params: { reason: "too_large" } });
}

const fieldsSchema = z
  .record(characters(1, FIELDS_KEY_MAX_LENGTH), characters(0, FIELDS_VALUE_MAX_LENGTH))
  .refine((fields) => Object.keys(fields).length <= FIELDS_MAX_KEYS, {
    message: `fields holds at most ${FIELDS_MAX_KEYS} keys.`,
    params: { reason: "too_many_keys" },
    abort: true,
  })
  .refine((fields) => Buffer.byteLength(JSON.stringify(fields)) <= FIELDS_MAX_BYTES, {
    message: `fields is at most ${FIELDS_MAX_BYTES} bytes as JSON.`,
    params: { reason: "too_large" },
  });

export const createEnquiryBodySchema = z.strictObject({
  form: z.enum(ENQUIRY_FORMS),
  email: z.email().max(EMAIL_MAX_LENGTH),
  /** Defaults by form: DEFAULT_DEPARTMENTS. */
  dept: z.enum(ENQUIRY_DEPARTMENTS).optional(),
  name: requestString().trim().pipe(characters(1, NAME_MAX_LENGTH)).optional(),
  message: requestString().trim().pipe(characters(1, MESSAGE_MAX_LENGTH)).optional(),
  fields: fieldsSchema.optional(),
});

export type CreateEnquiryBody = z.output<typeof createEnquiryBodySchema>;

/**
 * The builder hands the decoded JSON over as it came (after its size cap and JSON checks):
 * parseCreateEnquiryBody reports its problems in the intake codes, which the builder's validation_failed cannot.
 */
export const createEnquiryRawBodySchema = z.unknown();

const SIZE_REASONS = new Set(["too_large", "too_many_keys"]);
const isFieldsItem = (item: ErrorDetail) => item.field === "fields" || Boolean(item.field?.startsWith("fields."));

/** The intake codes in the order they are checked, each with the detail items it reports. */
const INTAKE_CHECKS: ReadonlyArray<{ code: ErrorCode; message: string; concerns: (item: ErrorDetail) => boolean }> = [
  { code: "form_required", message: `\`form\` is required: one of ${ENQUIRY_FORMS.join(", ")}.`, concerns: (item) => item.field === "form" },
  { code: "invalid_email", message: "`email` must be a valid email address.", concerns: (item) => item.field === "email" },
  { code: "invalid_dept", message: `\`dept\` must be one of ${ENQUIRY_DEPARTMENTS.join(", ")}.`, concerns: (item) => item.field === "dept" },
  {
    code: "payload_too_large",
    message: `\`fields\` holds at most ${FIELDS_MAX_KEYS} keys of up to ${FIELDS_KEY_MAX_LENGTH} characters, values of up to ${FIELDS_VALUE_MAX_LENGTH} characters, and ${FIELDS_MAX_BYTES} bytes in all.`,
    concerns: (item) => isFieldsItem(item) && SIZE_REASONS.has(item.reason),
  },
];

/** The validated enquiry, or the intake error for the first check it fails. An empty body is an empty form. */
export function parseCreateEnquiryBody(body: unknown): CreateEnquiryBody {
  const input = body === undefined ? {} : body;
  const parsed = safeParseInput(createEnquiryBodySchema, input);
  if (parsed.success) return parsed.data;
  const generic = validationError(parsed.error.issues, input);
  if (generic.code === "unknown_field") throw generic;
  const detail = generic.detail ?? [];
  for (const check of INTAKE_CHECKS) {
    const items = detail.filter(check.concerns);
    if (items.length > 0) throw new ApiError(check.code, { message: check.message, detail: items });
  }
  throw generic;
}

export const enquirySchema = z
  .strictObject({ id: idOf("enq"), object: z.literal("enquiry"), form: z.enum(ENQUIRY_FORMS), dept: z.enum(ENQUIRY_DEPARTMENTS), created_at: timestamp() })
  .meta({ id: "Enquiry", description: "The enquiry as recorded; no contact details are echoed." });
