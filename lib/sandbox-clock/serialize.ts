// The test clock object (docs/sandbox.md, "Test clock").
import type { z } from "zod";
import type { testClockSchema } from "./schemas";

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
