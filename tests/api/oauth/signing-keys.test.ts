// Rotating the database-held signing key: tokens signed before keep verifying while the retired key is
// listed; new tokens are signed with the new key, under its own kid so standard verifiers can choose.
import { createPublicKey } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JWK } from "jose";
import { freezeClock } from "@/lib/clock";
import { rotateSigningKey, signingKeys } from "@/lib/oauth/signing-keys";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { bearer, createTestProject, mintToken } from "../../helpers/partner";

let server: AppServer;
let project: ProjectCredentials;

beforeAll(async () => {
  server = await startAppServer();
  process.env.HUB_URL = server.url;
  project = await createTestProject();
});
afterAll(() => server?.close());

const jwks = async (): Promise<JWK[]> => (await (await fetch(`${server.url}/partner/v1/oauth/jwks`)).json()).keys;
const verifiesWith = async (token: string, jwk: JWK) =>
  jwtVerify(token, createPublicKey({ key: jwk as never, format: "jwk" })).then(() => true, () => false);

it("keeps old tokens valid across a rotation and signs new ones with the new key", async () => {
  const before = await mintToken(server.url, project);
  const previouslyListed = await jwks();
  const oldKey = previouslyListed[0];
  await rotateSigningKey();
  const listed = await jwks();
  expect(listed).toHaveLength(previouslyListed.length + 1);
  expect(listed[0]!.kid).toMatch(/^hub-oauth-ed25519-[0-9a-z]{26}$/);
  expect(listed[1]).toEqual(oldKey);

  const after = await mintToken(server.url, project);
  expect(decodeProtectedHeader(after).kid).toBe(listed[0]!.kid);
  expect(await verifiesWith(after, listed[0]!)).toBe(true);
  expect(await verifiesWith(after, oldKey!)).toBe(false);
  // A standard verifier holding the published set accepts both tokens.
  const published = createLocalJWKSet({ keys: listed });
  await expect(jwtVerify(before, published)).resolves.toBeTruthy();
  await expect(jwtVerify(after, published)).resolves.toBeTruthy();
  expect((await fetch(`${server.url}/partner/v1/keys`, bearer(before))).status).toBe(200);
  expect((await fetch(`${server.url}/partner/v1/keys`, bearer(after))).status).toBe(200);
});

it("drops a retired key from the JWKS two hours after its retirement", async () => {
  const clock = freezeClock(new Date());
  await rotateSigningKey();
  const [early] = await jwks();
  await rotateSigningKey();
  expect((await jwks()).map((key) => key.kid)).toContain(early!.kid);

  clock.advance(2 * 3600_000 + 60_000);
  const [justRetired] = await jwks();
  await rotateSigningKey();
  const kids = (await signingKeys()).publicJwks.map((key) => key.kid);
  expect(kids).not.toContain(early!.kid);
  expect(kids).toContain(justRetired!.kid);
});
