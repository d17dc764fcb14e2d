// Publishable keys (spec 5.1: `pk_sandbox_…`, `pk_live_…`, safe in browsers). The one thing a publishable key
// does is start an application through the apply.js widget (docs/apply-js.md); it cannot get a token, call a
// partner route or read anything. The key's prefix selects the environment, as a secret key's does.
import { clock } from "../clock";
import { db } from "../db";
import { ApiError } from "../errors";
import { readProjectState } from "../projects/project-state";
import type { Tenant } from "../tenant";
import { hashSecret, parseKeyPrefix, secretsMatch } from "./secrets";
import { markKeyUsed } from "./service";

export interface PublishableKeyCaller {
  keyId: string;
  tenant: Tenant;
  /** The origins whose pages may use the key; empty, any. */
  allowedOrigins: readonly string[];
}

const UNKNOWN_KEY = "Unknown publishable key: copy it again from your project's keys (pk_sandbox_… or pk_live_…).";

/** The project and environment a presented publishable key belongs to; 401 for anything else presented. */
export async function authenticatePublishableKey(presented: string): Promise<PublishableKeyCaller> {
  const kind = parseKeyPrefix(presented);
  if (!kind) throw new ApiError("invalid_api_key", { message: "publishable_key must be a publishable key: pk_sandbox_… or pk_live_…." });
  if (kind.type === "secret") {
    // A secret key in a browser is a leak, whoever reads this answer: say so plainly.
    throw new ApiError("invalid_api_key", {
      message: "This is a secret key (sk_…): it must never be put in a web page. Roll it now (POST /partner/v1/keys/{id}/roll) and give the widget your publishable key (pk_…).",
    });
  }
  const key = await db().apiKey.findUnique({ where: { secretHash: hashSecret(presented) } });
  if (!key || key.type !== "publishable" || key.environment !== kind.environment || !secretsMatch(presented, key.secretHash)) {
    throw new ApiError("invalid_api_key", { message: UNKNOWN_KEY });
  }
  if (key.status === "revoked") throw new ApiError("key_revoked", { message: "This publishable key has been revoked." });
  if (key.expiresAt && key.expiresAt <= clock.now()) throw new ApiError("key_revoked", { message: "This publishable key was rolled and its overlap window has ended." });
  const project = await readProjectState(key.projectId);
  if (!project) throw new ApiError("invalid_api_key", { message: UNKNOWN_KEY });
  if (project.status === "suspended") throw new ApiError("account_suspended");
  await markKeyUsed(key.id);
  return {
    keyId: key.id,
    allowedOrigins: key.allowedOrigins,
    tenant: { projectId: key.projectId, environment: key.environment, sandboxClockOffsetDays: key.environment === "sandbox" ? project.sandboxClockOffsetDays : 0 },
  };
}
