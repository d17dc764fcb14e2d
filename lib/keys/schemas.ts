import { z } from "zod";
import { requestString } from "../http/request-string";
import { listQuerySchema } from "../http/pagination";

export const KEY_TYPES = ["secret", "publishable"] as const;
export const KEY_ENVIRONMENTS = ["sandbox", "live"] as const;
export const KEY_STATUSES = ["active", "expired", "revoked"] as const;

export const keyIdParamsSchema = z.strictObject({ id: requestString().startsWith("key_") });

export const listKeysQuerySchema = listQuerySchema({
  type: z.enum(KEY_TYPES).optional(),
  status: z.enum(KEY_STATUSES).optional(),
});

export const createKeyBodySchema = z.strictObject({
  type: z.enum(KEY_TYPES),
  /** Defaults to the token's environment; the other environment is refused (environment_mismatch). */
  environment: z.enum(KEY_ENVIRONMENTS).optional(),
});

export const rollKeyBodySchema = z
  .strictObject({ overlap_hours: z.number().int().min(0).max(168).default(24) })
  .default({ overlap_hours: 24 });
