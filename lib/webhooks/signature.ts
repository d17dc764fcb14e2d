// Webhook signatures (spec 6.3): `Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`,
// with one `v1` per secret that currently signs (two while a rolled secret overlaps its successor).
//
// Consumers verify with `verifyWebhookSignature` (or the same steps in any language): take the raw request
// bytes (never re-serialised JSON), recompute the HMAC for `t`, compare in constant time against every `v1`,
// and refuse a `t` more than five minutes from now.
import { createHmac, timingSafeEqual } from "node:crypto";
import { clock } from "../clock";

export const SIGNATURE_HEADER = "Service-Signature";
export const SIGNATURE_TOLERANCE_SECONDS = 300;

function hmacHex(secret: string, timestamp: number, payload: string | Uint8Array): string {
  const hmac = createHmac("sha256", secret);
  hmac.update(`${timestamp}.`);
  hmac.update(payload);
  return hmac.digest("hex");
}

/** The header value for `payload` signed at `timestamp` (unix seconds) with each of `secrets`. */
export function signWebhookPayload(payload: string | Uint8Array, secrets: readonly string[], timestamp: number): string {
  if (secrets.length === 0) throw new Error("at least one secret is needed to sign");
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${hmacHex(secret, timestamp, payload)}`)].join(",");
}

export class WebhookSignatureError extends Error {
  override name = "WebhookSignatureError";
  /** The catalogue code a receiving endpoint answers with (spec 7.3), status 400. */
  readonly code: "webhook_signature_missing" | "webhook_signature_invalid";

  constructor(code: WebhookSignatureError["code"], message: string) {
    super(message);
    this.code = code;
  }
}

export interface VerifyOptions {
  /** The raw request body, exactly as received. */
  payload: string | Uint8Array;
  /** The Service-Signature header value (null or undefined when absent). */
  header: string | null | undefined;
  /** The endpoint's `whsec_` secret. */
  secret: string;
  toleranceSeconds?: number;
  /** Unix seconds; defaults to the platform clock (lib/clock.ts). */
  now?: number;
}

/**
 * Verifies a delivery and returns the parsed event. Throws `WebhookSignatureError`: `webhook_signature_missing`
 * without a usable header, `webhook_signature_invalid` when no `v1` matches or `t` is outside the tolerance.
 */
export function verifyWebhookSignature<T = unknown>({ payload, header, secret, toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS, now = Math.floor(clock.now().getTime() / 1000) }: VerifyOptions): T {
  if (!header) throw new WebhookSignatureError("webhook_signature_missing", `No ${SIGNATURE_HEADER} header.`);
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const separator = part.indexOf("=");
    const [name, value] = [part.slice(0, separator).trim(), part.slice(separator + 1).trim()];
    if (name === "t" && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (name === "v1" && /^[0-9a-f]{64}$/.test(value)) signatures.push(value);
  }
  if (timestamp === undefined || signatures.length === 0) {
    throw new WebhookSignatureError("webhook_signature_missing", `The ${SIGNATURE_HEADER} header has no timestamp or no v1 signature.`);
  }
  if (Math.abs(now - timestamp) > toleranceSeconds) {
    throw new WebhookSignatureError("webhook_signature_invalid", "The signature timestamp is outside the tolerance.");
  }
  const expected = Buffer.from(hmacHex(secret, timestamp, payload), "hex");
  // Every candidate is compared, in constant time each, so timing reveals nothing about which one matched.
  const matched = signatures.reduce((found, signature) => timingSafeEqual(Buffer.from(signature, "hex"), expected) || found, false);
  if (!matched) throw new WebhookSignatureError("webhook_signature_invalid", "No signature matches the payload.");
  const text = typeof payload === "string" ? payload : new TextDecoder().decode(payload);
  return JSON.parse(text) as T;
}
