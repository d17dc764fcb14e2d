import { z } from "zod";
import { requestString } from "../wire/request-string";
import { DECLINE_REASONS } from "./engine";
import { calendarDate, idOf, pence, text, timestamp } from "../wire/response-schema";

export const decisionIdParamsSchema = z.strictObject({ id: requestString().startsWith("dec_") });

/** The refresh takes no parameters: it re-runs the engine on the application's current data. */
export const refreshDecisionBodySchema = z.strictObject({}).optional();

/** Test helper: an underwriter's answer to a referral. */
export const resolveReferralBodySchema = z.strictObject({
  outcome: z.enum(["approved", "declined"]),
  /** The decline reason; `affordability` when omitted. Not allowed with `approved`. */
  reason: z.enum(DECLINE_REASONS).optional(),
}).refine((body) => body.outcome === "declined" || body.reason === undefined, {
  path: ["reason"],
  message: "reason applies only to a declined outcome.",
  params: { reason: "not_allowed" },
});

// Replies

const scheduleRowSchema = z.strictObject({
  number: z.int(),
  due_date: calendarDate(),
  payment_pence: pence(),
  principal_pence: pence(),
  interest_pence: pence(),
  balance_after_pence: pence(),
});

export const offerSchema = z
  .strictObject({
    principal_pence: pence(),
    apr_bps: z.int(),
    term_months: z.int(),
    monthly_repayment_pence: pence(),
    total_repayable_pence: pence(),
    total_interest_pence: pence(),
    first_repayment_date: calendarDate().nullable(),
    schedule_preview: z.array(scheduleRowSchema).meta({ description: "The first repayments of the schedule." }),
  })
  .meta({ id: "Offer" });

export const decisionSchema = z
  .strictObject({
    id: idOf("dec"),
    object: z.literal("decision"),
    livemode: z.boolean(),
    application_id: idOf("app"),
    outcome: z.enum(["approved", "declined", "referred"]),
    approved_amount_pence: pence(),
    apr_bps: z.int(),
    reference: text().nullable(),
    version: z.int().meta({ description: "Starts at 1; each refresh re-decides in place and adds one." }),
    reasons: z.array(z.strictObject({ code: z.enum(DECLINE_REASONS), message: text() })),
    conditions: z.array(z.strictObject({ code: text(), description: text() })),
    offer: offerSchema.nullable(),
    locked: z.boolean(),
    decided_at: timestamp(),
    created_at: timestamp(),
  })
  .meta({ id: "Decision", description: "The outcome of decisioning an application (spec 2.3)." });
