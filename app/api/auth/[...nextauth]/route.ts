// GET, POST /api/auth/* — next-auth's endpoints for the sign-in of the borrower area and the partner dashboard (app/_auth/people-sign-in.ts):
// the provider's callback, the session and next-auth's own redirects. Not a route of the API rings, so not built by
// defineRoute: next-auth answers them. Loaded on the first request, as next-auth runs only inside Next's server (it
// imports Next's own modules), never in the processes that load every route file to list them.
import type { NextRequest } from "next/server";
import { config } from "@/lib/env";

const signIn = () => import("@/app/_auth/people-sign-in");

/**
 * The request as at BASE_URL: next-auth reckons its callback's address from the request's, and the provider takes
 * only the one registered (lib/oidc/app-client.ts), which is BASE_URL's.
 */
function atBaseUrl(request: NextRequest): NextRequest {
  const url = new URL(`${request.nextUrl.pathname}${request.nextUrl.search}`, config().BASE_URL);
  // A plain Request: a NextRequest takes its host from its headers (none: Next's own default), not from the URL.
  const body = request.method === "GET" || request.method === "HEAD" ? undefined : request.body;
  return new Request(url, { method: request.method, headers: request.headers, body, duplex: "half" } as RequestInit) as NextRequest;
}

export async function GET(request: NextRequest): Promise<Response> {
  // The session carries the person's access token for the pages to read on the server (auth()); no script of a
  // page needs it, so next-auth's session endpoint, which would hand it to one, is not served.
  if (request.nextUrl.pathname === "/api/auth/session") return Response.json({ error: "not_found" }, { status: 404, headers: { "Cache-Control": "no-store" } });
  return (await signIn()).handlers.GET(atBaseUrl(request));
}

export async function POST(request: NextRequest): Promise<Response> {
  return (await signIn()).handlers.POST(atBaseUrl(request));
}
