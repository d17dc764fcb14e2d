// The one guarded outbound HTTP client for webhook delivery. A partner chooses the URL, so every request is treated as
// a server-side request forgery attempt until proven otherwise: the host is resolved once, with a bounded wait, every
// address it resolves to must be public, each connection is pinned to an address that was checked (the next one is
// tried only when one refuses), redirects are never followed, and both time and response size are capped.
import { Resolver } from "node:dns/promises";
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { config } from "../env";
import { ipv6Groups } from "../wire/client-address";

export type AddressLookup = (hostname: string) => Promise<Array<{ address: string; family: 4 | 6 }>>;

type ResolvedAddress = Awaited<ReturnType<AddressLookup>>[number];

/** Tries per name server before a name counts as unresolvable: a silent server costs two to three tries' timeouts. */
const DNS_TRIES = 2;

/**
 * Resolves through c-ares (a node:dns Resolver), never dns.lookup: lookup runs getaddrinfo on libuv's thread pool (four
 * threads, shared with file system and crypto work), where every slow answer holds a thread for as long as the system
 * resolver cares to wait, so a few partners' slow name servers would stall unrelated requests. c-ares queries run on
 * the event loop, each bounded by `tryTimeoutMs` and DNS_TRIES. Only DNS is asked (not /etc/hosts; localhost names are
 * answered in resolveHost). IPv4 answers come first, so the pinned address is one a host without IPv6 routes reaches.
 * `servers` empty: the system's name servers. `tryTimeoutMs` bounds each try, and is also the cap: c-ares would
 * otherwise double later tries.
 */
export function resolverLookup(servers: readonly string[], tryTimeoutMs: number): AddressLookup {
  const resolver = new Resolver({ timeout: tryTimeoutMs, maxTimeout: tryTimeoutMs, tries: DNS_TRIES });
  if (servers.length > 0) resolver.setServers(servers);
  return async (hostname) => {
    const [ipv4, ipv6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
    if (ipv4.status === "rejected" && ipv6.status === "rejected") throw ipv4.reason;
    return [
      ...(ipv4.status === "fulfilled" ? ipv4.value.map((address) => ({ address, family: 4 as const })) : []),
      ...(ipv6.status === "fulfilled" ? ipv6.value.map((address) => ({ address, family: 6 as const })) : []),
    ];
  };
}

let configuredLookup: AddressLookup | undefined;

/**
 * What webhooks resolve with unless a caller passes its own lookup: c-ares, on WEBHOOK_DNS_SERVERS when set, each try
 * bounded by WEBHOOK_DNS_TIMEOUT_MS.
 */
function webhookLookup(): AddressLookup {
  const settings = config();
  configuredLookup ??= resolverLookup(settings.WEBHOOK_DNS_SERVERS, settings.WEBHOOK_DNS_TIMEOUT_MS);
  return configuredLookup;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_EXCERPT_BYTES = 1024;
const DEFAULT_USER_AGENT = "LendingPlatform-Webhooks/1.0";

/** IPv4 ranges a webhook may never reach, each with the reason it is refused. */
const BLOCKED_IPV4_SUBNETS: ReadonlyArray<readonly [network: string, prefix: number]> = [
  ["0.0.0.0", 8], // "this network"; 0.0.0.0 reaches the local host on Linux
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT, and some clouds' metadata (Alibaba's 100.100.100.200)
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, including the cloud metadata service at 169.254.169.254
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation (TEST-NET-1)
  ["192.88.99.0", 24], // deprecated 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation (TEST-NET-2)
  ["203.0.113.0", 24], // documentation (TEST-NET-3)
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, including the limited broadcast 255.255.255.255
];

/** IPv6 ranges a webhook may never reach. Ranges that embed an IPv4 address are judged by that address instead. */
const BLOCKED_IPV6_SUBNETS: ReadonlyArray<readonly [network: string, prefix: number]> = [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["::", 96], // deprecated IPv4-compatible addresses: nothing legitimate lives there
  ["64:ff9b:1::", 48], // local-use NAT64, which translates to private networks by design
  ["100::", 64], // discard-only
  ["2001::", 32], // Teredo tunnelling: the real destination is hidden in the address
  ["2001:2::", 48], // benchmarking
  ["2001:db8::", 32], // documentation
  ["3fff::", 20], // documentation
  ["fc00::", 7], // unique-local, including the EC2 metadata service at fd00:ec2::254
  ["fe80::", 10], // link-local
  ["fec0::", 10], // deprecated site-local
  ["ff00::", 8], // multicast
];

const BLOCKED_IPV4 = blockListOf(BLOCKED_IPV4_SUBNETS, "ipv4");
const BLOCKED_IPV6 = blockListOf(BLOCKED_IPV6_SUBNETS, "ipv6");

function blockListOf(subnets: ReadonlyArray<readonly [string, number]>, type: "ipv4" | "ipv6"): BlockList {
  const blockList = new BlockList();
  for (const [network, prefix] of subnets) blockList.addSubnet(network, prefix, type);
  return blockList;
}

/**
 * True for addresses a live webhook may never reach: loopback, unspecified, private, CGNAT, link-local (so cloud
 * metadata), unique-local, multicast, reserved, benchmarking and documentation ranges, and IPv6 forms that wrap a
 * blocked IPv4 address (IPv4-mapped, NAT64, 6to4). Anything that is not an IP address counts as private: a guard must
 * fail closed.
 */
export function isPrivateAddress(address: string): boolean {
  const bare = withoutZone(address);
  switch (isIP(bare)) {
    case 4:
      return BLOCKED_IPV4.check(bare, "ipv4");
    case 6:
      return isPrivateIpv6(bare);
    default:
      return true;
  }
}

/** fe80::1%eth0 names an interface after the %; the zone says nothing about where the address points. */
function withoutZone(address: string): string {
  const zoneStart = address.indexOf("%");
  return zoneStart === -1 ? address : address.slice(0, zoneStart);
}

function isPrivateIpv6(address: string): boolean {
  const embedded = embeddedIpv4(ipv6Groups(address));
  if (embedded !== null) return BLOCKED_IPV4.check(embedded, "ipv4");
  return BLOCKED_IPV6.check(address, "ipv6");
}

/**
 * The IPv4 address a translating or tunnelling IPv6 address delivers to, or null. ::ffff:127.0.0.1 reaches the local
 * host on a dual-stack socket, and a NAT64 gateway turns 64:ff9b::a00:1 into 10.0.0.1, so these are judged as IPv4.
 */
function embeddedIpv4(groups: number[]): string | null {
  const [first, second, third, fourth, fifth, sixth, seventh, eighth] = groups as [number, number, number, number, number, number, number, number];
  const leadingZeros = first === 0 && second === 0 && third === 0 && fourth === 0 && fifth === 0;
  if (leadingZeros && sixth === 0xffff) return ipv4FromGroups(seventh, eighth); // IPv4-mapped ::ffff:0:0/96
  if (first === 0x64 && second === 0xff9b && third === 0 && fourth === 0 && fifth === 0 && sixth === 0) {
    return ipv4FromGroups(seventh, eighth); // well-known NAT64 prefix 64:ff9b::/96
  }
  if (first === 0x2002) return ipv4FromGroups(second, third); // 6to4 2002::/16
  return null;
}

function ipv4FromGroups(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
}

export type UrlProblem = "not_a_url" | "not_https" | "has_credentials" | "has_fragment" | "private_address" | "unresolvable";

/**
 * Checks a webhook URL at registration and returns the first problem, or null when it is fine. https only, always (spec
 * 4.6). With allowPrivate the address checks and DNS are skipped entirely (the sandbox may deliver to localhost).
 */
export async function checkWebhookUrl(url: string, options: { allowPrivate: boolean; lookup?: AddressLookup }): Promise<UrlProblem | null> {
  const parsed = parseUrl(url);
  if (parsed === null) return "not_a_url";
  if (parsed.protocol !== "https:") return "not_https";
  // Credentials in a URL end up in logs and dashboards; endpoints authenticate us by the signature instead.
  if (parsed.username !== "" || parsed.password !== "") return "has_credentials";
  // href keeps an empty fragment ("https://host/#") that .hash reports as "", and "#" cannot appear unescaped elsewhere.
  if (parsed.href.includes("#")) return "has_fragment";
  if (options.allowPrivate) return null;
  const resolution = await resolveHost(hostOf(parsed), options.lookup ?? webhookLookup());
  if (!resolution.resolved) return "unresolvable";
  return resolution.addresses.some(({ address }) => isPrivateAddress(address)) ? "private_address" : null;
}

/** True when `url` is an https URL: the only kind a webhook is delivered to (spec 4.6). */
export function isHttpsUrl(url: string): boolean {
  return parseUrl(url)?.protocol === "https:";
}

function parseUrl(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** The hostname as node:net and DNS want it: URL keeps brackets around IPv6 literals ("[::1]"). */
function hostOf(url: URL): string {
  const { hostname } = url;
  return hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
}

type HostResolution = { resolved: true; addresses: ResolvedAddress[] } | { resolved: false; message: string };

/** RFC 6761 §6.3: localhost names are the loopback addresses, whatever a name server would say. */
const LOOPBACK: ResolvedAddress[] = [
  { address: "127.0.0.1", family: 4 },
  { address: "::1", family: 6 },
];

function isLocalhostName(host: string): boolean {
  const name = host.endsWith(".") ? host.slice(0, -1) : host;
  return name === "localhost" || name.endsWith(".localhost");
}

/** IP literals are used as they are, localhost names are loopback; other names go to `lookup` once. Never rejects. */
async function resolveHost(host: string, lookup: AddressLookup): Promise<HostResolution> {
  const literalFamily = isIP(host);
  if (literalFamily === 4 || literalFamily === 6) return { resolved: true, addresses: [{ address: host, family: literalFamily }] };
  if (isLocalhostName(host)) return { resolved: true, addresses: LOOPBACK };
  try {
    const addresses = await lookup(host);
    if (addresses.length === 0) return { resolved: false, message: `${host} resolved to no addresses` };
    return { resolved: true, addresses };
  } catch (error) {
    return { resolved: false, message: `Could not resolve ${host}: ${messageOf(error)}` };
  }
}

export type DeliveryOutcome =
  | { kind: "response"; status: number; bodyExcerpt: string; latencyMs: number }
  | {
      kind: "error";
      error: "timeout" | "connection_refused" | "blocked_address" | "dns_failure" | "connection_error";
      message: string;
      latencyMs: number;
    };

type DeliveryErrorCode = Extract<DeliveryOutcome, { kind: "error" }>["error"];

export interface PostWebhookOptions {
  url: string;
  /** Sent byte for byte: the signature covers these exact bytes, so they are never re-serialised. */
  body: string | Uint8Array;
  headers: Record<string, string>;
  allowPrivate: boolean;
  /** Covers DNS, connect, response headers and reading the excerpt. */
  timeoutMs?: number;
  maxExcerptBytes?: number;
  lookup?: AddressLookup;
}

/**
 * POSTs `body` to `url` once: no redirects, no retries, no connection reuse (the host's next address is tried only
 * when one could not be connected to, so nothing was sent). Network problems come back as an error outcome; only
 * programming errors (a URL that does not parse, a protocol other than http or https) throw.
 */
export async function postWebhook(options: PostWebhookOptions): Promise<DeliveryOutcome> {
  const target = parseDeliveryUrl(options.url);
  const elapsed = startStopwatch();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = startDeadline(timeoutMs);
  const timedOut = (): DeliveryOutcome => errorOutcome("timeout", `No complete response within ${timeoutMs} ms`, elapsed());
  try {
    const host = hostOf(target);
    const resolution = await Promise.race([resolveHost(host, options.lookup ?? webhookLookup()), whenAborted(deadline.signal)]);
    if (resolution === "aborted") return timedOut();
    if (!resolution.resolved) return errorOutcome("dns_failure", resolution.message, elapsed());
    const blocked = options.allowPrivate ? undefined : resolution.addresses.find(({ address }) => isPrivateAddress(address));
    if (blocked) return errorOutcome("blocked_address", `${host} resolves to ${blocked.address}, which webhooks may not reach`, elapsed());
    const bytes = typeof options.body === "string" ? Buffer.from(options.body, "utf8") : options.body;
    const request = {
      target,
      host,
      bytes,
      headers: requestHeaders(options.headers, bytes.byteLength),
      maxExcerptBytes: options.maxExcerptBytes ?? DEFAULT_MAX_EXCERPT_BYTES,
      signal: deadline.signal,
      elapsed,
      timedOut,
    };
    // Each address in turn, within the one deadline, while an address cannot even be connected to: nothing was sent
    // to it, so the next cannot receive the delivery twice. Anything else (a response, a timeout, a connection cut
    // after it was made) ends the attempt.
    const refusals: Extract<DeliveryOutcome, { kind: "error" }>[] = [];
    for (const pinned of resolution.addresses) {
      const sent = await sendRequest({ ...request, pinned });
      if (!sent.unreachable || sent.outcome.kind !== "error") return sent.outcome;
      refusals.push(sent.outcome);
    }
    const last = refusals[refusals.length - 1]!;
    if (refusals.length === 1) return last;
    return errorOutcome(last.error, `No address of ${host} took the connection: ${refusals.map(({ message }) => message).join("; ")}`, elapsed());
  } finally {
    deadline.clear();
  }
}

function parseDeliveryUrl(url: string): URL {
  const target = new URL(url);
  if (target.protocol !== "http:" && target.protocol !== "https:") throw new TypeError(`Webhooks are delivered over http(s), not ${target.protocol}`);
  return target;
}

function startStopwatch(): () => number {
  const startedAt = performance.now();
  return () => Math.round(performance.now() - startedAt);
}

/** One timer for the whole delivery, so a slow DNS answer leaves less time for the connection rather than more. */
function startDeadline(timeoutMs: number): { signal: AbortSignal; clear: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

function whenAborted(signal: AbortSignal): Promise<"aborted"> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve("aborted");
    else signal.addEventListener("abort", () => resolve("aborted"), { once: true });
  });
}

function errorOutcome(error: DeliveryErrorCode, message: string, latencyMs: number): DeliveryOutcome {
  return { kind: "error", error, message, latencyMs };
}

/** Headers that describe the connection or framing are ours to set: the body length is known and the host is the URL's. */
const CONNECTION_HEADERS = new Set(["host", "content-length", "transfer-encoding", "connection"]);

function requestHeaders(given: Record<string, string>, contentLength: number): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(given)) {
    if (!CONNECTION_HEADERS.has(name.toLowerCase())) headers[name] = value;
  }
  if (!Object.keys(headers).some((name) => name.toLowerCase() === "user-agent")) headers["User-Agent"] = DEFAULT_USER_AGENT;
  headers["Content-Length"] = String(contentLength);
  return headers;
}

/**
 * Answers node:net's lookup with the address that was checked, whatever DNS says now: a name that resolved to a public
 * address for the check and rebinds to 127.0.0.1 a moment later still reaches only the checked address.
 */
function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    // dns.lookup always answers asynchronously and net relies on it, so this does too.
    process.nextTick(() => {
      if (options.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
      else callback(null, pinned.address, pinned.family);
    });
  };
}

interface PinnedRequest {
  target: URL;
  host: string;
  pinned: ResolvedAddress;
  bytes: Uint8Array;
  headers: Record<string, string>;
  maxExcerptBytes: number;
  signal: AbortSignal;
  elapsed: () => number;
  timedOut: () => DeliveryOutcome;
}

/** An address's answer, or `unreachable` when no connection to it could be made (refused, no route to it). */
interface SentRequest {
  outcome: DeliveryOutcome;
  unreachable: boolean;
}

/** Errors of a connect that never got through: nothing of the request reached the address. */
const UNREACHABLE_CODES = new Set(["ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH"]);

function sendRequest(request: PinnedRequest): Promise<SentRequest> {
  return new Promise((resolve) => {
    if (request.signal.aborted) return resolve({ outcome: request.timedOut(), unreachable: false });
    const transport = request.target.protocol === "https:" ? https : http;
    const hostIsName = isIP(request.host) === 0;
    const outgoing = transport.request({
      method: "POST",
      hostname: request.host, // Node derives the Host header from this, so it stays the URL's hostname
      port: request.target.port === "" ? undefined : Number(request.target.port),
      path: `${request.target.pathname}${request.target.search}`,
      headers: request.headers,
      // A fresh connection per delivery: a pooled socket could carry one endpoint's request to another endpoint's address.
      agent: false,
      lookup: pinnedLookup(request.pinned),
      // Explicit, so certificate checks follow the URL's hostname even though we connect to a pinned address.
      ...(request.target.protocol === "https:" && hostIsName ? { servername: request.host } : {}),
    });
    let incoming: IncomingMessage | undefined;
    let settled = false;
    const settle = (outcome: DeliveryOutcome, unreachable = false): void => {
      if (settled) return;
      settled = true;
      request.signal.removeEventListener("abort", onAbort);
      resolve({ outcome, unreachable });
      // Whatever is still arriving is not read: destroying drops the socket instead of buffering the rest.
      incoming?.destroy();
      outgoing.destroy();
    };
    const onAbort = (): void => settle(request.timedOut());
    request.signal.addEventListener("abort", onAbort, { once: true });
    // Stays attached after settling, so tearing the socket down can never surface as an unhandled error.
    outgoing.on("error", (error: NodeJS.ErrnoException) =>
      settle(errorOutcome(classifySocketError(error), error.message, request.elapsed()), error.syscall === "connect" && UNREACHABLE_CODES.has(error.code ?? "")),
    );
    outgoing.on("response", (response) => {
      incoming = response;
      // A 3xx is reported like any other status; the Location header is never followed.
      collectExcerpt(response, request.maxExcerptBytes, (bodyExcerpt) =>
        settle({ kind: "response", status: response.statusCode ?? 0, bodyExcerpt, latencyMs: request.elapsed() }),
      );
    });
    outgoing.end(request.bytes);
  });
}

/**
 * Reads at most `maxBytes` of the body, then hands back the excerpt. A body cut short by the server still counts as
 * the response: the status line already said what the endpoint made of the delivery.
 */
function collectExcerpt(response: IncomingMessage, maxBytes: number, finish: (excerpt: string) => void): void {
  const chunks: Buffer[] = [];
  let collected = 0;
  let finished = false;
  const done = (): void => {
    if (finished) return;
    finished = true;
    // Non-fatal: the cap may cut a multi-byte character in half, which becomes U+FFFD rather than an exception.
    finish(new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(chunks)));
  };
  if (maxBytes <= 0) return done();
  response.on("data", (chunk: Buffer) => {
    const wanted = Math.min(chunk.byteLength, maxBytes - collected);
    chunks.push(chunk.subarray(0, wanted));
    collected += wanted;
    if (collected >= maxBytes) done();
  });
  response.on("end", done);
  response.on("error", done);
}

function classifySocketError(error: NodeJS.ErrnoException): DeliveryErrorCode {
  switch (error.code) {
    case "ECONNREFUSED":
      return "connection_refused";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "dns_failure";
    default:
      return "connection_error";
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
