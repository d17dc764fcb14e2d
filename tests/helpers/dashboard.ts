// The partner dashboard over HTTP, as a browser on its pages drives it: a project's team of real sign-in users (an
// owner, a developer, a viewer, and a stranger in no team), their session cookies, form posts carrying the page's
// CSRF token from our origin, and the one-view cookies their 303s set.
import { encode } from "next-auth/jwt";
import { expect } from "vitest";
import { db } from "@/lib/db";
import { appAuthSecret } from "@/lib/oidc/keys";
import { addMember } from "@/lib/team/service";
import { newCsrfToken } from "@/lib/wire/csrf";
import type { AppServer } from "./app-server";
import { signInPerson } from "./person-tokens";
import { CLIENT_ADDRESS_HEADER } from "./sign-in";

const SESSION_COOKIE = "authjs.session-token";

export type DashboardPerson = "owner" | "developer" | "viewer" | "stranger";
export type DashboardTeam = Record<DashboardPerson, { userId: string; session: string }>;

async function sessionOf(userId: string, accessToken: string): Promise<string> {
  return encode({ token: { sub: userId, accessToken }, secret: await appAuthSecret(), salt: SESSION_COOKIE });
}

/** Points the app at the test server's own sign-in provider and lets each post name its client address. */
export function useServerForDashboard(server: AppServer): void {
  process.env.SSO_URL = `${server.url}/sso`;
  process.env.TRUSTED_PROXY_HEADER = CLIENT_ADDRESS_HEADER;
}

/** Four signed-in people: the project's owner, developer and viewer, and a stranger in no team. */
export async function dashboardTeam(server: AppServer, projectId: string): Promise<DashboardTeam> {
  const people = {} as DashboardTeam;
  for (const role of ["owner", "developer", "viewer", "stranger"] as const) {
    const signedIn = await signInPerson(`${server.url}/sso`, { environment: "sandbox" });
    const user = await db().signInUser.findUniqueOrThrow({ where: { id: signedIn.userId } });
    if (role !== "stranger") await addMember({ projectId, email: user.email, role }, { actorId: "cli" });
    people[role] = { userId: signedIn.userId, session: await sessionOf(signedIn.userId, signedIn.accessToken) };
  }
  return people;
}

export interface PostOptions {
  /** The session cookie's value; null for none. */
  session: string | null;
  csrf?: "match" | "missing" | "different";
  origin?: string;
}

let addresses = 0;

/** A form post as a browser on our page sends it: the session and CSRF cookies, the token in the form, our origin. */
export function postForm(server: AppServer, path: string, fields: Record<string, string>, options: PostOptions): Promise<Response> {
  addresses += 1;
  const token = newCsrfToken();
  const cookies = [`svc_csrf=${token}`];
  if (options.session !== null) cookies.push(`${SESSION_COOKIE}=${options.session}`);
  const csrf = options.csrf ?? "match";
  const form = new URLSearchParams({ ...(csrf === "missing" ? {} : { csrf_token: csrf === "match" ? token : newCsrfToken() }), ...fields });
  return fetch(`${server.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      cookie: cookies.join("; "),
      origin: options.origin ?? server.url,
      [CLIENT_ADDRESS_HEADER]: `10.${80 + Math.floor(addresses / 62_500)}.${Math.floor(addresses / 250) % 250}.${addresses % 250}`,
    },
    body: form.toString(),
  });
}

/** The value of the cookie `name` a response sets, checked to be a one-view cookie of the dashboard's. */
export function oneViewCookieOf(response: Response, name: string): string {
  const setCookie = response.headers.get("set-cookie") ?? "";
  expect(setCookie).toMatch(new RegExp(`^${name}=[A-Za-z0-9_-]+; Path=/dashboard; Max-Age=60; HttpOnly; SameSite=Strict$`));
  return setCookie.split(";")[0]!.split("=")[1]!;
}
