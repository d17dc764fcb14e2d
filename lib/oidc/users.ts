// The people who sign in at the sign-in provider, and the claims each scope releases about them (spec 4.10).
import { clock } from "../clock";
import { db, transact, type Database } from "../db";
import { ApiError } from "../errors";
import type { SignInUser } from "../generated/prisma/client";
import { newId } from "../ids";
import { acceptInvitations } from "../team/invitations";
import { decoyPasswordHash, hashPassword, passwordMatches } from "./passwords";
import { createSignInUserInputSchema, type CreateSignInUserInput } from "./schemas";

export async function createSignInUser(database: Database, input: CreateSignInUserInput): Promise<{ id: string }> {
  const parsed = createSignInUserInputSchema.parse(input);
  const now = clock.now();
  const passwordHash = await hashPassword(parsed.password);
  // With the teams that invited the address (lib/team/invitations.ts), in one transaction.
  return transact(async (transaction) => {
    const created = await transaction.signInUser.createMany({
      data: [
        {
          id: newId("user"),
          email: parsed.email,
          passwordHash,
          givenName: parsed.givenName,
          familyName: parsed.familyName,
          companyNumber: parsed.companyNumber ?? null,
          companyName: parsed.companyName ?? null,
          companyRole: parsed.companyRole ?? null,
          environment: parsed.environment,
          createdAt: now,
          updatedAt: now,
        },
      ],
      skipDuplicates: true,
    });
    // The address is personal data: the message does not repeat it.
    if (created.count === 0) throw new ApiError("conflict", { message: "A user with this email address already exists." });
    const user = await transaction.signInUser.findUniqueOrThrow({ where: { email: parsed.email }, select: { id: true } });
    await acceptInvitations(transaction, { id: user.id, email: parsed.email });
    return { id: user.id };
  }, database);
}

/**
 * The user whose email and password these are, or null. An unknown email costs the same scrypt work as a wrong
 * password, so timing does not tell which of the two was wrong.
 */
export async function authenticateSignInUser(email: string, password: string): Promise<string | null> {
  const user = await db().signInUser.findUnique({ where: { email: email.trim().toLowerCase() }, select: { id: true, passwordHash: true } });
  const matches = await passwordMatches(password, user?.passwordHash ?? (await decoyPasswordHash()));
  return user && matches ? user.id : null;
}

export function findSignInUser(id: string): Promise<SignInUser | null> {
  return db().signInUser.findUnique({ where: { id } });
}

/** Every claim the user has; the provider releases those of the granted scopes only. */
export function userClaims(user: SignInUser): Record<string, unknown> {
  return {
    sub: user.id,
    name: `${user.givenName} ${user.familyName}`,
    given_name: user.givenName,
    family_name: user.familyName,
    updated_at: Math.floor(user.updatedAt.getTime() / 1000),
    email: user.email,
    // Users are created by an operator who has checked the address; there is no self-service sign-up yet.
    email_verified: true,
    ...(user.companyNumber ? { company_number: user.companyNumber } : {}),
    ...(user.companyName ? { company_name: user.companyName } : {}),
    ...(user.companyRole ? { company_role: user.companyRole } : {}),
  };
}
