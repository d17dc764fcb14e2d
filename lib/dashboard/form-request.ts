// What a dashboard form handler hands its form function besides the form (the member the route builder
// authenticated: lib/http/auth-kinds.ts, `dashboard_member`), and how it answers: a 303 the browser follows, never cached.
import { config } from "../env";
import type { DashboardMember } from "./access";
import type { DashboardParams } from "./schemas";

/** A form post, once its CSRF token and its member are checked: who posted it, where, and whether over HTTPS. */
export interface FormPost<F> {
  member: DashboardMember;
  params: DashboardParams;
  form: F;
  secure: boolean;
}

export interface AfterPost {
  location: string;
  setCookie?: string;
}

/** Whether the post came over HTTPS, so the cookies its answer sets are `Secure`. */
export function postedFrom(request: Request): { secure: boolean } {
  return { secure: new URL(request.url).protocol === "https:" || config().BASE_URL.startsWith("https:") };
}

export function seeOther({ location, setCookie }: AfterPost): Response {
  const headers = new Headers({ location, "cache-control": "no-store" });
  if (setCookie) headers.set("set-cookie", setCookie);
  return new Response(null, { status: 303, headers });
}
