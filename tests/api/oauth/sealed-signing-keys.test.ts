// Token-signing keys kept in the database rest sealed under OAUTH_KEY_ENCRYPTION_KEY (one kept in the clear is
// sealed the first time it is loaded), `npm start` refuses to run with neither that nor OAUTH_SIGNING_KEY, and a
// rotation committed by another process reaches this one without a restart.
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { decodeProtectedHeader, type JWK } from "jose";
import { db } from "@/lib/db";
import * as env from "@/lib/env";
import { assertProductionConfig, ConfigError, parseConfig } from "@/lib/env";
import { openSealedJwk, sealPrivateJwk } from "@/lib/oauth/sealed-keys";
import { rotateSigningKey } from "@/lib/oauth/signing-keys";
import { newId } from "@/lib/ids";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { eventually } from "../../helpers/eventually";
import { createTestProject, mintToken } from "../../helpers/partner";

const encryptionKey = randomBytes(32).toString("base64");
const keptInTheClear = { ...(generateKeyPairSync("ed25519").privateKey.export({ format: "jwk" }) as JWK), kid: "hub-oauth-ed25519" };

let server: AppServer;
let project: ProjectCredentials;
beforeAll(async () => {
  process.env.OAUTH_KEY_ENCRYPTION_KEY = encryptionKey;
  // A key an earlier version stored in the clear.
  await db().oAuthSigningKey.create({
    data: { id: newId("signingKey"), kid: keptInTheClear.kid!, publicJwk: { ...keptInTheClear, d: undefined }, privateJwk: keptInTheClear, activeSlot: "current", createdAt: new Date() },
  });
  server = await startAppServer();
  process.env.HUB_URL = server.url;
  project = await createTestProject();
});
afterAll(() => server?.close());

const storedKeys = () => db().$queryRaw<{ kid: string; private_jwk: unknown; sealed_private_jwk: string | null; active_slot: string | null }[]>`
  SELECT kid, private_jwk, sealed_private_jwk, active_slot FROM oauth_signing_keys ORDER BY created_at`;
const jwks = async (): Promise<JWK[]> => (await (await fetch(`${server.url}/partner/v1/oauth/jwks`)).json()).keys;

describe("keys in the database", () => {
  it("seals a key kept in the clear the first time it is loaded, and goes on signing with it", async () => {
    const token = await mintToken(server.url, project, { secret: project.sandbox.secret_key });
    expect(decodeProtectedHeader(token).kid).toBe("hub-oauth-ed25519");
    const [stored] = await storedKeys();
    expect(stored!.private_jwk).toBeNull();
    expect(stored!.sealed_private_jwk).toMatch(/^v1\./);
    expect(stored!.sealed_private_jwk).not.toContain(keptInTheClear.d);
    expect(openSealedJwk(stored!.sealed_private_jwk!, stored!.kid, encryptionKey)).toEqual(keptInTheClear);
  });

  it("seals the keys it generates", async () => {
    await rotateSigningKey();
    const stored = await storedKeys();
    expect(stored).toHaveLength(2);
    expect(stored.map((key) => [key.private_jwk, key.sealed_private_jwk?.slice(0, 3)])).toEqual([[null, "v1."], [null, "v1."]]);
  });

  it("picks up a rotation another process commits, without a restart", async () => {
    await jwks(); // this process has its key set loaded
    const rotated = { ...(generateKeyPairSync("ed25519").privateKey.export({ format: "jwk" }) as JWK), kid: "hub-oauth-ed25519-elsewhere" };
    await db().$transaction([
      db().oAuthSigningKey.updateMany({ where: { activeSlot: "current" }, data: { activeSlot: null, status: "retired", retiredAt: new Date() } }),
      db().oAuthSigningKey.create({
        data: { id: newId("signingKey"), kid: rotated.kid!, publicJwk: { ...rotated, d: undefined }, sealedPrivateJwk: sealPrivateJwk(rotated, rotated.kid!, encryptionKey), activeSlot: "current", createdAt: new Date() },
      }),
    ]);
    await eventually(async () => (await jwks())[0]?.kid, (kid) => kid === "hub-oauth-ed25519-elsewhere");
    const token = await mintToken(server.url, project, { secret: project.sandbox.secret_key });
    expect(decodeProtectedHeader(token).kid).toBe("hub-oauth-ed25519-elsewhere");
  });
});

describe("a rotation without the encryption key", () => {
  it("is refused once the keys are sealed, rather than storing a new key in the clear", async () => {
    // The configuration of a process started without the encryption key (an admin shell, say).
    const read = vi.spyOn(env, "config").mockReturnValue({ ...env.config(), OAUTH_KEY_ENCRYPTION_KEY: undefined });
    try {
      await expect(rotateSigningKey()).rejects.toThrow("The signing keys are sealed: set OAUTH_KEY_ENCRYPTION_KEY to rotate them");
    } finally {
      read.mockRestore();
    }
    expect((await storedKeys()).every((key) => key.private_jwk === null)).toBe(true);
  });
});

describe("sealing", () => {
  it("opens only with the encryption key that sealed it, and only for its own kid", () => {
    const jwk = generateKeyPairSync("ed25519").privateKey.export({ format: "jwk" }) as JWK;
    const sealed = sealPrivateJwk(jwk, "kid-a", encryptionKey);
    expect(openSealedJwk(sealed, "kid-a", encryptionKey)).toEqual(jwk);
    expect(() => openSealedJwk(sealed, "kid-a", randomBytes(32).toString("base64"))).toThrow("The signing key kid-a does not open with OAUTH_KEY_ENCRYPTION_KEY");
    expect(() => openSealedJwk(sealed, "kid-b", encryptionKey)).toThrow("does not open");
  });
});

describe("npm start's configuration", () => {
  it("requires OAUTH_SIGNING_KEY or OAUTH_KEY_ENCRYPTION_KEY, naming both", () => {
    expect(() => assertProductionConfig(parseConfig({}))).toThrow(ConfigError);
    expect(() => assertProductionConfig(parseConfig({}))).toThrow(/OAUTH_SIGNING_KEY or OAUTH_KEY_ENCRYPTION_KEY must be set/);
    expect(() => assertProductionConfig(parseConfig({ OAUTH_KEY_ENCRYPTION_KEY: encryptionKey, AUTH_SECRET: "a".repeat(32) }))).not.toThrow();
    expect(() => assertProductionConfig(parseConfig({ OAUTH_SIGNING_KEY: JSON.stringify(keptInTheClear), AUTH_SECRET: "a".repeat(32) }))).not.toThrow();
    expect(() => parseConfig({ OAUTH_KEY_ENCRYPTION_KEY: "short" })).toThrow(/OAUTH_KEY_ENCRYPTION_KEY: must be 32 bytes/);
  });
});
