// The verification object (spec 2.9 names it only as the `data.object` of the identity events; its fields are
// ours), in two forms: with the people checked, what `POST /identity/checks` and `GET /identity/checks/{id}`
// answer (white_label projects only); and without them, what the identity events carry to every partner's
// events, stream and webhooks: one result per person, by role, and nothing a person could be identified by.
import { z } from "zod";
import type { Application, IdentityCheck } from "../generated/prisma/client";
import { calendarDate, idOf, text, timestamp } from "../wire/response-schema";
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
  results: z.array(verificationResultSchema).meta({ description: "One per person checked, in the order they were sent: the role and the result." }),
};

/** The identity events' `data.object`: the check without its people. */
export const verificationEventSchema = z
  .strictObject({ ...verificationFields, created_at: timestamp() })
  .meta({ id: "VerificationEvent", description: "An identity check as its events carry it: each person's role and result, and no personal data." });

export const verificationSchema = z
  .strictObject({
    ...verificationFields,
    people: z.array(verificationPersonSchema).meta({
      description: "The people checked, in the order they were sent; empty once their personal data is erased under retention (docs/identity.md).",
    }),
    created_at: timestamp(),
  })
  .meta({ id: "Verification", description: "An identity check of an application's directors and people with significant control." });

export type VerificationObject = z.output<typeof verificationSchema>;
export type VerificationEventObject = z.output<typeof verificationEventSchema>;
/** A person as stored with the check; once erased (lib/applications/personal-data.ts), only `role` and `result` remain. */
export type CheckedPerson = IdentityPerson & { result: IdentityResult };
type StoredPerson = CheckedPerson | Pick<CheckedPerson, "role" | "result">;

const storedPeople = (check: IdentityCheck) => check.people as unknown as StoredPerson[];

export function serializeIdentityCheckEvent(check: IdentityCheck, application: Pick<Application, "reference">): VerificationEventObject {
  return {
    id: check.id,
    object: "verification",
    livemode: check.environment === "live",
    application_id: check.applicationId,
    reference: application.reference,
    status: check.status,
    results: storedPeople(check).map(({ role, result }) => ({ role, result })),
    created_at: check.createdAt.toISOString(),
  };
}

export function serializeIdentityCheck(check: IdentityCheck, application: Pick<Application, "reference">): VerificationObject {
  const { created_at, ...fields } = serializeIdentityCheckEvent(check, application);
  const people = storedPeople(check).flatMap((person) =>
    "first_name" in person ? [{ first_name: person.first_name, last_name: person.last_name, date_of_birth: person.date_of_birth, role: person.role, result: person.result }] : [],
  );
  return { ...fields, people, created_at };
}
