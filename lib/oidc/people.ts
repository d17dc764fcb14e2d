// A person as the APIs and pages they call see them: whoever a sign-in access token names, with the scopes it
// carries and the accounts it may read (an account holder: their company, their environment). The accounts API
// (lib/http/auth.ts) and the borrower area (app/(account)) both read a person through here.
import type { AccountHolder } from "../tenant";
import { findSignInAccessToken } from "./artifacts";
import { findSignInUser } from "./users";

export interface SignedInPerson {
  userId: string;
  clientId: string;
  scopes: ReadonlySet<string>;
  /** Whose accounts they read: their company's, in their environment. */
  holder: AccountHolder;
}

/**
 * The person a sign-in access token names, or null: unknown, expired, its grant revoked (a revoked grant's tokens
 * are deleted), or its user gone.
 */
export async function personOfAccessToken(token: string): Promise<SignedInPerson | null> {
  const issued = await findSignInAccessToken(token);
  const user = issued ? await findSignInUser(issued.userId) : null;
  if (!issued || !user) return null;
  return {
    userId: user.id,
    clientId: issued.clientId,
    scopes: new Set(issued.scopes),
    holder: { companyNumber: user.companyNumber, environment: user.environment },
  };
}
