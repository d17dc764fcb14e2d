// The test clock object (docs/sandbox.md, "Test clock").
import { z } from "zod";
import { timestamp } from "../http/response-schema";

export const testClockSchema = z
  .strictObject({
    object: z.literal("test_clock"),
    livemode: z.literal(false),
    now: timestamp().meta({ description: "The project's sandbox time: real time plus offset_days." }),
    offset_days: z.int().min(0).meta({ description: "Days the clock has been advanced in all." }),
  })
  .meta({ id: "TestClock", description: "The project's sandbox clock: the time its sandbox objects and events carry." });

export function serializeTestClock(now: Date, offsetDays: number): z.output<typeof testClockSchema> {
  return { object: "test_clock", livemode: false, now: now.toISOString(), offset_days: offsetDays };
}
