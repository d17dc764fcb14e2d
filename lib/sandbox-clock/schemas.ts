// The sandbox test clock's request schema (docs/sandbox.md, "Test clock").
import { z } from "zod";

/** The most days one advance may move a clock: a year and a bit, so one call can see a loan through its first year. */
export const MAX_ADVANCE_DAYS = 400;

export const advanceClockBodySchema = z.strictObject({
  days: z.int().min(1).max(MAX_ADVANCE_DAYS),
});

export type AdvanceClockInput = z.output<typeof advanceClockBodySchema>;
