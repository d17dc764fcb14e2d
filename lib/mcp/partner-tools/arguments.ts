// The arguments several partner tools share.
import { z } from "zod";
import { DAY_MS } from "../../clock";
import { requestString } from "../../wire/request-string";

export const applicationIdInput = z.strictObject({ application_id: requestString().startsWith("app_").meta({ description: "The application's id (`app_…`)." }) });
export const accountIdInput = z.strictObject({ account_id: requestString().startsWith("acc_").meta({ description: "The account's id (`acc_…`)." }) });
export const windowInput = z.strictObject({ days: z.int().min(1).max(90).default(30).meta({ description: "How many days back to count, 1 to 90 (30 if omitted)." }) });
export const noArguments = z.strictObject({});

/** The start of a window of `days` ending at `now`. */
export function daysBefore(now: Date, days: number): Date {
  return new Date(now.getTime() - days * DAY_MS);
}
