// The person a request's next-auth session names (app/_auth/people-sign-in.ts), for the dashboard's form handlers:
// the session cookie opened with next-auth's own decoder (no Next request context needed, so the handlers run the
// same under Next and the tests' server), and its access token checked as the pages check it (lib/oidc/people.ts),
// so a token that expired or was revoked is no sign-in.
import { decode } from "next-auth/jwt";
import { appAuthSecret } from "@/lib/oidc/keys";
import { personOfAccessToken } from "@/lib/oidc/people";
import { requestCookie } from "@/lib/wire/request-cookie";

/** next-auth's cookie, on HTTP and (with its `__Secure-` prefix) on HTTPS. */
export const SESSION_COOKIES = ["__Secure-authjs.session-token", "authjs.session-token"] as const;

export async function signedInUserIdOf(request: Request): Promise<string | null> {
  const header = request.headers.get("cookie");
  for (const name of SESSION_COOKIES) {
    const token = requestCookie(header, name);
    if (!token) continue;
    const session = await decode({ token, secret: await appAuthSecret(), salt: name }).catch(() => null);
    const accessToken = typeof session?.accessToken === "string" ? session.accessToken : null;
    const person = accessToken ? await personOfAccessToken(accessToken) : null;
    return person?.userId ?? null;
  }
  return null;
}

/** The signed-in person's user id for a page (server component), through next-auth's own session reader. */
export async function signedInUserIdOfPage(): Promise<string | null> {
  const { auth } = await import("./people-sign-in");
  const session = await auth();
  const person = session?.accessToken ? await personOfAccessToken(session.accessToken) : null;
  return person?.userId ?? null;
}
