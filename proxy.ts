// Runs before the hosted journey's pages (/apply/…): each response gets a fresh nonce and the journey's strict
// headers (lib/journey/security-headers.ts), framing allowed to our own pages and, for an application the apply.js
// widget started, to the page that started it (lib/journey/framing.ts). Nothing else passes through here: not
// the widget's start endpoint under /apply/v1/.
import { NextResponse, type NextRequest } from "next/server";
import { JOURNEY_HEADERS, journeyContentSecurityPolicy } from "./lib/journey/security-headers";

export async function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const token = /^\/apply\/([^/]+)/.exec(request.nextUrl.pathname)?.[1];
  const policy = journeyContentSecurityPolicy(nonce, token ? await embeddingOrigin(token) : null);
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", policy);
  for (const [name, value] of Object.entries(JOURNEY_HEADERS)) response.headers.set(name, value);
  return response;
}

// Loaded on the first journey request, not at start: the lookup brings a database client into the proxy's
// bundle, which a process serving only the APIs never needs (its memory counts against npm start's budget).
async function embeddingOrigin(token: string): Promise<string | null> {
  const { embeddingOriginForToken } = await import("./lib/journey/framing");
  return embeddingOriginForToken(token);
}

export const config = { matcher: "/apply/((?!v1/).*)" };
