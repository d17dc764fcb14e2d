// POST /api/account/sign-in — the Sign in button of the borrower area (app/(account)/account/sign-in) and of the
// partner dashboard (app/(dashboard)/dashboard/sign-in): next-auth starts the sign-in at our provider (its PKCE,
// state and nonce cookies) and the browser is sent there with a 303, a full navigation rather than a server
// action's, since the provider's pages are not Next's. The form's `return_to` (a path of those pages only) is where
// the person comes back to. next-auth glue, like /api/auth/*, so not built by defineRoute; loaded on the first
// request for the same reason.
import { NextResponse, type NextRequest } from "next/server";
import { config } from "@/lib/env";
import { appSignInReturnPath } from "@/lib/oidc/app-client";

export async function POST(request: NextRequest): Promise<Response> {
  const returnTo = appSignInReturnPath(await returnToOf(request));
  // The provider returns people to BASE_URL's callback only, where these cookies must be: start there.
  const base = new URL(config().BASE_URL);
  if (request.headers.get("host") !== base.host) return NextResponse.redirect(new URL(returnTo.startsWith("/dashboard") ? "/dashboard/sign-in" : "/account/sign-in", base), 303);
  const { signIn } = await import("@/app/_auth/people-sign-in");
  const { APP_SIGN_IN_PROVIDER_ID } = await import("@/lib/oidc/app-client");
  const authorizationUrl: string = await signIn(APP_SIGN_IN_PROVIDER_ID, { redirect: false, redirectTo: returnTo });
  return NextResponse.redirect(authorizationUrl, 303);
}

async function returnToOf(request: NextRequest): Promise<unknown> {
  try {
    return (await request.formData()).get("return_to");
  } catch {
    return null;
  }
}
