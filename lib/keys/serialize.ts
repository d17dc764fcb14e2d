import type { ApiKey } from "../generated/prisma/client";

export type KeyStatus = "active" | "expired" | "revoked";

export function keyStatus(key: Pick<ApiKey, "status" | "expiresAt">, now: Date): KeyStatus {
  if (key.status === "revoked") return "revoked";
  if (key.expiresAt && key.expiresAt <= now) return "expired";
  return "active";
}

/** The API key object (spec 2.8). Never includes the secret: that is added once, by create and roll. */
export function serializeKey(key: ApiKey, now: Date) {
  return {
    id: key.id,
    object: "api_key" as const,
    type: key.type,
    environment: key.environment,
    livemode: key.environment === "live",
    prefix: key.prefix,
    last4: key.last4,
    status: keyStatus(key, now),
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    expires_at: key.expiresAt?.toISOString() ?? null,
    revoked_at: key.revokedAt?.toISOString() ?? null,
    predecessor: key.predecessorId,
    created_at: key.createdAt.toISOString(),
    ...(key.type === "publishable" ? { allowed_origins: key.allowedOrigins } : {}),
  };
}
