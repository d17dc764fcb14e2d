// The demo borrower `npm run dev` prints (lib/seed/seed-borrower.ts): a sandbox user of the sign-in provider whose
// company is the demo funded account's, whose password, kept only as a hash, is saved to a file to print on every
// start, and set anew when the saved one no longer signs in.
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { authenticateSignInUser } from "@/lib/oidc/users";
import { DEMO_FUNDED_COMPANY_NUMBER } from "@/lib/seed/seed-applications";
import { DEMO_BORROWER_EMAIL, seedDemoBorrower } from "@/lib/seed/seed-borrower";

describe("seedDemoBorrower", () => {
  it("creates the sandbox borrower once, keeps its password in a private file, and sets a new one when the file is stale", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "demo-borrower-")), "demo-borrower.json");
    const first = await seedDemoBorrower(db(), file);
    expect(first.email).toBe(DEMO_BORROWER_EMAIL);
    expect(first.password).toMatch(/^[0-9A-Za-z]{20}$/);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const user = await db().signInUser.findUniqueOrThrow({ where: { email: DEMO_BORROWER_EMAIL } });
    expect(user).toMatchObject({ companyNumber: DEMO_FUNDED_COMPANY_NUMBER, environment: "sandbox" });
    expect(user.passwordHash).not.toContain(first.password);
    expect(await authenticateSignInUser(DEMO_BORROWER_EMAIL, first.password)).toBe(user.id);

    expect(await seedDemoBorrower(db(), file)).toEqual(first);

    writeFileSync(file, JSON.stringify({ email: DEMO_BORROWER_EMAIL, password: "not the password at all" }));
    const renewed = await seedDemoBorrower(db(), file);
    expect(renewed.password).not.toBe(first.password);
    expect(await authenticateSignInUser(DEMO_BORROWER_EMAIL, renewed.password)).toBe(user.id);
    expect(await authenticateSignInUser(DEMO_BORROWER_EMAIL, first.password)).toBeNull();
    expect(await db().signInUser.count({ where: { email: DEMO_BORROWER_EMAIL } })).toBe(1);
  });
});
