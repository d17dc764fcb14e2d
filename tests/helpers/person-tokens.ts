// Sign-in access tokens for tests of the APIs a person calls: a real user signs in at the real provider on the
// tests' server, and openid-client (a strict relying party) exchanges the code, as a partner's app would.
import * as client from "openid-client";
import type { CreateSignInUserInput } from "@/lib/oidc/schemas";
import { authorizationStart, createTestClient, createTestUser, newBrowser, signInAndAllow } from "./sign-in";

export interface SignedInPersonTokens {
  userId: string;
  accessToken: string;
  idToken: string;
  refreshToken: string;
  configuration: client.Configuration;
}

/** A user (`user` overrides the test user's fields) signed in with `scope`, and the tokens the exchange gave. */
export async function signInPerson(ssoUrl: string, user: Partial<CreateSignInUserInput> = {}, scope = "openid profile email business accounts.read"): Promise<SignedInPersonTokens> {
  const registered = await createTestClient();
  const configuration = await client.discovery(new URL(ssoUrl), registered.client_id, { id_token_signed_response_alg: "ES256" }, client.ClientSecretBasic(registered.client_secret!), {
    execute: [client.allowInsecureRequests],
  });
  const person = await createTestUser(user);
  const start = await authorizationStart(configuration, scope);
  const callback = await signInAndAllow(newBrowser(), start, ssoUrl, person.email);
  const tokens = await client.authorizationCodeGrant(configuration, callback, { pkceCodeVerifier: start.verifier, expectedState: start.state, expectedNonce: start.nonce });
  return { userId: person.id, accessToken: tokens.access_token, idToken: tokens.id_token!, refreshToken: tokens.refresh_token!, configuration };
}
