// The app as a client of its own sign-in provider (docs/sign-in.md): the borrower area (app/(account)) signs people
// in through it with next-auth, as any relying party would. Registered on every start (an upsert, so a changed
// BASE_URL or secret takes effect), confidential, with a secret derived from the app's auth secret so nothing
// needs storing or showing: only its hash is kept, as for every client.
import { createHmac } from "node:crypto";
import { z } from "zod";
import { clock } from "../clock";
import { db } from "../db";
import { config } from "../env";
import { hashSecret } from "../keys/secrets";
import { requestString } from "../wire/request-string";
import { appAuthSecret } from "./keys";

export const APP_SIGN_IN_CLIENT_ID = "sso_client_lending_platform";
// One name for both of the app's signed-in areas (the borrower area and the partner dashboard): the consent screen shows it.
export const APP_SIGN_IN_CLIENT_NAME = "Lending Platform";

/** The scopes the borrower area asks for: who the person is, their company, and reading its accounts. */
export const APP_SIGN_IN_SCOPES = "openid profile email business accounts.read";

/** The borrower area's sign-in page's address: next-auth sends a failed sign-in there with its `error` (a word). */
export const appSignInPageQuerySchema = z.strictObject({ error: requestString().regex(/^[A-Za-z]{1,40}$/) });

/** The provider id next-auth knows our provider by: it names the callback path. */
export const APP_SIGN_IN_PROVIDER_ID = "sso";

export function appSignInUrls(baseUrl = config().BASE_URL) {
  return {
    callback: `${baseUrl}/api/auth/callback/${APP_SIGN_IN_PROVIDER_ID}`,
    signedOut: `${baseUrl}/account/signed-out`,
  };
}

/** The app's client secret: a keyed hash of its auth secret, so it changes whenever that secret does. */
export async function appSignInClientSecret(authSecret?: string): Promise<string> {
  return `sso_secret_${createHmac("sha256", authSecret ?? (await appAuthSecret())).update("sign-in client secret").digest("base64url")}`;
}

export async function registerAppSignInClient(): Promise<void> {
  const urls = appSignInUrls();
  const fields = {
    name: APP_SIGN_IN_CLIENT_NAME,
    secretHash: hashSecret(await appSignInClientSecret()),
    redirectUris: [urls.callback],
    postLogoutRedirectUris: [urls.signedOut],
    public: false,
    disabled: false,
  };
  await db().oidcClient.upsert({ where: { id: APP_SIGN_IN_CLIENT_ID }, create: { id: APP_SIGN_IN_CLIENT_ID, ...fields, createdAt: clock.now() }, update: fields });
}

/**
 * Where the borrower area sends a person once their session here has ended: the provider's end-session endpoint,
 * which ends theirs there too and returns them to the signed-out page.
 */
export function appSignOutUrl(): string {
  const query = new URLSearchParams({ client_id: APP_SIGN_IN_CLIENT_ID, post_logout_redirect_uri: appSignInUrls().signedOut });
  return `${config().SSO_URL}/session/end?${query}`;
}

// A path of the app's own signed-in pages, nothing else: never another origin, a scheme, `//` or `..`.
const RETURN_PATH = /^\/(?:account|dashboard)(?:\/[A-Za-z0-9_-]+)*$/;

/** Where a finished sign-in returns the person: the page they asked for (the borrower area's or the dashboard's), else /account. */
export function appSignInReturnPath(requested: unknown): string {
  return typeof requested === "string" && requested.length <= 200 && RETURN_PATH.test(requested) ? requested : "/account";
}
