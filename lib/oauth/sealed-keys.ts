// Private signing keys at rest: sealed with AES-256-GCM under OAUTH_KEY_ENCRYPTION_KEY before they reach the
// database. A sealed key reads `v1.<iv>.<tag>.<ciphertext>` (base64url); the kid is bound to it as additional
// data, so a sealed key copied onto another row does not open.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { JWK } from "jose";

const VERSION = "v1";

export function sealPrivateJwk(jwk: JWK, kid: string, encryptionKey: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", Buffer.from(encryptionKey, "base64"), iv);
  cipher.setAAD(Buffer.from(kid));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(jwk), "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
}

export function openSealedJwk(sealed: string, kid: string, encryptionKey: string): JWK {
  const [version, iv, tag, ciphertext] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || !ciphertext) throw new Error(`The sealed signing key ${kid} is not in a form this version reads`);
  const decipher = createDecipheriv("aes-256-gcm", Buffer.from(encryptionKey, "base64"), Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(kid));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  try {
    return JSON.parse(Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8")) as JWK;
  } catch {
    throw new Error(`The signing key ${kid} does not open with OAUTH_KEY_ENCRYPTION_KEY (a different key sealed it)`);
  }
}
