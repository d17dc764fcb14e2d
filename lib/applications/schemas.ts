// Request schemas of the applications API (spec 4.2) and its sandbox test helpers.
import { z } from "zod";
import { requestString } from "../wire/request-string";
import { fieldLabel } from "../wire/validation";
import { listQuerySchema } from "../wire/pagination";
import { metadataSchema } from "../wire/metadata";
import { absoluteUrl, idOf, listEnvelopeSchema, metadataObject, pence, text, timestamp as instant } from "../wire/response-schema";
import { MAX_AMOUNT_PENCE, MAX_TERM_MONTHS, MIN_AMOUNT_PENCE, MIN_TERM_MONTHS } from "../decisions/pricing-table";
import { isWellFormedCompanyNumber } from "../registry/company-number";
import { formatWholePounds } from "../money";
import { subAccountIdSchema } from "../revenue-share/schemas";

export const APPLICATION_STATUSES = ["created", "submitted", "in_review", "approved", "declined", "funded", "withdrawn", "expired"] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

/** Spec 1's credit products an application can be for; Slice is not lent through applications. */
export const APPLICATION_PRODUCTS = ["business_loan", "flex"] as const;

export const APPLICATION_PURPOSES = ["working_capital", "asset_finance", "expansion", "refinance", "stock"] as const;

const REFERENCE_MAX_LENGTH = 255;
const NAME_MAX_LENGTH = 100;
const EMAIL_MAX_LENGTH = 254;
const URI_MAX_LENGTH = 2048;

export const companyNumberSchema = requestString().refine(isWellFormedCompanyNumber, {
  error: (issue) => `${fieldLabel(issue.path)} must be 8 characters: 8 digits, or 2 capital letters and 6 digits (12345678, SC123456).`,
  params: { reason: "invalid_format" },
});

// Partner applications are the spec's business term loan (£1,000 to £250,000 over 3 to 60 months at an APR,
// spec 2.2); the public ring's Business Loan quote is another scale (£50 to £500 over days, spec 4.8). The range
// messages name theirs, so a caller who mixed the two up sees which endpoint answered.
const AMOUNT_RANGE = `amount_pence must be between ${MIN_AMOUNT_PENCE} and ${MAX_AMOUNT_PENCE} (${formatWholePounds(MIN_AMOUNT_PENCE)} to ${formatWholePounds(MAX_AMOUNT_PENCE)}) for a partner application.`;
const TERM_RANGE = `term_months must be between ${MIN_TERM_MONTHS} and ${MAX_TERM_MONTHS} for a partner application.`;

export const applicationIdParamsSchema = z.strictObject({ id: requestString().startsWith("app_") });

/** The fields of a new application, without the create's rule on how the journey reaches back (below). */
export const applicationFieldsSchema = z.strictObject({
  business: z.strictObject({ company_number: companyNumberSchema }),
  amount_pence: z.int().min(MIN_AMOUNT_PENCE, { error: AMOUNT_RANGE }).max(MAX_AMOUNT_PENCE, { error: AMOUNT_RANGE }),
  term_months: z.int().min(MIN_TERM_MONTHS, { error: TERM_RANGE }).max(MAX_TERM_MONTHS, { error: TERM_RANGE }),
  purpose: z.enum(APPLICATION_PURPOSES).optional(),
  product: z.enum(APPLICATION_PRODUCTS).optional(),
  applicant: z
    .strictObject({
      email: z.email().max(EMAIL_MAX_LENGTH).optional(),
      first_name: requestString().trim().min(1).max(NAME_MAX_LENGTH).optional(),
    })
    .optional(),
  redirect_uri: requestString().max(URI_MAX_LENGTH).pipe(z.url({ protocol: /^https?$/ })).optional(),
  reference: requestString().min(1).max(REFERENCE_MAX_LENGTH).optional(),
  introduction_id: requestString()
    .regex(/^intro_[0-9a-z]{1,64}$/, "introduction_id must be an introduction's id: intro_ followed by lower-case letters and digits.")
    .optional(),
  /** Beta (docs/beta.md): the sub-account the application is originated through; its introduction is made with it. */
  sub_account_id: subAccountIdSchema.optional(),
  metadata: metadataSchema.optional(),
});

export const createApplicationBodySchema = applicationFieldsSchema.superRefine((body, context) => {
  if (body.sub_account_id !== undefined && body.introduction_id !== undefined) {
    context.addIssue({
      code: "custom",
      path: ["introduction_id"],
      message: "Send sub_account_id or introduction_id, not both: an application originated through a sub-account gets its introduction's id from us.",
      params: { reason: "mutually_exclusive" },
    });
  }
  // The hosted journey needs a way back to the partner or a way to reach the applicant (spec 4.2).
  if (body.redirect_uri === undefined && body.applicant?.email === undefined) {
    context.addIssue({
      code: "custom",
      path: ["applicant", "email"],
      message: "applicant.email is required when no redirect_uri is set.",
      params: { reason: "required" },
    });
  }
});

export type CreateApplicationInput = z.output<typeof createApplicationBodySchema>;

const timestamp = z.iso.datetime({ offset: true }).transform((value) => new Date(value));

export const listApplicationsQuerySchema = listQuerySchema(
  {
    status: z.enum(APPLICATION_STATUSES).optional(),
    reference: requestString().min(1).max(REFERENCE_MAX_LENGTH).optional(),
    created_after: timestamp.optional(),
  },
  { defaultLimit: 25 },
);

export const withdrawApplicationBodySchema = z.strictObject({ reason: requestString().trim().min(1).max(500).optional() }).optional();

/** Submitting, by a white-label partner or the test helper (which completes the hosted journey as the applicant would). */
export const submitApplicationBodySchema = z
  .strictObject({
    /** What the applicant declares in the journey; the live engine weighs the request against it. */
    declared_annual_turnover_pence: z.int().min(0).max(100_000_000_000).optional(),
  })
  .optional();

const SIGNATORY_NAME_MIN_LENGTH = 2;
const SIGNATORY_NAME_MAX_LENGTH = 140;
const SIGNATORY_NAME_RANGE = `signatory_name is the signatory's full name, ${SIGNATORY_NAME_MIN_LENGTH} to ${SIGNATORY_NAME_MAX_LENGTH} characters.`;

/** The borrower accepts the offer by typing their full name (the hosted journey's "Type your full name to sign"). */
export const acceptOfferBodySchema = z.strictObject({
  signatory_name: requestString()
    .trim()
    .min(SIGNATORY_NAME_MIN_LENGTH, { error: SIGNATORY_NAME_RANGE })
    .max(SIGNATORY_NAME_MAX_LENGTH, { error: SIGNATORY_NAME_RANGE }),
});

// Replies

export const applicationSchema = z
  .strictObject({
    id: idOf("app"),
    object: z.literal("application"),
    livemode: z.boolean(),
    status: z.enum(APPLICATION_STATUSES),
    business: z.strictObject({ company_number: text().meta({ examples: ["09876543"] }), name: text().meta({ examples: ["Acme Trading Ltd"] }) }),
    amount_pence: pence().meta({ examples: [2_000_000] }),
    term_months: z.int().meta({ examples: [12] }),
    product: z.enum(APPLICATION_PRODUCTS),
    purpose: z.enum(APPLICATION_PURPOSES).nullable(),
    reference: text().nullable(),
    handoff_url: absoluteUrl().meta({ description: "The hosted journey for the applicant: an unguessable address, not derived from the id." }),
    expires_at: instant(),
    created_at: instant(),
    submitted_at: instant().nullable(),
    withdrawn_at: instant().nullable(),
    withdrawal_reason: text().nullable(),
    funded_at: instant().nullable(),
    decision: idOf("dec").nullable().meta({ description: "The decision's id once decisioning has run." }),
    account_id: idOf("acc").nullable().meta({ description: "The servicing account once funded." }),
    introduction_id: text().nullable().meta({ description: "The introduction (beta) the application was originated through, or the partner's own attribution." }),
    sub_account_id: idOf("sub").nullable().meta({ description: "The sub-account (beta) the application was originated through." }),
    metadata: metadataObject,
  })
  .meta({ id: "Application", description: "A loan application (spec 2.2)." });

export const applicationListSchema = listEnvelopeSchema(applicationSchema);
