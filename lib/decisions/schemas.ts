import { z } from "zod";
import { requestString } from "../http/request-string";
import { DECLINE_REASONS } from "./engine";

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
