// The hosted journey's form posts (docs/hosted-journey.md): which step, and the fields as the browser sends them.
// Each step's own schema (lib/journey/journey.ts) reads its fields and refuses them with messages for the page.
import { z } from "zod";
import { requestString } from "../wire/request-string";
import { FORM_STEPS, JOURNEY_STEPS } from "./steps";

export const journeyTokenParamsSchema = z.strictObject({ token: requestString().max(64) });

export const journeyStepParamsSchema = journeyTokenParamsSchema.extend({ step: z.enum([...FORM_STEPS, "offer"]) });

/** The address of a journey's page: its token, and the step (`/apply/{token}/{step}`). */
export const journeyPageParamsSchema = journeyTokenParamsSchema.extend({ step: z.enum(JOURNEY_STEPS) });

/** Where a step opened from a Change link sends the applicant once it is answered: back to "Check your answers". */
export const RETURN_STEPS = ["check-answers"] as const;
export type ReturnStep = (typeof RETURN_STEPS)[number];

/**
 * What a step's page reads from its query: the refused post whose errors it shows (lib/journey/journey.ts,
 * `Refusal`), and the page to return to once it is answered (a Change link's).
 */
export const journeyPageQuerySchema = z.strictObject({
  refused: requestString().max(64),
  return: z.enum(RETURN_STEPS),
  /** The other director the directors' page changes (1 for the first). */
  director: requestString().regex(/^\d{1,2}$/).transform(Number),
});

/** What `/apply/{token}` reads from its query: the caller's `state`, carried to the redirect at the end. */
export const journeyEntryQuerySchema = z.strictObject({ state: requestString() });

export const journeyStatusSchema = z
  .strictObject({ step: z.enum([...JOURNEY_STEPS, "withdrawn", "expired"]), under_review: z.boolean() })
  .meta({ description: "The step the application is at, or why it can no longer be completed, and whether an underwriter is reviewing it." });

/** At most this many fields: the longest form ("About you" with its director rows) has fewer than twenty. */
const MAX_FIELDS = 40;

export const journeyFormSchema = z
  .record(requestString().max(64), requestString().max(1_000))
  .refine((form) => Object.keys(form).length <= MAX_FIELDS, `A form has at most ${MAX_FIELDS} fields.`);
