// The sign-in provider's keys: ES256 (the default ID-token algorithm, spec 4.10) and RS256 (offered to clients
// that cannot verify ES256), and the secret that signs its cookies. Generated once and kept in the database so
// every app process signs alike, sealed under OAUTH_KEY_ENCRYPTION_KEY when it is set, as the partner server's
// key is (lib/oauth/signing-keys.ts). Cookie secrets may instead come from SSO_COOKIE_KEYS.
import { generateKeyPairSync, randomBytes } from "node:crypto";
import type { JWK } from "jose";
import { clock } from "../clock";
import { db } from "../db";
import { config } from "../env";
import { newId } from "../ids";
import { openSealedJwk, sealPrivateJwk } from "../oauth/sealed-keys";

type KeyPurpose = "id-token-es256" | "id-token-rs256" | "cookies" | "app-auth";

function generate(purpose: KeyPurpose): { kid: string; jwk: JWK } {
  const id = newId("signingKey");
  const kid = `sso-${purpose.replace("id-token-", "")}-${id.slice(id.indexOf("_") + 1)}`;
  if (purpose === "cookies" || purpose === "app-auth") return { kid, jwk: { kty: "oct", k: randomBytes(32).toString("base64url"), kid } };
  const { privateKey } =
    purpose === "id-token-es256" ? generateKeyPairSync("ec", { namedCurve: "P-256" }) : generateKeyPairSync("rsa", { modulusLength: 2048 });
  const alg = purpose === "id-token-es256" ? "ES256" : "RS256";
  return { kid, jwk: { ...(privateKey.export({ format: "jwk" }) as JWK), kid, alg, use: "sig" } };
}

/** The key kept for `purpose`, made on first use; two processes racing to make it agree on the one stored. */
async function storedKey(purpose: KeyPurpose): Promise<JWK> {
  const encryptionKey = config().OAUTH_KEY_ENCRYPTION_KEY;
  if (config().NODE_ENV === "production" && !encryptionKey) {
    throw new Error("In production the sign-in provider's keys may not rest in the database unencrypted: set OAUTH_KEY_ENCRYPTION_KEY");
  }
  let row = await db().oidcKey.findUnique({ where: { purpose } });
  if (!row) {
    const { kid, jwk } = generate(purpose);
    await db().oidcKey.createMany({
      data: [{ purpose, kid, ...(encryptionKey ? { sealedPrivateJwk: sealPrivateJwk(jwk, kid, encryptionKey) } : { privateJwk: jwk }), createdAt: clock.now() }],
      skipDuplicates: true,
    });
    row = await db().oidcKey.findUniqueOrThrow({ where: { purpose } });
  }
  if (row.sealedPrivateJwk) {
    if (!encryptionKey) throw new Error(`The sign-in key ${row.kid} is sealed: set OAUTH_KEY_ENCRYPTION_KEY to the key that sealed it`);
    return openSealedJwk(row.sealedPrivateJwk, row.kid, encryptionKey);
  }
  return row.privateJwk as JWK;
}

export interface SignInProviderKeys {
  /** Private JWKs, ES256 first: the provider signs with the first key of a client's algorithm. */
  signingJwks: JWK[];
  cookieKeys: string[];
}

export async function loadSignInProviderKeys(): Promise<SignInProviderKeys> {
  const [es256, rs256] = await Promise.all([storedKey("id-token-es256"), storedKey("id-token-rs256")]);
  const configured = config().SSO_COOKIE_KEYS;
  const cookieKeys = configured ?? [(await storedKey("cookies")).k!];
  return { signingJwks: [es256, rs256], cookieKeys };
}

/**
 * The app's own auth secret (next-auth's, and the root of its client secret at this provider): AUTH_SECRET, which
 * npm start requires; unset in development, one generated once and kept beside the provider's keys.
 */
export async function appAuthSecret(): Promise<string> {
  return config().AUTH_SECRET ?? (await storedKey("app-auth")).k!;
}
