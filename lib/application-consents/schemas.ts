// The consent objects' schemas, and the request schema of `POST /applications/{id}/consents` (docs/white-label.md).
import { z } from "zod";
import { requestString } from "../wire/request-string";
import { calendarDate, idOf, text, timestamp } from "../wire/response-schema";
import { fieldLabel } from "../wire/validation";
import { CONSENT_TYPES, currentConsentText, findConsentText } from "./catalogue";

const TEXT_VERSION_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

const consentInputSchema = z.strictObject({
  type: z.enum(CONSENT_TYPES),
  text_version: requestString().regex(TEXT_VERSION_PATTERN, {
    error: (issue) => `${fieldLabel(issue.path)} is the date of the consent text's version, YYYY-MM-DD, such as 2026-11-01.`,
  }),
});

export const recordConsentsBodySchema = z
  .strictObject({
    consents: z.array(consentInputSchema).min(1).max(CONSENT_TYPES.length),
  })
  .superRefine(({ consents }, context) => {
    const seen = new Set<string>();
    consents.forEach(({ type, text_version }, index) => {
      if (seen.has(type)) {
        context.addIssue({
          code: "custom",
          path: ["consents", index, "type"],
          message: `consents lists ${type} more than once; record each consent once.`,
          params: { reason: "duplicate" },
        });
      }
      seen.add(type);
      // A version not written as a date has been reported already.
      if (TEXT_VERSION_PATTERN.test(text_version) && !findConsentText(type, text_version)) {
        context.addIssue({
          code: "custom",
          path: ["consents", index, "text_version"],
          message: `consents.${index}.text_version ${text_version} is not a version of the ${type} text; the current version is ${currentConsentText(type).version}.`,
          params: { reason: "unknown_version" },
        });
      }
    });
  });

export type RecordConsentsInput = z.output<typeof recordConsentsBodySchema>;
export type ConsentInput = RecordConsentsInput["consents"][number];

export const CONSENT_SOURCES = ["api", "hosted"] as const;
export type ConsentSource = (typeof CONSENT_SOURCES)[number];

export const consentSchema = z
  .strictObject({
    id: idOf("consent"),
    object: z.literal("consent"),
    livemode: z.boolean(),
    application_id: idOf("app"),
    reference: text().nullable().meta({ description: "The application's reference, echoed (spec 2.1)." }),
    type: z.enum(CONSENT_TYPES),
    text_version: calendarDate().meta({ description: "The version of the consent text the applicant agreed to." }),
    source: z.enum(CONSENT_SOURCES).meta({ description: "`api`: recorded by a white-label partner; `hosted`: given in the hosted journey." }),
    granted_at: timestamp(),
  })
  .meta({ id: "Consent", description: "An applicant's consent to one consent text, at one version." });

export const applicationConsentsSchema = z
  .strictObject({
    object: z.literal("application_consents"),
    livemode: z.boolean(),
    application_id: idOf("app"),
    consents: z.array(consentSchema).meta({ description: "The consent in effect for each type given so far (the newest recorded), in catalogue order." }),
    missing: z.array(z.enum(CONSENT_TYPES)).meta({ description: "Consents still needed before the application can be submitted." }),
  })
  .meta({ id: "ApplicationConsents", description: "Where an application's consents stand." });
