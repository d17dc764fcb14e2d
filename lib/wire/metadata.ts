// `metadata` (spec 2.1): up to 20 string key/value pairs, stored and returned verbatim. The key and value
// bounds are ours (the spec gives only the count): Stripe's, which integrators already design around.
import { z } from "zod";
import { requestString } from "./request-string";

export const METADATA_MAX_PAIRS = 20;
export const METADATA_KEY_MAX_LENGTH = 40;
export const METADATA_VALUE_MAX_LENGTH = 500;

export const metadataSchema = z
  .record(requestString().min(1).max(METADATA_KEY_MAX_LENGTH), requestString().max(METADATA_VALUE_MAX_LENGTH))
  .refine((pairs) => Object.keys(pairs).length <= METADATA_MAX_PAIRS, {
    message: `metadata holds at most ${METADATA_MAX_PAIRS} pairs.`,
    params: { reason: "too_many_pairs" },
  });

export type Metadata = z.output<typeof metadataSchema>;
