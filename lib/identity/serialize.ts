// The verification object (spec 2.9 names it only as the `data.object` of the identity events; its fields are
// ours): what `POST /identity/checks` and `GET /identity/checks/{id}` answer and the events carry.
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

export const verificationSchema = z
  .strictObject({
    id: idOf("idv"),
    object: z.literal("verification"),
    livemode: z.boolean(),
    application_id: idOf("app"),
    reference: text().nullable().meta({ description: "The application's reference, echoed (spec 2.1)." }),
    status: z.enum(IDENTITY_RESULTS),
    people: z.array(verificationPersonSchema),
    created_at: timestamp(),
  })
  .meta({ id: "Verification", description: "An identity check of an application's directors and people with significant control." });

export type VerificationObject = z.output<typeof verificationSchema>;
export type CheckedPerson = IdentityPerson & { result: IdentityResult };

export function serializeIdentityCheck(check: IdentityCheck, application: Pick<Application, "reference">): VerificationObject {
  return {
    id: check.id,
    object: "verification",
    livemode: check.environment === "live",
    application_id: check.applicationId,
    reference: application.reference,
    status: check.status,
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
