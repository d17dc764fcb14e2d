// What a dashboard form handler reads from its request besides the form, the check every post passes first (the
// page's CSRF token), and how it answers: a 303 the browser follows, never cached.
import { config } from "../env";
import { assertFormFromOurSite, csrfCookieOf } from "../wire/csrf";
import type { DashboardParams } from "./schemas";

/** What a form post brings besides its fields: who posted it and how (the request's cookie, origin and host). */
export interface FormPost<F> {
  userId: string | null;
  params: DashboardParams;
  form: F;
  cookieToken: string | null;
  origin: string | null;
  host: string | null;
  secure: boolean;
}

export interface AfterPost {
  location: string;
  setCookie?: string;
}

export function assertFromOurPage(post: FormPost<{ csrf_token: string }>): void {
  assertFormFromOurSite({ formToken: post.form.csrf_token, cookieToken: post.cookieToken, origin: post.origin, host: post.host });
}

export function postedFrom(request: Request) {
  return {
    cookieToken: csrfCookieOf(request),
    origin: request.headers.get("origin"),
    host: request.headers.get("host"),
    secure: new URL(request.url).protocol === "https:" || config().BASE_URL.startsWith("https:"),
  };
}

export function seeOther({ location, setCookie }: AfterPost): Response {
  const headers = new Headers({ location, "cache-control": "no-store" });
  if (setCookie) headers.set("set-cookie", setCookie);
  return new Response(null, { status: 303, headers });
}
