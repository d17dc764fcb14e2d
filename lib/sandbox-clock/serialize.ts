// The test clock object (docs/sandbox.md, "Test clock").
import { z } from "zod";
import { timestamp } from "../wire/response-schema";

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

export function serializeTestClock(now: Date, offsetDays: number, targetOffsetDays: number): z.output<typeof testClockSchema> {
  return {
    object: "test_clock",
    livemode: false,
    now: now.toISOString(),
    offset_days: offsetDays,
    status: targetOffsetDays > offsetDays ? "advancing" : "ready",
    target_offset_days: targetOffsetDays,
  };
}
