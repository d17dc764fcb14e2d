// The Ed25519 keys that sign partner access tokens (spec 5.2: EdDSA, key id `hub-oauth-ed25519`).
// From OAUTH_SIGNING_KEY when configured; otherwise generated once and kept in the database so every app
// process signs with the same key. Keys retired by a rotation stay in the JWKS for two token lifetimes.
// The first key has the spec's kid; a key rotated in gets `hub-oauth-ed25519-<sortable id>`. Kids must differ:
// standard verifiers (jose among them) refuse to choose between two keys with the same kid.
import { createPrivateKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { createLocalJWKSet, type JWK, type JWTVerifyGetKey } from "jose";
import { clock } from "../clock";
import { db } from "../db";
import { config } from "../env";
import { newId } from "../ids";

export const SIGNING_KEY_ID = "hub-oauth-ed25519";
export const ACCESS_TOKEN_LIFETIME_SECONDS = 3600;
const RETIRED_KEY_LISTED_FOR_MS = 2 * ACCESS_TOKEN_LIFETIME_SECONDS * 1000;

export interface SigningKeySet {
  signingKey: KeyObject;
  signingKid: string;
  /** Public keys for the JWKS document. */
  publicJwks: JWK[];
  /** Resolves the verification key(s) for a token header. */
  verificationKeys: JWTVerifyGetKey;
}

function publicPart(jwk: JWK, kid: string): JWK {
  return { kty: "OKP", crv: "Ed25519", x: jwk.x, kid, alg: "EdDSA", use: "sig" };
}

function generateJwkPair(kid: string): { kid: string; privateJwk: JWK; publicJwk: JWK } {
  const { privateKey } = generateKeyPairSync("ed25519");
  const privateJwk = { ...(privateKey.export({ format: "jwk" }) as JWK), kid };
  return { kid, privateJwk, publicJwk: publicPart(privateJwk, kid) };
}

async function loadFromDatabase(): Promise<{ privateJwk: JWK; previous: JWK[] }> {
  const database = db();
  let active = await database.oAuthSigningKey.findUnique({ where: { activeSlot: "current" } });
  if (!active) {
    const { kid, privateJwk, publicJwk } = generateJwkPair(SIGNING_KEY_ID);
    // Two processes may race to create the first key: the unique slot lets exactly one win.
    await database.oAuthSigningKey.createMany({
      data: [{ id: newId("signingKey"), kid, publicJwk, privateJwk, activeSlot: "current", createdAt: clock.now() }],
      skipDuplicates: true,
    });
    active = await database.oAuthSigningKey.findUniqueOrThrow({ where: { activeSlot: "current" } });
  }
  const retired = await database.oAuthSigningKey.findMany({
    where: { status: "retired", retiredAt: { gt: new Date(clock.now().getTime() - RETIRED_KEY_LISTED_FOR_MS) } },
    orderBy: { retiredAt: "desc" },
  });
  return { privateJwk: active.privateJwk as JWK, previous: retired.map((key) => key.publicJwk as JWK) };
}

async function loadKeySet(): Promise<SigningKeySet> {
  const configured = config().OAUTH_SIGNING_KEY;
  const { privateJwk, previous } = configured
    ? { privateJwk: configured as JWK, previous: (config().OAUTH_PREVIOUS_SIGNING_KEYS ?? []) as JWK[] }
    : await loadFromDatabase();
  const signingKid = privateJwk.kid ?? SIGNING_KEY_ID;
  const publicJwks = [
    publicPart(privateJwk, signingKid),
    ...previous.map((jwk, index) => publicPart(jwk, jwk.kid ?? `${SIGNING_KEY_ID}-previous-${index + 1}`)),
  ];
  return {
    signingKey: createPrivateKey({ key: privateJwk as never, format: "jwk" }),
    signingKid,
    publicJwks,
    verificationKeys: createLocalJWKSet({ keys: publicJwks }),
  };
}

let cached: Promise<SigningKeySet> | undefined;

/** The key set, loaded once per process (keys are parsed once, never per request). */
export function signingKeys(): Promise<SigningKeySet> {
  cached ??= loadKeySet().catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}

export function forgetSigningKeys(): void {
  cached = undefined;
}

/** Retires the database key and starts signing with a new one; the old one stays in the JWKS for a while. */
export async function rotateSigningKey(): Promise<void> {
  const now = clock.now();
  const id = newId("signingKey");
  const { kid, privateJwk, publicJwk } = generateJwkPair(`${SIGNING_KEY_ID}-${id.slice(id.indexOf("_") + 1)}`);
  await db().$transaction([
    db().oAuthSigningKey.updateMany({ where: { activeSlot: "current" }, data: { activeSlot: null, status: "retired", retiredAt: now } }),
    db().oAuthSigningKey.create({ data: { id, kid, publicJwk, privateJwk, activeSlot: "current", createdAt: now } }),
  ]);
  forgetSigningKeys();
}
