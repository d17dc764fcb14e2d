// Cookie-consent snapshots (spec 4.8: unauthenticated, fail-open). The consent banner must never break the
// site, so every request gets the same answer: a body that is not a snapshot, or a database that cannot take
// one, is `recorded: false`, never an error. Only the four fields are kept: no address, user agent or email.
import { clock } from "../clock";
import { db, type DatabaseClient } from "../db";
import { newId } from "../ids";
import { log } from "../log";
import type { RecordConsentBody } from "./schemas";

export interface ConsentOutcome {
  recorded: boolean;
}

/** The error's name and code only: a database error's message can quote the values it was given. */
function describeStorageFailure(error: unknown): Record<string, unknown> {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  return { error_name: error instanceof Error ? error.name : typeof error, error_code: code === undefined ? null : String(code) };
}

/** Records a snapshot; `null` (the request carried none) records nothing. */
export async function recordConsent(options: { snapshot: RecordConsentBody | null; transaction?: DatabaseClient }): Promise<ConsentOutcome> {
  const { snapshot, transaction: database = db() } = options;
  if (!snapshot) return { recorded: false };
  try {
    await database.consentSnapshot.create({
      data: {
        id: newId("consentSnapshot"),
        anonymousId: snapshot.anonymous_id,
        analytics: snapshot.analytics,
        marketing: snapshot.marketing,
        policyVersion: snapshot.policy_version,
        createdAt: clock.now(),
      },
    });
    return { recorded: true };
  } catch (error) {
    log.warn("consent snapshot not recorded", describeStorageFailure(error));
    return { recorded: false };
  }
}
