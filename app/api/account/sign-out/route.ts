// POST /api/account/sign-out — the borrower area's Sign out button: ends the next-auth session here, then sends the
// browser (303) to the provider's end-session endpoint, which ends the person's session there and returns them to
// /account/signed-out. next-auth glue, like /api/auth/*, so not built by defineRoute.
import { NextResponse } from "next/server";

export async function POST(): Promise<Response> {
  const { signOut } = await import("@/app/_auth/people-sign-in");
  const { appSignOutUrl } = await import("@/lib/oidc/app-client");
  await signOut({ redirect: false });
  return NextResponse.redirect(appSignOutUrl(), 303);
}
