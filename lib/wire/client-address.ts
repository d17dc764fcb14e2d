// The client address that keys per-IP limits. Only two sources are trusted: the header a configured reverse
// proxy sets (TRUSTED_PROXY_HEADER), or the socket peer our HTTP server (scripts/http-server.ts) stamps on every
// request. A caller's own X-Forwarded-For is never believed, and neither is a peer-address header our server did
// not set (the app started without it, `next start` alone): each stamp carries this process's secret, so
// nobody can pick a fresh bucket by inventing addresses. IPv6 addresses are grouped by /64, the block one
// subscriber usually holds.
import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { isIPv6 } from "node:net";
import { config, type Config } from "../env";

export const PEER_ADDRESS_HEADER = "x-lending-peer-address";
const PEER_STAMP_HEADER = "x-lending-peer-stamp";
/** Requests whose address cannot be trusted share this one bucket. */
export const UNKNOWN_ADDRESS = "unknown";

// On globalThis: our server's module and the app's bundled copy of this one are different module instances
// in the same process.
const holder = globalThis as unknown as { __lendingPeerStamp?: string };

export function stampPeerAddress(request: IncomingMessage): void {
  holder.__lendingPeerStamp ??= randomBytes(16).toString("hex");
  request.headers[PEER_ADDRESS_HEADER] = request.socket.remoteAddress ?? UNKNOWN_ADDRESS;
  request.headers[PEER_STAMP_HEADER] = holder.__lendingPeerStamp;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/** Headers a reverse proxy adds to say whom it relays for. */
const FORWARDING_HEADERS = ["x-forwarded-for", "forwarded", "x-real-ip"] as const;

/**
 * A request a reverse proxy on this machine relayed while TRUSTED_PROXY_HEADER is unset: its peer is loopback and
 * it names a client. Every caller then has the proxy's address (one rate-limit bucket for all), so our server
 * warns of it (scripts/http-server.ts). Only a hint: a client can send such a header itself.
 */
export function relayedByUntrustedProxy(request: IncomingMessage, settings: Pick<Config, "TRUSTED_PROXY_HEADER"> = config()): boolean {
  if (settings.TRUSTED_PROXY_HEADER) return false;
  const peer = request.socket.remoteAddress;
  return peer !== undefined && LOOPBACK.test(peer) && FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined);
}

/** The socket peer, when our server stamped it in this process. */
function stampedPeer(request: Request): string | null {
  const stamp = holder.__lendingPeerStamp;
  if (!stamp || request.headers.get(PEER_STAMP_HEADER) !== stamp) return null;
  return request.headers.get(PEER_ADDRESS_HEADER);
}

/**
 * The eight 16-bit groups of an IPv6 address that isIP has already accepted. node:net offers subnet checks but no way
 * to read the bits, and the embedded IPv4 address is needed, so this expands "::" and a trailing dotted quad itself.
 */
export function ipv6Groups(address: string): number[] {
  const [head = "", tail] = address.split("::");
  const headGroups = groupsOfPart(head);
  if (tail === undefined) return headGroups;
  const tailGroups = groupsOfPart(tail);
  const zeros = new Array<number>(8 - headGroups.length - tailGroups.length).fill(0);
  return [...headGroups, ...zeros, ...tailGroups];
}

function groupsOfPart(part: string): number[] {
  if (part === "") return [];
  return part.split(":").flatMap((piece) => {
    if (!piece.includes(".")) return [Number.parseInt(piece, 16)];
    const [a = 0, b = 0, c = 0, d = 0] = piece.split(".").map(Number);
    return [(a << 8) | b, (c << 8) | d];
  });
}

/** An IPv6 address's /64 (`2001:db8:1:2::/64`); IPv4, and IPv4 mapped into IPv6, as the plain IPv4 address. */
export function addressBucket(address: string): string {
  if (!address.includes(":")) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  const prefix = ipv6Groups(address).slice(0, 4).map((group) => group.toString(16));
  return `${prefix.join(":")}::/64`;
}

export function clientAddress(request: Request): string {
  const trustedHeader = config().TRUSTED_PROXY_HEADER;
  if (trustedHeader) {
    const value = request.headers.get(trustedHeader);
    // A proxy appends the address it saw; earlier entries came from the client and prove nothing.
    const lastHop = value?.split(",").at(-1)?.trim();
    if (lastHop) return addressBucket(lastHop);
  }
  const peer = stampedPeer(request);
  return peer ? addressBucket(peer) : UNKNOWN_ADDRESS;
}

/** A request from this machine that no proxy forwarded: for operators' surfaces that must not face the world. */
export function isLocalRequest(request: Request): boolean {
  const trustedHeader = config().TRUSTED_PROXY_HEADER;
  if (trustedHeader && request.headers.get(trustedHeader)) return false;
  const peer = stampedPeer(request);
  return peer !== null && LOOPBACK.test(peer);
}
