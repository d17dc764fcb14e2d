// The verification object (spec 2.9 names it only as the `data.object` of the identity events; its fields are
// ours), in two forms: with the people checked, what `POST /identity/checks` and `GET /identity/checks/{id}`
// answer (white_label projects only); and without them, what the identity events carry to every partner's
// events, stream and webhooks: one result per person, by role, and nothing a person could be identified by.
import { z } from "zod";
import type { Application, IdentityCheck } from "../generated/prisma/client";
import { calendarDate, idOf, text, timestamp } from "../http/response-schema";
import { IDENTITY_RESULTS, type IdentityResult } from "./provider";
import { IDENTITY_ROLES, type IdentityPerson } from "./schemas";

export const verificationPersonSchema = z.strictObject({
  first_name: text(),
  last_name: text(),
  date_of_birth: calendarDate(),
  role: z.enum(IDENTITY_ROLES),
  result: z.enum(IDENTITY_RESULTS),
});

export const verificationResultSchema = z.strictObject({
  role: z.enum(IDENTITY_ROLES),
  result: z.enum(IDENTITY_RESULTS),
});

const verificationFields = {
  id: idOf("idv"),
  object: z.literal("verification"),
  livemode: z.boolean(),
  application_id: idOf("app"),
  reference: text().nullable().meta({ description: "The application's reference, echoed (spec 2.1)." }),
  status: z.enum(IDENTITY_RESULTS),
};

export const verificationSchema = z
  .strictObject({ ...verificationFields, people: z.array(verificationPersonSchema), created_at: timestamp() })
  .meta({ id: "Verification", description: "An identity check of an application's directors and people with significant control." });

/** The identity events' `data.object`: the check without its people. */
export const verificationEventSchema = z
  .strictObject({
    ...verificationFields,
    results: z.array(verificationResultSchema).meta({ description: "One per person checked, in the order they were sent." }),
    created_at: timestamp(),
  })
  .meta({ id: "VerificationEvent", description: "An identity check as its events carry it: each person's role and result, and no personal data." });

export type VerificationObject = z.output<typeof verificationSchema>;
export type VerificationEventObject = z.output<typeof verificationEventSchema>;
export type CheckedPerson = IdentityPerson & { result: IdentityResult };

function verificationHead(check: IdentityCheck, application: Pick<Application, "reference">) {
  return {
    id: check.id,
    object: "verification" as const,
    livemode: check.environment === "live",
    application_id: check.applicationId,
    reference: application.reference,
    status: check.status,
  };
}

export function serializeIdentityCheck(check: IdentityCheck, application: Pick<Application, "reference">): VerificationObject {
  return {
    ...verificationHead(check, application),
    people: (check.people as unknown as CheckedPerson[]).map(({ first_name, last_name, date_of_birth, role, result }) => ({
      first_name,
      last_name,
      date_of_birth,
      role,
      result,
    })),
    created_at: check.createdAt.toISOString(),
  };
}

export function serializeIdentityCheckEvent(check: IdentityCheck, application: Pick<Application, "reference">): VerificationEventObject {
  return {
    ...verificationHead(check, application),
    results: (check.people as unknown as CheckedPerson[]).map(({ role, result }) => ({ role, result })),
    created_at: check.createdAt.toISOString(),
  };
}
