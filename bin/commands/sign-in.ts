// The sign-in provider's admin commands (docs/sign-in.md): register a relying party, create a person who signs in.
import { z } from "zod";
import { createSignInClient } from "../../lib/oidc/clients";
import { createSignInClientInputSchema, createSignInUserInputSchema } from "../../lib/oidc/schemas";
import { createSignInUser } from "../../lib/oidc/users";
import { parseFlags, type Command } from "../cli-kit";

const clientFlags = z.object({
  name: createSignInClientInputSchema.shape.name,
  "redirect-uri": createSignInClientInputSchema.shape.redirectUris,
  "post-logout-redirect-uri": createSignInClientInputSchema.shape.postLogoutRedirectUris,
  public: z.boolean().default(false),
});

export const oidcClientCreate: Command = {
  words: ["oidc-client", "create"],
  synopsis: "--name NAME --redirect-uri URI [--redirect-uri URI]... [--post-logout-redirect-uri URI]... [--public] [--json]",
  description: "Register a relying party of the sign-in provider; its client_secret (none for --public) is shown once.",
  options: {
    name: { type: "string", value: "NAME", description: "The service's name, shown on the consent screen." },
    "redirect-uri": { type: "string", value: "URI", multiple: true, description: "Where codes are sent back, matched exactly; repeatable." },
    "post-logout-redirect-uri": { type: "string", value: "URI", multiple: true, description: "Where sign-out may return to; repeatable." },
    public: { type: "boolean", description: "A browser or native app: no secret, PKCE alone (token_endpoint_auth_method none)." },
  },
  async run({ values, database, print }) {
    const flags = parseFlags(clientFlags, { ...values, "redirect-uri": values["redirect-uri"] ?? [], "post-logout-redirect-uri": values["post-logout-redirect-uri"] ?? [] });
    const created = await createSignInClient(await database(), {
      name: flags.name,
      redirectUris: flags["redirect-uri"],
      postLogoutRedirectUris: flags["post-logout-redirect-uri"],
      public: flags.public,
    });
    const lines = [`Registered ${flags.name}`, `  client_id      ${created.client_id}`];
    if (created.client_secret) lines.push(`  client_secret  ${created.client_secret}`, "The secret is shown once; store it now.");
    else lines.push("  public client: no secret, PKCE (S256) alone.");
    print(lines.join("\n"), created);
  },
};

const userFlags = z.object({
  email: createSignInUserInputSchema.shape.email,
  password: createSignInUserInputSchema.shape.password,
  name: z.string({ error: "is required" }).trim().regex(/^\S+\s+\S/, 'must be a given and a family name ("Ada Lovelace")'),
  "company-number": createSignInUserInputSchema.shape.companyNumber,
  "company-name": createSignInUserInputSchema.shape.companyName,
  "company-role": createSignInUserInputSchema.shape.companyRole,
  sandbox: z.boolean().default(false),
});

export const userCreate: Command = {
  words: ["user", "create"],
  synopsis: '--email EMAIL --password PASSWORD --name "GIVEN FAMILY" [--company-number N --company-name NAME --company-role ROLE] [--sandbox] [--json]',
  description: "Create a person who signs in at the sign-in provider; prints the user id (usr_…), never the password.",
  options: {
    email: { type: "string", value: "EMAIL", description: "Their email address (one user per address, whatever its case)." },
    password: { type: "string", value: "PASSWORD", description: "At least 12 characters; stored only as a salted scrypt hash." },
    name: { type: "string", value: '"GIVEN FAMILY"', description: "Given name, then family name (the last word)." },
    "company-number": { type: "string", value: "N", description: "Companies House number (the business scope's company_number)." },
    "company-name": { type: "string", value: "NAME", description: "Company name (company_name)." },
    "company-role": { type: "string", value: "ROLE", description: "Their role in the company, e.g. director (company_role)." },
    sandbox: { type: "boolean", description: "Reads the sandbox's accounts through the accounts API (default: the live ones)." },
  },
  async run({ values, database, print }) {
    const flags = parseFlags(userFlags, values);
    const words = flags.name.split(/\s+/);
    const familyName = words.pop()!;
    const { id } = await createSignInUser(await database(), {
      email: flags.email,
      password: flags.password,
      givenName: words.join(" "),
      familyName,
      companyNumber: flags["company-number"],
      companyName: flags["company-name"],
      companyRole: flags["company-role"],
      environment: flags.sandbox ? "sandbox" : "live",
    });
    print(`Created user ${id}`, { id });
  },
};
