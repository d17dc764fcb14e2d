// Cookie-consent snapshots (spec 4.8: unauthenticated, fail-open). The consent banner must never break the
// site, so every request gets the same answer: a body that is not a snapshot, or a database that cannot take
// one, is `recorded: false`, never an error. Only the four fields are kept: no address, user agent or email.
import { clock } from "../clock";
import type { DatabaseClient } from "../db";
import { readBody } from "../http/body";
import { newId } from "../ids";
import { log } from "../log";
import { CONSENT_BODY_LIMIT_BYTES, recordConsentBodySchema, type RecordConsentBody } from "./schemas";

export interface ConsentOutcome {
  recorded: boolean;
}

/** The snapshot in the request, or null for anything else: no body, oversize, not JSON, the wrong shape. */
async function readSnapshot(request: Request): Promise<RecordConsentBody | null> {
  try {
    const body = await readBody(request, { format: "json", limit: CONSENT_BODY_LIMIT_BYTES, ring: "public" });
    const parsed = recordConsentBodySchema.safeParse(body);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The error's name and code only: a database error's message can quote the values it was given. */
function describeStorageFailure(error: unknown): Record<string, unknown> {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  return { error_name: error instanceof Error ? error.name : typeof error, error_code: code === undefined ? null : String(code) };
}

export async function recordConsent(options: { request: Request; database: DatabaseClient }): Promise<ConsentOutcome> {
  const snapshot = await readSnapshot(options.request);
  if (!snapshot) return { recorded: false };
  try {
    await options.database.consentSnapshot.create({
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
