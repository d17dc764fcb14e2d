// The sign-in provider's scopes and the claims each releases (spec 4.10), and how the consent screen names
// them. Imported by the provider's configuration and by the pages, so it imports nothing.

export const SIGN_IN_SCOPES = ["openid", "profile", "email", "business", "accounts.read"] as const;
export type SignInScope = (typeof SIGN_IN_SCOPES)[number];

export const CLAIMS_BY_SCOPE: Record<SignInScope, readonly string[]> = {
  openid: ["sub"],
  profile: ["name", "given_name", "family_name", "updated_at"],
  email: ["email", "email_verified"],
  business: ["company_number", "company_name", "company_role"],
  "accounts.read": [],
};

/** What a person is asked to allow, in plain English, per scope. */
export const SCOPE_DESCRIPTIONS: Record<SignInScope, string> = {
  openid: "Know who you are when you sign in",
  profile: "See your name",
  email: "See your email address",
  business: "See your company's name and number, and your role in it",
  "accounts.read": "See your business loan accounts",
};

/** The scopes that let a sign-in access token call the partner API on its person's behalf. */
export const PERSON_SCOPES = ["accounts.read"] as const satisfies readonly SignInScope[];
export type PersonScope = (typeof PERSON_SCOPES)[number];

export function isSignInScope(value: string): value is SignInScope {
  return (SIGN_IN_SCOPES as readonly string[]).includes(value);
}
