// The person a request's next-auth session names (app/_auth/people-sign-in.ts: the app signed in through its own
// provider as the client of app-client.ts), for the dashboard's form posts: the session cookie opened with
// next-auth's own decoder (no Next request context needed, so the route builder reads it the same under Next and
// the tests' server), and its access token checked as the pages check it (people.ts), so a token that expired or
// was revoked is no sign-in.
import { decode } from "next-auth/jwt";
import { requestCookie } from "../wire/request-cookie";
import { appAuthSecret } from "./keys";
import { personOfAccessToken } from "./people";

/** next-auth's cookie, on HTTP and (with its `__Secure-` prefix) on HTTPS. */
const SESSION_COOKIES = ["__Secure-authjs.session-token", "authjs.session-token"] as const;

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
