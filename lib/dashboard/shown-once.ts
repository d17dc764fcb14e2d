// A new key's secret is shown once (spec 3.6, docs/dashboard.md): the form's handler answers 303 back to the keys
// page with the secret sealed in a cookie (AES-256-GCM under a key derived from the app's auth secret, HttpOnly,
// SameSite=Strict, a minute at most, for the member who made it). The proxy expires the cookie on the very next
// page view that carries it (proxy.ts), so that view shows the secret and a reload does not.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { z } from "zod";
import { clock } from "../clock";
import { appAuthSecret } from "../oidc/keys";
import { requestString } from "../wire/request-string";

import { SHOWN_ONCE_COOKIE, SHOWN_ONCE_PATH } from "./shown-once-cookie";

export { SHOWN_ONCE_COOKIE } from "./shown-once-cookie";
const LIFETIME_MS = 60_000;

const shownOnceSchema = z.strictObject({
  kind: z.enum(["created", "rolled"]),
  userId: requestString(),
  projectId: requestString(),
  environment: z.enum(["sandbox", "live"]),
  keyId: requestString(),
  secret: requestString(),
  predecessorId: requestString().optional(),
  predecessorExpiresAt: requestString().optional(),
  expiresAt: z.number(),
});

export type ShownOnce = Omit<z.output<typeof shownOnceSchema>, "expiresAt">;

async function sealingKey(): Promise<Buffer> {
  return Buffer.from(hkdfSync("sha256", await appAuthSecret(), "", "dashboard shown-once secret", 32));
}

export async function shownOnceCookie(value: ShownOnce, secure: boolean): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", await sealingKey(), iv);
  const plain = JSON.stringify({ ...value, expiresAt: clock.now().getTime() + LIFETIME_MS });
  const sealed = Buffer.concat([iv, cipher.update(plain, "utf8"), cipher.final(), cipher.getAuthTag()]).toString("base64url");
  return `${SHOWN_ONCE_COOKIE}=${sealed}; Path=${SHOWN_ONCE_PATH}; Max-Age=${LIFETIME_MS / 1000}; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}

/** What the cookie holds, if it is ours, unexpired, and for this member's view of this project and environment. */
export async function openShownOnce(sealed: string | undefined, viewer: { userId: string; projectId: string; environment: string }): Promise<ShownOnce | null> {
  if (!sealed) return null;
  try {
    const bytes = Buffer.from(sealed, "base64url");
    const decipher = createDecipheriv("aes-256-gcm", await sealingKey(), bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    const plain = Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]).toString("utf8");
    const { expiresAt, ...value } = shownOnceSchema.parse(JSON.parse(plain));
    if (expiresAt <= clock.now().getTime()) return null;
    if (value.userId !== viewer.userId || value.projectId !== viewer.projectId || value.environment !== viewer.environment) return null;
    return value;
  } catch {
    return null;
  }
}
