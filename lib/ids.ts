// Prefixed identifiers (spec 2.1). The body is a ULID in lower-case Crockford base32: 10 characters of
// millisecond time then 16 of randomness, so ids sort by creation time and cursors are stable.
import { randomBytes, randomFillSync } from "node:crypto";
import { clock } from "./clock";

export const ID_PREFIXES = {
  project: "proj",
  apiKey: "key",
  oauthClient: "svc_client",
  application: "app",
  decision: "dec",
  account: "acc",
  subAccount: "sub",
  introduction: "intro",
  payout: "po",
  transaction: "txn",
  payment: "pay",
  webhookEndpoint: "whe",
  event: "evt",
  correlation: "cor",
  request: "req",
  user: "usr",
  signingKey: "sigkey",
  idempotencyKey: "idem",
  webhookDelivery: "whd",
  webhookAttempt: "wha",
  notification: "ntf",
  biller: "bil",
  supportSession: "sess",
  consentSnapshot: "cns",
  enquiry: "enq",
  /** Identity checks (spec 2.9 names the object only as `verification`; the prefix is ours). */
  identityCheck: "idv",
  mcpToolCall: "mcpc",
  /** An applicant's consent (spec 2.9 names the `consent` object only; `cns` is a cookie-consent snapshot's). */
  applicationConsent: "consent",
  /** Open-banking turnover recorded for an application's affordability (ours). */
  affordabilityRecord: "aff",
  /** A relying party of the sign-in provider (ours; the partner plane's OAuth clients are `svc_client_`). */
  signInClient: "sso_client",
  /** An entry of a project's dashboard audit log (ours). */
  auditEntry: "aud",
  /** An owner's invitation to join a project's team (ours). */
  teamInvitation: "inv",
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
const TIME_LENGTH = 10;
const RANDOM_LENGTH = 16;
const BODY_PATTERN = new RegExp(`^[${ALPHABET}]{${TIME_LENGTH + RANDOM_LENGTH}}$`);

let lastTime = -1;
let lastRandom: number[] = [];

function encodeTime(milliseconds: number): string {
  let remaining = milliseconds;
  let out = "";
  for (let index = 0; index < TIME_LENGTH; index += 1) {
    out = ALPHABET[remaining % 32] + out;
    remaining = Math.floor(remaining / 32);
  }
  return out;
}

// Random bytes are drawn from the system in blocks: one call per id cost more than the rest of making it.
const randomBlock = Buffer.alloc(4096);
let randomOffset = randomBlock.length;

function freshRandom(): number[] {
  if (randomOffset + RANDOM_LENGTH > randomBlock.length) {
    randomFillSync(randomBlock);
    randomOffset = 0;
  }
  const digits = Array.from(randomBlock.subarray(randomOffset, randomOffset + RANDOM_LENGTH), (byte) => byte % 32);
  randomOffset += RANDOM_LENGTH;
  return digits;
}

/** Increments the random part so ids made within one millisecond still sort in creation order. */
function incremented(digits: number[]): number[] {
  const next = [...digits];
  for (let index = next.length - 1; index >= 0; index -= 1) {
    if (next[index]! < 31) {
      next[index]! += 1;
      return next;
    }
    next[index] = 0;
  }
  return freshRandom();
}

function ulid(): string {
  // Never go backwards, even when a test moves the clock back: sort order is creation order.
  const now = Math.max(clock.now().getTime(), lastTime);
  lastRandom = now === lastTime ? incremented(lastRandom) : freshRandom();
  lastTime = now;
  return encodeTime(now) + lastRandom.map((digit) => ALPHABET[digit]).join("");
}

export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${ulid()}`;
}

/** True when `value` is a well-formed id of `kind` (prefix and body). */
export function isIdOf(kind: IdKind, value: string): boolean {
  const prefix = `${ID_PREFIXES[kind]}_`;
  return value.startsWith(prefix) && BODY_PATTERN.test(value.slice(prefix.length));
}

/** Random token in base62, for secrets: `length` characters carry ~5.95 bits each. */
export function randomToken(length: number): string {
  const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // Rejection sampling keeps every character equally likely.
      if (byte < 248 && out.length < length) out += base62[byte % 62];
    }
  }
  return out;
}
