// The signed-in person on the app's pages; a form post's is read by the route builder (lib/oidc/app-session.ts).
import { personOfAccessToken } from "@/lib/oidc/people";

/** The signed-in person's user id for a page (server component), through next-auth's own session reader. */
export async function signedInUserIdOfPage(): Promise<string | null> {
  const { auth } = await import("./people-sign-in");
  const session = await auth();
  const person = session?.accessToken ? await personOfAccessToken(session.accessToken) : null;
  return person?.userId ?? null;
}
