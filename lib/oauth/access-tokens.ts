// Partner access tokens (spec 5.2): EdDSA JWTs (RFC 9068 `at+jwt`), verified locally with no database round
// trip for the token itself.
import { sign } from "node:crypto";
import { errors as joseErrors, jwtVerify } from "jose";
import { z } from "zod";
import { clock } from "../clock";
import { config } from "../env";
import { randomToken } from "../ids";
import { ACCESS_TOKEN_LIFETIME_SECONDS, signingKeys } from "./signing-keys";
import type { TenantEnvironment } from "../tenant";

export const PARTNER_AUDIENCE = "partner/v1";
export const INTERNAL_AUDIENCE = "internal/v1";
export const AUDIENCES = [PARTNER_AUDIENCE, INTERNAL_AUDIENCE] as const;
export type Audience = (typeof AUDIENCES)[number];

const claimsSchema = z.object({
  iss: z.string(),
  sub: z.string(),
  aud: z.union([z.string(), z.array(z.string())]),
  client_id: z.string(),
  scope: z.string(),
  livemode: z.boolean(),
  iat: z.number().int(),
  exp: z.number().int(),
  jti: z.string(),
});

export type AccessTokenClaims = z.infer<typeof claimsSchema>;

export interface MintedToken {
  accessToken: string;
  expiresIn: number;
  claims: AccessTokenClaims;
}

export async function mintAccessToken(options: {
  projectId: string;
  clientId: string;
  environment: TenantEnvironment;
  scopes: readonly string[];
  audience: Audience;
}): Promise<MintedToken> {
  const { signingKey, signingKid } = await signingKeys();
  const issuedAt = Math.floor(clock.now().getTime() / 1000);
  const claims: AccessTokenClaims = {
    iss: config().HUB_URL,
    sub: options.projectId,
    aud: options.audience,
    client_id: options.clientId,
    scope: options.scopes.join(" "),
    livemode: options.environment === "live",
    iat: issuedAt,
    exp: issuedAt + ACCESS_TOKEN_LIFETIME_SECONDS,
    jti: randomToken(24),
  };
  const signingInput = `${base64url(JSON.stringify({ alg: "EdDSA", kid: signingKid, typ: "at+jwt" }))}.${base64url(JSON.stringify(claims))}`;
  // Signed with node:crypto directly: jose signs through WebCrypto, whose EdDSA runs as a thread-pool job and
  // cost several times the synchronous signature on the token endpoint (docs/performance.md). Verification
  // stays with jose.
  const accessToken = `${signingInput}.${sign(null, Buffer.from(signingInput), signingKey).toString("base64url")}`;
  return { accessToken, expiresIn: ACCESS_TOKEN_LIFETIME_SECONDS, claims };
}

function base64url(text: string): string {
  return Buffer.from(text).toString("base64url");
}

/** The access token a bearer-authenticated caller sent: what it carries beyond the tenant. */
export interface BearerToken {
  scopes: ReadonlySet<string>;
  clientId: string;
  /** The token's `jti`. */
  tokenId: string;
}

export type TokenRejection = "expired" | "wrong_audience" | "invalid";

export class TokenRejectedError extends Error {
  override name = "TokenRejectedError";
  constructor(readonly reason: TokenRejection) {
    super(`access token rejected: ${reason}`);
  }
}

/**
 * Verifies signature (EdDSA only: `none`, HS256 and every other algorithm are refused), issuer, audience,
 * expiry and type, then the claim shapes. Throws TokenRejectedError.
 */
// Tokens already verified by this process, by their exact text: a partner sends the same token on every call
// for up to an hour, and checking its signature each time is most of the cost of authenticating. An entry is
// used only while the token is unexpired by the platform clock; revocation and suspension are checked by the
// caller on every request regardless.
const VERIFIED_CACHE_LIMIT = 10_000;
const verified = new Map<string, AccessTokenClaims>();

export async function verifyAccessToken(token: string, audience: Audience = PARTNER_AUDIENCE): Promise<AccessTokenClaims> {
  const cacheKey = `${audience}\u0000${token}`;
  const known = verified.get(cacheKey);
  if (known) {
    const now = Math.floor(clock.now().getTime() / 1000);
    if (known.exp > now && known.iat <= now + 60) return known;
    verified.delete(cacheKey);
  }
  const claims = await verifySignedToken(token, audience);
  if (verified.size >= VERIFIED_CACHE_LIMIT) verified.clear();
  verified.set(cacheKey, claims);
  return claims;
}

async function verifySignedToken(token: string, audience: Audience): Promise<AccessTokenClaims> {
  const { verificationKeys } = await signingKeys();
  let payload: unknown;
  try {
    ({ payload } = await jwtVerify(token, verificationKeys, {
      algorithms: ["EdDSA"],
      issuer: config().HUB_URL,
      audience,
      typ: "at+jwt",
      currentDate: clock.now(),
      requiredClaims: ["iss", "sub", "aud", "exp", "iat", "jti"],
    }));
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw new TokenRejectedError("expired");
    if (error instanceof joseErrors.JWTClaimValidationFailed && error.claim === "aud") throw new TokenRejectedError("wrong_audience");
    throw new TokenRejectedError("invalid");
  }
  const parsed = claimsSchema.safeParse(payload);
  if (!parsed.success) throw new TokenRejectedError("invalid");
  return parsed.data;
}
