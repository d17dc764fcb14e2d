// The cookie-consent snapshot a visitor's browser posts (spec 4.8 leaves the body to us). It carries the
// visitor's choices and a random first-party id, nothing that identifies a person.
import { z } from "zod";
import { requestString } from "../wire/request-string";


/** A snapshot is four short fields; a body bigger than this is not one. */
export const CONSENT_BODY_LIMIT_BYTES = 4 * 1024;

export const recordConsentBodySchema = z.strictObject({
  analytics: z.boolean(),
  marketing: z.boolean(),
  /** The id the site's banner generates and keeps in the browser: never an email, account id or address. */
  anonymous_id: requestString().regex(/^[A-Za-z0-9_-]{8,64}$/),
  policy_version: requestString().min(1).max(32),
});

export type RecordConsentBody = z.output<typeof recordConsentBodySchema>;

/** A query string is ignored, never refused: the endpoint fails open. */
export const recordConsentQuerySchema = z.object({});

export const consentRecordedSchema = z
  .strictObject({ recorded: z.boolean().meta({ description: "false when the snapshot could not be kept: consent never fails the page." }) })
  .meta({ id: "ConsentRecorded" });
