// API key secrets (spec 5.1): prefixed, high-entropy, shown once, stored only as a SHA-256 hash with the
// prefix and last four characters for display. A slow hash buys nothing for 238-bit random secrets.
import { createHash, timingSafeEqual } from "node:crypto";
import { newId, randomToken } from "../ids";
import type { TenantEnvironment } from "../tenant";

export type KeyType = "secret" | "publishable";

const SECRET_LENGTH = 40;

export function keyPrefix(type: KeyType, environment: TenantEnvironment): string {
  return `${type === "secret" ? "sk" : "pk"}_${environment}_`;
}

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

export function secretsMatch(secret: string, expectedHash: string): boolean {
  const actual = Buffer.from(hashSecret(secret), "hex");
  const expected = Buffer.from(expectedHash, "hex");
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export interface GeneratedSecret {
  secret: string;
  prefix: string;
  last4: string;
  secretHash: string;
}

export function generateSecret(type: KeyType, environment: TenantEnvironment): GeneratedSecret {
  const prefix = keyPrefix(type, environment);
  const secret = prefix + randomToken(SECRET_LENGTH);
  return { secret, prefix, last4: secret.slice(-4), secretHash: hashSecret(secret) };
}

/** What a presented secret claims to be, from its prefix alone; null when it is not one of ours. */
export function parseKeyPrefix(secret: string): { type: KeyType; environment: TenantEnvironment } | null {
  const match = /^(sk|pk)_(sandbox|live)_[0-9A-Za-z]+$/.exec(secret);
  if (!match) return null;
  return { type: match[1] === "sk" ? "secret" : "publishable", environment: match[2] as TenantEnvironment };
}

/** A new key's database row and its secret, to be shown once. */
export function newKeyRow(options: { projectId: string; type: KeyType; environment: TenantEnvironment; createdAt: Date; predecessorId?: string }) {
  const generated = generateSecret(options.type, options.environment);
  return {
    secret: generated.secret,
    row: {
      id: newId("apiKey"),
      projectId: options.projectId,
      type: options.type,
      environment: options.environment,
      prefix: generated.prefix,
      last4: generated.last4,
      secretHash: generated.secretHash,
      predecessorId: options.predecessorId ?? null,
      createdAt: options.createdAt,
    },
  };
}
