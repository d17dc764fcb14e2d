// What a dashboard form handler reads from its request besides the form, and how it answers: a 303 the browser
// follows, never cached.
import { config } from "../env";
import { csrfCookieOf } from "../wire/csrf";
import type { AfterPost } from "./key-forms";

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
