// The demo borrower `npm run dev` seeds beside the demo project: a sandbox user of the sign-in provider whose
// company owns the demo project's funded account (seed-applications.ts, `demo-funded`), so a developer can sign
// in to the borrower area (/account) and see it. Passwords are kept only as hashes, so, like the demo project's
// secrets (seed-demo.ts), the password is kept in a git-ignored file under .data/ to be printed on every start;
// when that file is missing or no longer matches, a new password is set.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { clock } from "../clock";
import type { Database } from "../db";
import { randomToken } from "../ids";
import { hashPassword, passwordMatches } from "../oidc/passwords";
import { createSignInUser } from "../oidc/users";
import { DEMO_FUNDED_COMPANY_NUMBER } from "./seed-applications";

export const DEMO_BORROWER_EMAIL = "borrower@demo.example";

export interface DemoBorrower {
  email: string;
  password: string;
}

function readSaved(file: string): DemoBorrower | null {
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, "utf8")) as DemoBorrower;
  } catch {
    return null;
  }
}

/** The demo borrower's sign-in, created (or its password set anew) when the saved one no longer signs in. */
export async function seedDemoBorrower(database: Database, file: string): Promise<DemoBorrower> {
  const saved = readSaved(file);
  const user = await database.signInUser.findUnique({ where: { email: DEMO_BORROWER_EMAIL } });
  if (user && saved?.email === DEMO_BORROWER_EMAIL && (await passwordMatches(saved.password, user.passwordHash))) return saved;
  const password = randomToken(20);
  if (user) {
    await database.signInUser.update({ where: { id: user.id }, data: { passwordHash: await hashPassword(password), updatedAt: clock.now() } });
  } else {
    const account = await database.account.findFirst({ where: { companyNumber: DEMO_FUNDED_COMPANY_NUMBER, environment: "sandbox" }, select: { companyName: true } });
    await createSignInUser(database, {
      email: DEMO_BORROWER_EMAIL,
      password,
      givenName: "Demo",
      familyName: "Borrower",
      companyNumber: DEMO_FUNDED_COMPANY_NUMBER,
      companyName: account?.companyName,
      companyRole: "director",
      environment: "sandbox",
    });
  }
  const borrower = { email: DEMO_BORROWER_EMAIL, password };
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(borrower, null, 2)}\n`, { mode: 0o600 });
  return borrower;
}
