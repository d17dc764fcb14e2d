// The sign-in provider's pages in Chromium behind the production server (docs/sign-in.md): a relying party (a
// tiny node:http server on 127.0.0.1, registered with the admin CLI) sends a person to /sso/authorize; they sign
// in (a wrong password first), allow the consent, and land back on the relying party's callback with a code that
// openid-client exchanges for an ID token naming them. Both pages pass axe on a desktop and a phone, and no
// Content-Security-Policy violation happens on the way, the redirect to the other origin included.
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import * as client from "openid-client";
import { watchPolicyViolations } from "./page-policy";
import { seriousViolations } from "./accessibility";
import { cliJson } from "./cli-project";

const PASSWORD = "a long enough passphrase";

/** A relying party's callback: answers a small page and remembers the addresses it was called at. */
async function startRelyingParty() {
  const calls: string[] = [];
  const server = http.createServer((request, response) => {
    calls.push(request.url ?? "/");
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end('<!doctype html><html lang="en"><title>Relying party</title><h1>Back at the service</h1></html>');
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { calls, callback: `${origin}/callback`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
];

for (const viewport of VIEWPORTS) {
  test(`a person signs in, allows the service and is back at its callback, accessibly, on a ${viewport.name}`, async ({ browser, baseURL }) => {
    const rp = await startRelyingParty();
    const registered = await cliJson("oidc-client", "create", "--name", "Example Accounting", "--redirect-uri", rp.callback);
    const email = `e2e.${viewport.name}.${Date.now()}@example.test`;
    const user = await cliJson("user", "create", "--email", email, "--password", PASSWORD, "--name", "Ada Lovelace", "--company-number", "01234567", "--company-name", "Analytical Engines Ltd", "--company-role", "director");

    const issuer = new URL(`${baseURL}/sso`);
    const configuration = await client.discovery(issuer, registered.client_id!, { id_token_signed_response_alg: "ES256" }, client.ClientSecretBasic(registered.client_secret!), {
      execute: [client.allowInsecureRequests],
    });
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const authorizationUrl = client.buildAuthorizationUrl(configuration, {
      redirect_uri: rp.callback,
      scope: "openid profile email business",
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      nonce,
    });

    const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
    const page = await context.newPage();
    const policyViolations = watchPolicyViolations(page);
    await page.goto(authorizationUrl.href);
    await expect(page).toHaveURL(/\/sso\/interaction\/[^/]+$/);
    await expect(page).toHaveTitle("Sign in · Lending Platform");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in");
    await expect(page.getByText("to continue to Example Accounting")).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: `test-results/sign-in-form-${viewport.name}.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);

    // A wrong password: the form again, with an error summary that does not say which of the two was wrong.
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveTitle("Error: Sign in · Lending Platform");
    await expect(page.getByRole("alert", { name: "There is a problem" })).toContainText("The email address or password is not right");
    await page.screenshot({ path: `test-results/sign-in-error-${viewport.name}.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();

    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Allow Example Accounting to access your details?");
    await expect(page).toHaveTitle("Allow access to your details · Lending Platform");
    await expect(page.getByRole("listitem")).toHaveText([
      "Know who you are when you sign in",
      "See your name",
      "See your email address",
      "See your company's name and number, and your role in it",
    ]);
    await expect(page.getByRole("button", { name: "Deny" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: `test-results/sign-in-consent-${viewport.name}.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "Allow" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Back at the service");
    const callback = new URL(page.url());
    expect(`${callback.origin}${callback.pathname}`).toBe(rp.callback);
    expect(rp.calls.filter((call) => call.startsWith("/callback"))).toHaveLength(1);
    expect(callback.searchParams.get("iss")).toBe(issuer.href);

    const tokens = await client.authorizationCodeGrant(configuration, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
    expect(tokens.claims()).toMatchObject({ sub: user.id, email, name: "Ada Lovelace", company_name: "Analytical Engines Ltd" });
    expect(policyViolations).toEqual([]);
    await context.close();
    await rp.close();
  });
}
