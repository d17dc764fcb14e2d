// Runs before the hosted journey's pages (/apply/…): each response gets a fresh nonce and the journey's strict
// headers (lib/journey/security-headers.ts). Nothing else passes through here.
import { NextResponse, type NextRequest } from "next/server";
import { JOURNEY_HEADERS, journeyContentSecurityPolicy } from "./lib/journey/security-headers";

export function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const policy = journeyContentSecurityPolicy(nonce);
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", policy);
  for (const [name, value] of Object.entries(JOURNEY_HEADERS)) response.headers.set(name, value);
  return response;
}

export const config = { matcher: "/apply/:path*" };
