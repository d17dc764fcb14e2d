// OAUTH_SIGNING_KEY and OAUTH_PREVIOUS_SIGNING_KEYS: the configured key signs, and retired keys are listed.
import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { decodeProtectedHeader, jwtVerify, type JWK } from "jose";
import { ConfigError, parseConfig } from "@/lib/env";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { createTestProject, mintToken } from "../../helpers/partner";

const current = generateKeyPairSync("ed25519");
const previous = generateKeyPairSync("ed25519");
const currentPrivate = current.privateKey.export({ format: "jwk" }) as JWK;
const previousPublic = previous.publicKey.export({ format: "jwk" }) as JWK;

let server: AppServer;
beforeAll(async () => {
  server = await startAppServer();
  process.env.HUB_URL = server.url;
  process.env.OAUTH_SIGNING_KEY = JSON.stringify(currentPrivate);
  process.env.OAUTH_PREVIOUS_SIGNING_KEYS = JSON.stringify([previousPublic]);
});
afterAll(() => server?.close());

it("signs with the configured key and lists the previous one", async () => {
  const { keys } = await (await fetch(`${server.url}/oauth/jwks`)).json();
  expect(keys.map((key: JWK) => key.x)).toEqual([currentPrivate.x, previousPublic.x]);
  expect(JSON.stringify(keys)).not.toContain(currentPrivate.d);

  const token = await mintToken(server.url, await createTestProject());
  expect(decodeProtectedHeader(token).kid).toBe("hub-oauth-ed25519");
  await expect(jwtVerify(token, current.publicKey)).resolves.toBeTruthy();
});

it("refuses a signing key that is not a private Ed25519 JWK, naming the variable", () => {
  expect(() => parseConfig({ OAUTH_SIGNING_KEY: JSON.stringify(previousPublic) })).toThrow(/OAUTH_SIGNING_KEY: must be a private key/);
  expect(() => parseConfig({ OAUTH_SIGNING_KEY: "{not json" })).toThrow(ConfigError);
  expect(() => parseConfig({ OAUTH_SIGNING_KEY: JSON.stringify({ kty: "RSA", n: "x", e: "AQAB", d: "y" }) })).toThrow(/OAUTH_SIGNING_KEY/);
});
