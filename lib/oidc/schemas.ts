// The sign-in provider's inputs: the admin's (a user, a client) and a person's (the sign-in and consent forms).
// Strict objects: an unknown field is refused.
import { z } from "zod";
import { requestString } from "../wire/request-string";

const uri = requestString()
  .pipe(z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }))
  .refine((value) => !value.includes("#"), "must not have a fragment");

export const createSignInClientInputSchema = z.strictObject({
  name: requestString().trim().min(1, "must not be empty").max(100),
  redirectUris: z.array(uri).min(1, "at least one is required"),
  postLogoutRedirectUris: z.array(uri).default([]),
  public: z.boolean().default(false),
});
export type CreateSignInClientInput = z.input<typeof createSignInClientInputSchema>;

const optionalText = requestString().trim().min(1).max(200).optional();

export const createSignInUserInputSchema = z.strictObject({
  email: requestString().max(254).pipe(z.email("must be an email address")).transform((email) => email.toLowerCase()),
  password: requestString().min(12, "must be at least 12 characters").max(256),
  givenName: requestString().trim().min(1, "must not be empty").max(100),
  familyName: requestString().trim().min(1, "must not be empty").max(100),
  companyNumber: requestString().trim().regex(/^[A-Z0-9]{8}$/i, "must be an 8-character Companies House number").transform((value) => value.toUpperCase()).optional(),
  companyName: optionalText,
  companyRole: optionalText,
  /** A sandbox user reads the sandbox's accounts through the accounts API; everyone else the live ones. */
  environment: z.enum(["sandbox", "live"]).default("live"),
});
export type CreateSignInUserInput = z.input<typeof createSignInUserInputSchema>;

/** The sign-in form's fields (app/sso/interaction/[uid]/page.tsx). */
export const signInFormSchema = z.strictObject({
  email: requestString().trim().max(254),
  password: requestString().max(256),
});

/** The consent screen's buttons. */
export const consentFormSchema = z.strictObject({
  decision: z.enum(["allow", "deny"]),
});
