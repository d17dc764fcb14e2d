// The consent object (spec 2.9 names `consent` only as an event object; its fields are ours): the
// `data.object` of `consent.granted`, and the application's consents that `POST /applications/{id}/consents`
// answers with. Their schemas are in ./schemas.ts.
import type { z } from "zod";
import type { Application, ApplicationConsent } from "../generated/prisma/client";
import type { ConsentType } from "./catalogue";
import type { applicationConsentsSchema, consentSchema } from "./schemas";

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
