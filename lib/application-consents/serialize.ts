// The consent object (spec 2.9 names `consent` only as an event object; its fields are ours): the
// `data.object` of `consent.granted`, and the application's consents that `POST /applications/{id}/consents`
// answers with.
import { z } from "zod";
import type { Application, ApplicationConsent } from "../generated/prisma/client";
import { calendarDate, idOf, text, timestamp } from "../wire/response-schema";
import { CONSENT_TYPES, type ConsentType } from "./catalogue";

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

export type ConsentObject = z.output<typeof consentSchema>;
export type ApplicationConsentsObject = z.output<typeof applicationConsentsSchema>;

export function serializeConsent(consent: ApplicationConsent, application: Pick<Application, "reference">): ConsentObject {
  return {
    id: consent.id,
    object: "consent",
    livemode: consent.environment === "live",
    application_id: consent.applicationId,
    reference: application.reference,
    type: consent.type,
    text_version: consent.textVersion,
    source: consent.source,
    granted_at: consent.grantedAt.toISOString(),
  };
}

export function serializeApplicationConsents(
  application: Pick<Application, "id" | "environment" | "reference">,
  inEffect: readonly ApplicationConsent[],
  missing: readonly ConsentType[],
): ApplicationConsentsObject {
  return {
    object: "application_consents",
    livemode: application.environment === "live",
    application_id: application.id,
    consents: inEffect.map((consent) => serializeConsent(consent, application)),
    missing: [...missing],
  };
}
