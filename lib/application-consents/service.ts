// Application consents (docs/white-label.md, "Consents"): the applicant's agreement to each text of the
// catalogue, recorded by a white-label partner (`POST /applications/{id}/consents`) or the hosted journey
// while the application is `created`. Recording is idempotent per type and version: a consent already recorded
// is left as it was and fires nothing; a new one fires `consent.granted` in the same transaction. The newest
// consent of a type is the one in effect. The submit gate (lib/applications/applicant-actions.ts) asks
// `missingConsents`.
import { lockOwnApplicationOrThrow } from "../applications/service";
import { db, inTransaction, type DatabaseClient } from "../db";
import { ApiError } from "../errors";
import { recordEvents } from "../events/events";
import type { Application, ApplicationConsent, Prisma } from "../generated/prisma/client";
import { newId } from "../ids";
import type { Tenant } from "../tenant";
import { CONSENT_TYPES, REQUIRED_CONSENTS, type ConsentType } from "./catalogue";
import type { ConsentInput } from "./schemas";
import { serializeApplicationConsents, serializeConsent, type ApplicationConsentsObject } from "./serialize";
import { type ConsentSource } from "./schemas";

export interface RecordConsentsOptions {
  tenant: Tenant;
  /** The request's time on the tenant's clock, which the record and its event carry. */
  now: Date;
  applicationId: string;
  /** Validated input: known types and versions, each type once. */
  consents: readonly ConsentInput[];
  source: ConsentSource;
  /** The caller's transaction, for the consents and their events to commit with its other writes. */
  transaction?: Prisma.TransactionClient;
}

/**
 * Records the consents and answers with where the application's consents stand. The application must be the
 * tenant's (404 `not_found`; the other environment's: 401 `environment_mismatch`) and `created` (409 `conflict`).
 */
export async function recordConsents(options: RecordConsentsOptions): Promise<ApplicationConsentsObject> {
  const { tenant, now, applicationId, consents, source } = options;
  return inTransaction(options.transaction ?? db(), async (transaction) => {
    // Locked, so a submit waits for the consents being recorded, and two recordings of one consent make one row.
    const application = await lockOwnApplicationOrThrow(transaction, tenant, applicationId);
    if (application.status !== "created") {
      throw new ApiError("conflict", {
        message: `Application ${applicationId} is ${application.status}: consents are recorded while an application is created, before it is submitted.`,
      });
    }
    const granted: ApplicationConsent[] = [];
    for (const { type, text_version } of consents) {
      const existing = await transaction.applicationConsent.findUnique({
        where: { applicationId_type_textVersion: { applicationId, type, textVersion: text_version } },
      });
      if (existing) continue;
      granted.push(
        await transaction.applicationConsent.create({
          data: { id: newId("applicationConsent"), projectId: tenant.projectId, environment: tenant.environment, applicationId, type, textVersion: text_version, source, grantedAt: now },
        }),
      );
    }
    await recordEvents(
      transaction,
      granted.map((consent) => ({ projectId: tenant.projectId, environment: tenant.environment, type: "consent.granted" as const, object: serializeConsent(consent, application), createdAt: now })),
    );
    return describeApplicationConsents(application, transaction);
  });
}

/** The consent in effect for each type given so far: the newest recorded, in catalogue order. */
async function consentsInEffect(applicationId: string, database: DatabaseClient): Promise<ApplicationConsent[]> {
  const recorded = await database.applicationConsent.findMany({ where: { applicationId }, orderBy: { id: "asc" } });
  const newest = new Map(recorded.map((consent) => [consent.type, consent]));
  return CONSENT_TYPES.flatMap((type) => newest.get(type) ?? []);
}

function missingFrom(inEffect: readonly ApplicationConsent[]): ConsentType[] {
  const given = new Set(inEffect.map((consent) => consent.type));
  return REQUIRED_CONSENTS.filter((type) => !given.has(type));
}

/** Required consents the application does not have yet, in catalogue order. */
export async function missingConsents(applicationId: string, database: DatabaseClient = db()): Promise<ConsentType[]> {
  return missingFrom(await consentsInEffect(applicationId, database));
}

/** Where an application's consents stand: what `POST /applications/{id}/consents` answers, and the hosted journey shows. */
export async function describeApplicationConsents(
  application: Pick<Application, "id" | "environment" | "reference">,
  database: DatabaseClient = db(),
): Promise<ApplicationConsentsObject> {
  const inEffect = await consentsInEffect(application.id, database);
  return serializeApplicationConsents(application, inEffect, missingFrom(inEffect));
}
