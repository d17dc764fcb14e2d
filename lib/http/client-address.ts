// The client address that keys per-IP limits. Only two sources are trusted: the header a configured reverse
// proxy sets (TRUSTED_PROXY_HEADER), or the socket peer our HTTP server stamps on every request. A caller's own
// X-Forwarded-For is never believed, so nobody can pick a fresh bucket by inventing addresses.
import type { IncomingMessage } from "node:http";
import { config } from "../env";

/** Set by our server (scripts/serve.ts) from the socket, overwriting anything the client sent. */
export const PEER_ADDRESS_HEADER = "x-lending-peer-address";

export function stampPeerAddress(request: IncomingMessage): void {
  request.headers[PEER_ADDRESS_HEADER] = request.socket.remoteAddress ?? "unknown";
}

export function clientAddress(request: Request): string {
  const trustedHeader = config().TRUSTED_PROXY_HEADER;
  if (trustedHeader) {
    const value = request.headers.get(trustedHeader);
    // A proxy appends the address it saw; earlier entries came from the client and prove nothing.
    const lastHop = value?.split(",").at(-1)?.trim();
    if (lastHop) return lastHop;
  }
  return request.headers.get(PEER_ADDRESS_HEADER) ?? "unknown";
}
