// The verification object (spec 2.9 names it only as the `data.object` of the identity events; its fields are
// ours), in two forms: with the people checked, what `POST /identity/checks` and `GET /identity/checks/{id}`
// answer (white_label projects only); and without them, what the identity events carry to every partner's
// events, stream and webhooks: one result per person, by role, and nothing a person could be identified by.
// Their schemas are in ./schemas.ts.
import type { z } from "zod";
import type { Application, IdentityCheck } from "../generated/prisma/client";
import type { IdentityResult } from "./schemas";
import type { IdentityPerson, verificationEventSchema, verificationSchema } from "./schemas";

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
