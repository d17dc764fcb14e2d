// A value a dashboard form's 303 hands to the one page view that follows it (a new secret, a refused form's
// answers): sealed with AES-256-GCM under a key derived from the app's auth secret, one key per purpose, dated so
// that it lasts a minute at most, and opened only for the member who posted, in that project and environment.
// The proxy expires such cookies on the next page view (proxy.ts), so a reload shows nothing.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { z } from "zod";
import { clock } from "../clock";
import { appAuthSecret } from "../oidc/keys";
import { requestString } from "../wire/request-string";
import { ONE_VIEW_COOKIE_PATH } from "./shown-once-cookie";

const LIFETIME_MS = 60_000;

/** Whose view a sealed value is for. */
export type SealedFor = {
  userId: string;
  projectId: string;
  environment: "sandbox" | "live";
};

const sealedForSchema = { userId: requestString(), projectId: requestString(), environment: z.enum(["sandbox", "live"]), expiresAt: z.number() };

async function sealingKey(purpose: string): Promise<Buffer> {
  return Buffer.from(hkdfSync("sha256", await appAuthSecret(), "", purpose, 32));
}

/** The `Set-Cookie` value carrying `value` sealed under `purpose`'s key, for `viewer`. */
export async function sealedCookie(name: string, purpose: string, value: SealedFor & Record<string, unknown>, secure: boolean): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", await sealingKey(purpose), iv);
  const plain = JSON.stringify({ ...value, expiresAt: clock.now().getTime() + LIFETIME_MS });
  const sealed = Buffer.concat([iv, cipher.update(plain, "utf8"), cipher.final(), cipher.getAuthTag()]).toString("base64url");
  return `${name}=${sealed}; Path=${ONE_VIEW_COOKIE_PATH}; Max-Age=${LIFETIME_MS / 1000}; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}

/** What the cookie holds, if it is ours (`shape` and `purpose`), unexpired, and for this member's view; else null. */
export async function openSealedCookie<S extends z.ZodRawShape>(
  sealed: string | undefined,
  purpose: string,
  shape: S,
  viewer: { userId: string; projectId: string; environment: string },
): Promise<(SealedFor & z.output<z.ZodObject<S>>) | null> {
  if (!sealed) return null;
  try {
    const bytes = Buffer.from(sealed, "base64url");
    const decipher = createDecipheriv("aes-256-gcm", await sealingKey(purpose), bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    const plain = Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]).toString("utf8");
    const { expiresAt, userId, projectId, environment, ...value } = z.strictObject({ ...sealedForSchema, ...shape }).parse(JSON.parse(plain)) as Record<string, unknown> & SealedFor & { expiresAt: number };
    if (expiresAt <= clock.now().getTime()) return null;
    if (userId !== viewer.userId || projectId !== viewer.projectId || environment !== viewer.environment) return null;
    return { userId, projectId, environment, ...value } as unknown as SealedFor & z.output<z.ZodObject<S>>;
  } catch {
    return null;
  }
}
