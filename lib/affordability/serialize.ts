// The affordability object (ours): what `POST /applications/{id}/affordability` answers.
import type { z } from "zod";
import type { AffordabilityRecord, Application } from "../generated/prisma/client";
import type { affordabilitySchema } from "./schemas";

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
