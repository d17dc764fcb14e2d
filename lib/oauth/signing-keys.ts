// The Ed25519 keys that sign partner access tokens (spec 5.2: EdDSA, key id `hub-oauth-ed25519`).
// From OAUTH_SIGNING_KEY when configured; otherwise generated once and kept in the database so every app
// process signs with the same key, sealed under OAUTH_KEY_ENCRYPTION_KEY (lib/oauth/sealed-keys.ts; in
// production one of the two is required). Keys retired by a rotation stay in the JWKS for two token lifetimes.
// A rotation reaches every process as it commits (the change feed), so none needs a restart.
// The first key has the spec's kid; a key rotated in gets `hub-oauth-ed25519-<sortable id>`. Kids must differ:
// standard verifiers (jose among them) refuse to choose between two keys with the same kid.
import { createPrivateKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { createLocalJWKSet, type JWK, type JWTVerifyGetKey } from "jose";
import { changeFeed } from "../change-feed";
import { clock } from "../clock";
import { db } from "../db";
import { config } from "../env";
import { Prisma, type OAuthSigningKey } from "../generated/prisma/client";
import { newId } from "../ids";
import { openSealedJwk, sealPrivateJwk } from "./sealed-keys";

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

type StoredKey = Pick<OAuthSigningKey, "id" | "kid" | "privateJwk" | "sealedPrivateJwk">;

/** How a new key's private part is stored: sealed when an encryption key is configured. */
function privatePartToStore(jwk: JWK, kid: string): { privateJwk?: JWK; sealedPrivateJwk?: string } {
  const encryptionKey = config().OAUTH_KEY_ENCRYPTION_KEY;
  return encryptionKey ? { sealedPrivateJwk: sealPrivateJwk(jwk, kid, encryptionKey) } : { privateJwk: jwk };
}

/** A stored key's private JWK. One kept in the clear is sealed in place once an encryption key is configured. */
async function openStoredKey(key: StoredKey): Promise<JWK> {
  const encryptionKey = config().OAUTH_KEY_ENCRYPTION_KEY;
  if (key.sealedPrivateJwk) {
    if (!encryptionKey) throw new Error(`The signing key ${key.kid} is sealed: set OAUTH_KEY_ENCRYPTION_KEY to the key that sealed it`);
    return openSealedJwk(key.sealedPrivateJwk, key.kid, encryptionKey);
  }
  const jwk = key.privateJwk as JWK;
  if (encryptionKey) {
    await db().oAuthSigningKey.update({ where: { id: key.id }, data: { sealedPrivateJwk: sealPrivateJwk(jwk, key.kid, encryptionKey), privateJwk: Prisma.DbNull } });
  }
  return jwk;
}

async function loadFromDatabase(): Promise<{ privateJwk: JWK; previous: JWK[] }> {
  if (config().NODE_ENV === "production" && !config().OAUTH_KEY_ENCRYPTION_KEY) {
    throw new Error("In production the token-signing key may not rest in the database unencrypted: set OAUTH_KEY_ENCRYPTION_KEY or OAUTH_SIGNING_KEY");
  }
  const database = db();
  let active = await database.oAuthSigningKey.findUnique({ where: { activeSlot: "current" } });
  if (!active) {
    const { kid, privateJwk, publicJwk } = generateJwkPair(SIGNING_KEY_ID);
    // Two processes may race to create the first key: the unique slot lets exactly one win.
    await database.oAuthSigningKey.createMany({
      data: [{ id: newId("signingKey"), kid, publicJwk, ...privatePartToStore(privateJwk, kid), activeSlot: "current", createdAt: clock.now() }],
      skipDuplicates: true,
    });
    active = await database.oAuthSigningKey.findUniqueOrThrow({ where: { activeSlot: "current" } });
  }
  const retired = await database.oAuthSigningKey.findMany({
    where: { status: "retired", retiredAt: { gt: new Date(clock.now().getTime() - RETIRED_KEY_LISTED_FOR_MS) } },
    orderBy: { retiredAt: "desc" },
  });
  return { privateJwk: await openStoredKey(active), previous: retired.map((key) => key.publicJwk as JWK) };
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

/** While changes to the keys cannot be heard (the change feed is down), a loaded set is trusted this long. */
const UNHEARD_SET_TRUSTED_MS = 5_000;

let cached: { keySet: Promise<SigningKeySet>; loadedAt: number } | undefined;
let listeningForChanges = false;

/**
 * The key set, parsed once and kept until the keys change (never per request). A database-held set is dropped
 * whenever a key row changes, in any process; a configured key changes only with the configuration.
 */
export function signingKeys(): Promise<SigningKeySet> {
  const fromDatabase = config().OAUTH_SIGNING_KEY === undefined;
  if (fromDatabase && !listeningForChanges) {
    changeFeed().subscribe("oauth_signing_keys", forgetSigningKeys);
    listeningForChanges = true;
  }
  const trusted = !fromDatabase || changeFeed().isListening() || (cached !== undefined && performance.now() - cached.loadedAt < UNHEARD_SET_TRUSTED_MS);
  if (cached && trusted) return cached.keySet;
  const keySet = loadKeySet().catch((error: unknown) => {
    if (cached?.keySet === keySet) cached = undefined;
    throw error;
  });
  cached = { keySet, loadedAt: performance.now() };
  return keySet;
}

export function forgetSigningKeys(): void {
  cached = undefined;
}

/** Retires the database key and starts signing with a new one; the old one stays in the JWKS for a while. */
export async function rotateSigningKey(): Promise<void> {
  if (!config().OAUTH_KEY_ENCRYPTION_KEY && (await db().oAuthSigningKey.count({ where: { sealedPrivateJwk: { not: null } } })) > 0) {
    // Run without the encryption key (an admin shell, say), a rotation would put the new key in the clear.
    throw new Error("The signing keys are sealed: set OAUTH_KEY_ENCRYPTION_KEY to rotate them");
  }
  const now = clock.now();
  const id = newId("signingKey");
  const { kid, privateJwk, publicJwk } = generateJwkPair(`${SIGNING_KEY_ID}-${id.slice(id.indexOf("_") + 1)}`);
  await db().$transaction([
    db().oAuthSigningKey.updateMany({ where: { activeSlot: "current" }, data: { activeSlot: null, status: "retired", retiredAt: now } }),
    db().oAuthSigningKey.create({ data: { id, kid, publicJwk, ...privatePartToStore(privateJwk, kid), activeSlot: "current", createdAt: now } }),
  ]);
  forgetSigningKeys();
}
