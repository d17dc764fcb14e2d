// `cli oidc-client create` and `cli user create`: the sign-in provider's relying parties and people.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { signInClientSecretMatches } from "@/lib/oidc/clients";
import { authenticateSignInUser } from "@/lib/oidc/users";
import { runCli } from "../helpers/cli";

describe("oidc-client create", () => {
  it("registers a confidential client and shows its secret once, keeping only a hash", async () => {
    const result = await runCli(
      {},
      "oidc-client", "create", "--name", "Example Accounting",
      "--redirect-uri", "https://rp.example.test/callback", "--redirect-uri", "https://rp.example.test/other",
      "--post-logout-redirect-uri", "https://rp.example.test/bye", "--json",
    );
    expect(result.code).toBe(0);
    const created = JSON.parse(result.stdout);
    expect(created).toEqual({ client_id: expect.stringMatching(/^sso_client_/), client_secret: expect.stringMatching(/^sso_secret_[0-9A-Za-z]{40}$/) });
    const row = await db().oidcClient.findUniqueOrThrow({ where: { id: created.client_id } });
    expect(row).toMatchObject({
      name: "Example Accounting",
      redirectUris: ["https://rp.example.test/callback", "https://rp.example.test/other"],
      postLogoutRedirectUris: ["https://rp.example.test/bye"],
      public: false,
      disabled: false,
    });
    expect(JSON.stringify(row)).not.toContain(created.client_secret);
    expect(await signInClientSecretMatches(created.client_id, created.client_secret)).toBe(true);
    expect(await signInClientSecretMatches(created.client_id, `${created.client_secret}x`)).toBe(false);
  });

  it("registers a public client without a secret", async () => {
    const result = await runCli({}, "oidc-client", "create", "--name", "Phone app", "--redirect-uri", "https://app.example.test/cb", "--public", "--json");
    expect(result.code).toBe(0);
    const created = JSON.parse(result.stdout);
    expect(Object.keys(created)).toEqual(["client_id"]);
    expect((await db().oidcClient.findUniqueOrThrow({ where: { id: created.client_id } })).secretHash).toBeNull();
  });

  it("refuses a missing or non-http redirect URI as a usage error", async () => {
    const missing = await runCli({}, "oidc-client", "create", "--name", "No redirect");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--redirect-uri: at least one is required");
    const bad = await runCli({}, "oidc-client", "create", "--name", "Bad", "--redirect-uri", "javascript:alert(1)");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--redirect-uri");
  });
});

describe("user create", () => {
  it("creates a user with a usr_ id, a lower-cased email and a password that signs in, never echoing it", async () => {
    const password = "a long enough passphrase";
    const result = await runCli(
      {},
      "user", "create", "--email", "Grace.Hopper@Example.TEST", "--password", password, "--name", "Grace Brewster Hopper",
      "--company-number", "sc123456", "--company-name", "Compilers Ltd", "--company-role", "director", "--json",
    );
    expect(result.code).toBe(0);
    expect(result.stdout + result.stderr).not.toContain(password);
    const { id } = JSON.parse(result.stdout);
    expect(id).toMatch(/^usr_[0-9a-z]{26}$/);
    const user = await db().signInUser.findUniqueOrThrow({ where: { id } });
    expect(user).toMatchObject({ email: "grace.hopper@example.test", givenName: "Grace Brewster", familyName: "Hopper", companyNumber: "SC123456", companyName: "Compilers Ltd", companyRole: "director", environment: "live" });
    expect(user.passwordHash).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await authenticateSignInUser("GRACE.HOPPER@example.test", password)).toBe(id);
    expect(await authenticateSignInUser("grace.hopper@example.test", `${password}!`)).toBeNull();
  });

  it("makes a sandbox user with --sandbox: one who reads the sandbox's accounts", async () => {
    const result = await runCli({}, "user", "create", "--email", "sandbox.person@example.test", "--password", "a long enough passphrase", "--name", "Sandy Box", "--company-number", "12345678", "--sandbox", "--json");
    expect(result.code).toBe(0);
    const { id } = JSON.parse(result.stdout);
    expect(await db().signInUser.findUniqueOrThrow({ where: { id }, select: { environment: true, companyNumber: true } })).toEqual({ environment: "sandbox", companyNumber: "12345678" });
  });

  it("refuses a second user with the same email, whatever its case, without repeating the address", async () => {
    await runCli({}, "user", "create", "--email", "twice@example.test", "--password", "first password here", "--name", "First Person");
    const again = await runCli({}, "user", "create", "--email", "TWICE@example.test", "--password", "second password here", "--name", "Second Person");
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already exists");
    expect(again.stderr).not.toContain("twice@example.test");
    expect(again.stderr + again.stdout).not.toContain("second password here");
  });

  it("refuses a short password and a one-word name as usage errors, without echoing the password", async () => {
    const short = await runCli({}, "user", "create", "--email", "short@example.test", "--password", "tooshort", "--name", "Short Password");
    expect(short.code).toBe(2);
    expect(short.stderr).toContain("--password: must be at least 12 characters");
    expect(short.stderr).not.toContain("tooshort");
    const oneWord = await runCli({}, "user", "create", "--email", "one@example.test", "--password", "long enough password", "--name", "Prince");
    expect(oneWord.code).toBe(2);
    expect(oneWord.stderr).toContain("--name");
  });
});
