// The affordability object (ours): what `POST /applications/{id}/affordability` answers.
import { z } from "zod";
import type { AffordabilityRecord, Application } from "../generated/prisma/client";
import { idOf, pence, text, timestamp } from "../wire/response-schema";
import { TURNOVER_MONTHS } from "./provider";

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

export type AffordabilityObject = z.output<typeof affordabilitySchema>;

/** A year's turnover: the twelve months added up. */
export function annualTurnoverPence(monthlyTurnoverPence: readonly number[]): number {
  return monthlyTurnoverPence.reduce((sum, month) => sum + month, 0);
}

export function serializeAffordability(record: AffordabilityRecord, application: Pick<Application, "reference">): AffordabilityObject {
  return {
    id: record.id,
    object: "affordability",
    livemode: record.environment === "live",
    application_id: record.applicationId,
    reference: application.reference,
    source: record.source,
    monthly_turnover_pence: record.monthlyTurnoverPence,
    annual_turnover_pence: annualTurnoverPence(record.monthlyTurnoverPence),
    recorded_at: record.recordedAt.toISOString(),
  };
}
