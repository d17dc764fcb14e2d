// A stand-in for the live identity provider (docs/identity.md, "The provider contract"): a real HTTP server on
// 127.0.0.1 that records each call and answers as the test says. `useForLive` points the live environment at it
// (IDENTITY_PROVIDER=http); call it before anything reads the configuration, at the top of the test file.
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { sharedPool } from "@/lib/db";

type Json = Record<string, any>;

export interface ProviderCall {
  headers: http.IncomingHttpHeaders;
  body: Json;
  /** The app's pooled connections lent out while the provider was asked: an open transaction holds one. */
  connectionsInUse: number;
}

/** An answer, or a promise of one: a test can hold calls in flight until it lets them go. */
export type ProviderAnswer = (call: ProviderCall) => { status: number; body: unknown } | Promise<{ status: number; body: unknown }>;

export interface FakeIdentityProvider {
  url: string;
  /** Every call so far, oldest first; clear it with `calls.length = 0`. */
  calls: ProviderCall[];
  /** How the next calls are answered: a 500 until a test says otherwise. */
  answer: ProviderAnswer;
  close(): Promise<void>;
}

/** Verifies everyone sent. */
export const everyoneVerified: ProviderAnswer = (call) => ({ status: 200, body: { people: call.body.people.map(() => ({ result: "verified" })) } });

/** The result each person gets, by last name; anyone else is verified. */
export function resultsByLastName(results: Record<string, "verified" | "review_required" | "failed">): ProviderAnswer {
  return (call) => ({ status: 200, body: { people: call.body.people.map((person: Json) => ({ result: results[person.last_name] ?? "verified" })) } });
}

export async function startFakeIdentityProvider(): Promise<FakeIdentityProvider> {
  const provider: FakeIdentityProvider = {
    url: "",
    calls: [],
    answer: () => ({ status: 500, body: {} }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((request, response) => {
    let text = "";
    request.setEncoding("utf8");
    request.on("data", (chunk) => (text += chunk));
    request.on("end", async () => {
      const call = { headers: request.headers, body: JSON.parse(text) as Json, connectionsInUse: sharedPool().totalCount - sharedPool().idleCount };
      provider.calls.push(call);
      const { status, body } = await provider.answer(call);
      response.writeHead(status, { "Content-Type": "application/json" });
      response.end(JSON.stringify(body));
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  provider.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/checks`;
  return provider;
}

/** Live identity checks go to `provider` (read by lib/env.ts the first time anything asks for the configuration). */
export function useForLive(provider: FakeIdentityProvider, apiKey?: string): void {
  process.env.IDENTITY_PROVIDER = "http";
  process.env.IDENTITY_PROVIDER_URL = provider.url;
  if (apiKey) process.env.IDENTITY_PROVIDER_API_KEY = apiKey;
}
