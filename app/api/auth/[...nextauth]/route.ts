// GET, POST /api/auth/* — next-auth's endpoints for the borrower area's sign-in (app/_auth/borrower-sign-in.ts):
// the start of a sign-in, the provider's callback, the session and sign-out. Not a route of the API rings, so not
// built by defineRoute: next-auth answers them. Loaded on the first request, as next-auth runs only inside Next's
// server (it imports Next's own modules), never in the processes that load every route file to list them.
import type { NextRequest } from "next/server";

const signIn = () => import("@/app/_auth/borrower-sign-in");

export async function GET(request: NextRequest): Promise<Response> {
  return (await signIn()).handlers.GET(request);
}

export async function POST(request: NextRequest): Promise<Response> {
  return (await signIn()).handlers.POST(request);
}
