// The sandbox test clock's object and request schemas (docs/sandbox.md, "Test clock").
import { z } from "zod";
import { timestamp } from "../wire/response-schema";

/** The most days one advance may move a clock: a year and a bit, so one call can see a loan through its first year. */
export const MAX_ADVANCE_DAYS = 400;

export const advanceClockBodySchema = z.strictObject({
  days: z.int().min(1).max(MAX_ADVANCE_DAYS),
});

export type AdvanceClockInput = z.output<typeof advanceClockBodySchema>;

export const testClockSchema = z
  .strictObject({
    object: z.literal("test_clock"),
    livemode: z.literal(false),
    now: timestamp().meta({ description: "The project's sandbox time: real time plus offset_days." }),
    offset_days: z.int().min(0).meta({ description: "Days the clock has been advanced in all (while advancing: the whole days done so far)." }),
    status: z.enum(["ready", "advancing"]).meta({ description: "`advancing` while an advance runs (it answered 202 and goes on in the background); `ready` otherwise." }),
    target_offset_days: z.int().min(0).meta({ description: "Where the running advance takes offset_days; equal to it when ready." }),
  })
  .meta({ id: "TestClock", description: "The project's sandbox clock: the time its sandbox objects and events carry." });
