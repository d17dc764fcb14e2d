// The affordability object's schema (ours), and the request schema of `POST /applications/{id}/affordability`
// (docs/white-label.md): the partner's twelve months of figures, or the sandbox bank's.
import { z } from "zod";
import { idOf, pence, text, timestamp } from "../wire/response-schema";
import { TURNOVER_MONTHS } from "./provider";

/** £20 million in a month: far beyond any company we lend to, and within the column's 32-bit integers. */
export const MAX_MONTHLY_TURNOVER_PENCE = 2_000_000_000;

const MONTH_RANGE = `Each month's turnover is a whole number of pence from 0 to ${MAX_MONTHLY_TURNOVER_PENCE} (£20,000,000).`;
const MONTH_COUNT = `monthly_turnover_pence lists exactly ${TURNOVER_MONTHS} months of turnover, oldest first.`;

export const AFFORDABILITY_SOURCES = ["sandbox_bank"] as const;

export const recordAffordabilityBodySchema = z
  .strictObject({
    monthly_turnover_pence: z
      .array(z.int().min(0, { error: MONTH_RANGE }).max(MAX_MONTHLY_TURNOVER_PENCE, { error: MONTH_RANGE }))
      .length(TURNOVER_MONTHS, { error: MONTH_COUNT })
      .optional(),
    source: z.enum(AFFORDABILITY_SOURCES).optional(),
  })
  .superRefine((body, context) => {
    if (body.monthly_turnover_pence === undefined && body.source === undefined) {
      context.addIssue({
        code: "custom",
        path: ["monthly_turnover_pence"],
        message: `monthly_turnover_pence is required: ${TURNOVER_MONTHS} months of the company's turnover in pence, oldest first (or, in the sandbox, "source": "sandbox_bank").`,
        params: { reason: "required" },
      });
    } else if (body.monthly_turnover_pence !== undefined && body.source !== undefined) {
      context.addIssue({
        code: "custom",
        path: ["source"],
        message: "Send either monthly_turnover_pence or source, not both.",
        params: { reason: "mutually_exclusive" },
      });
    }
  });

export type RecordAffordabilityInput = z.output<typeof recordAffordabilityBodySchema>;

export const affordabilitySchema = z
  .strictObject({
    id: idOf("aff"),
    object: z.literal("affordability"),
    livemode: z.boolean(),
    application_id: idOf("app"),
    reference: text().nullable().meta({ description: "The application's reference, echoed (spec 2.1)." }),
    source: z.enum(["partner", "sandbox_bank"]).meta({ description: "`partner`: the figures you sent; `sandbox_bank`: the sandbox's simulated bank." }),
    monthly_turnover_pence: z.array(pence()).length(TURNOVER_MONTHS).meta({ description: "Twelve months of turnover, oldest first." }),
    annual_turnover_pence: pence().meta({ description: "The twelve months added up: what the decision engine weighs." }),
    recorded_at: timestamp(),
  })
  .meta({ id: "Affordability", description: "Twelve months of the company's turnover from open banking, for the affordability rules." });
