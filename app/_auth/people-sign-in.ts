// next-auth for people signing in to the app's own pages, the borrower area (/account, docs/sign-in.md) and the
// partner dashboard (/dashboard, docs/dashboard.md): one sign-in for both. The app is one of its own
// sign-in provider's clients (lib/oidc/app-client.ts, registered at start) and signs people in through it as a
// generic OpenID Connect provider, with PKCE, state and nonce. The session is next-auth's encrypted cookie; it
// keeps the provider's access token, which the pages present to the same checks as the accounts API
// (lib/oidc/people.ts), so a token that expired or was revoked signs the person out of the pages too.
import NextAuth from "next-auth";
import { config } from "@/lib/env";
import { APP_SIGN_IN_CLIENT_ID, APP_SIGN_IN_PROVIDER_ID, APP_SIGN_IN_SCOPES, appSignInClientSecret } from "@/lib/oidc/app-client";
import { appAuthSecret } from "@/lib/oidc/keys";

declare module "next-auth" {
  interface Session {
    accessToken?: string;
  }
}

declare module "@auth/core/jwt" {
  interface JWT {
    accessToken?: string;
  }
}

export const { handlers, auth, signIn, signOut } = NextAuth(async () => ({
  secret: await appAuthSecret(),
  // The callback's address is the one the person used; BASE_URL's is the one registered, so they must agree.
  trustHost: true,
  basePath: "/api/auth",
  // No longer than the access token it carries lives (spec 5.3: one hour).
  session: { strategy: "jwt", maxAge: 3600 },
  // next-auth's own pages carry none of our headers: ours stand in for them.
  pages: { signIn: "/account/sign-in", error: "/account/sign-in", signOut: "/account" },
  providers: [
    {
      id: APP_SIGN_IN_PROVIDER_ID,
      name: "Lending Platform",
      type: "oidc",
      issuer: config().SSO_URL,
      clientId: APP_SIGN_IN_CLIENT_ID,
      clientSecret: await appSignInClientSecret(),
      checks: ["pkce", "state", "nonce"],
      authorization: { params: { scope: APP_SIGN_IN_SCOPES } },
      // Only what the pages need: the subject. Names and the email stay with the provider.
      profile: (profile) => ({ id: String(profile.sub) }),
    },
  ],
  callbacks: {
    jwt: ({ token, account }) => (account ? { sub: token.sub, accessToken: account.access_token } : token),
    session: ({ session, token }) => ({ ...session, user: { ...session.user, id: token.sub ?? "" }, accessToken: token.accessToken }),
  },
}));
