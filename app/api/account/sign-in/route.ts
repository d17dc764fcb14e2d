// POST /api/account/sign-in — the borrower area's Sign in button (app/(account)/account/sign-in): next-auth starts
// the sign-in at our provider (its PKCE, state and nonce cookies) and the browser is sent there with a 303, a full
// navigation rather than a server action's, since the provider's pages are not Next's. next-auth glue, like
// /api/auth/*, so not built by defineRoute; loaded on the first request for the same reason.
import { NextResponse, type NextRequest } from "next/server";
import { config } from "@/lib/env";

export async function POST(request: NextRequest): Promise<Response> {
  // The provider returns people to BASE_URL's callback only, where these cookies must be: start there.
  const base = new URL(config().BASE_URL);
  if (request.headers.get("host") !== base.host) return NextResponse.redirect(new URL("/account/sign-in", base), 303);
  const { signIn } = await import("@/app/_auth/borrower-sign-in");
  const { APP_SIGN_IN_PROVIDER_ID } = await import("@/lib/oidc/app-client");
  const authorizationUrl: string = await signIn(APP_SIGN_IN_PROVIDER_ID, { redirect: false, redirectTo: "/account" });
  return NextResponse.redirect(authorizationUrl, 303);
}
