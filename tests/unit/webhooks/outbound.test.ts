import { pbkdf2 } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { type AddressLookup, checkWebhookUrl, isPrivateAddress, postWebhook, resolverLookup } from "@/lib/webhooks/outbound";
import { startDnsServer, type DnsServer } from "../../helpers/dns-server";
import { eventually } from "../../helpers/eventually";

interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

interface TestServer {
  port: number;
  url: string;
  received: ReceivedRequest[];
  /** Counts TCP connections too, so "no request" also means "not even a connection". */
  connections: () => number;
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

const openServers: Server[] = [];

afterEach(async () => {
  await Promise.all(openServers.splice(0).map(closeServer));
});

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** A real HTTP server on 127.0.0.1 that records each request's raw body before handing it to `handle`. */
async function startServer(handle: Handler = (_request, response) => response.end("ok")): Promise<TestServer> {
  const received: ReceivedRequest[] = [];
  let connections = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks) });
      handle(request, response);
    });
  });
  server.on("connection", () => (connections += 1));
  openServers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { port, url: `http://127.0.0.1:${port}`, received, connections: () => connections };
}

/** A port nothing listens on: bound by a server that is then closed. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Writes to the response until the client goes away. */
function streamForever(response: ServerResponse): void {
  const chunk = Buffer.alloc(64 * 1024, "x");
  response.on("error", () => undefined);
  response.writeHead(200, { "Content-Type": "text/plain" });
  const pump = (): void => {
    while (!response.destroyed && response.write(chunk));
    if (!response.destroyed) response.once("drain", pump);
  };
  pump();
}

/** An injected resolver with fixed answers per hostname that counts how often it is asked. */
function lookupAnswering(answers: Record<string, string[]>): { lookup: AddressLookup; calls: () => number } {
  let calls = 0;
  const lookup: AddressLookup = async (hostname) => {
    calls += 1;
    const addresses = answers[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return { lookup, calls: () => calls };
}

/** For IP literals DNS must not be consulted at all. */
const failIfAsked: AddressLookup = async (hostname) => {
  throw new Error(`lookup should not have been called for ${hostname}`);
};

describe("isPrivateAddress", () => {
  it.each([
    ["8.8.8.8"],
    ["1.1.1.1"],
    ["172.32.0.1"],
    ["172.15.255.255"],
    ["100.63.255.255"],
    ["100.128.0.0"],
    ["198.20.0.1"],
    ["223.255.255.255"],
    ["2606:4700:4700::1111"],
    ["2a00:1450:4009:81f::200e"],
    ["::ffff:8.8.8.8"],
    ["::ffff:808:808"],
    ["64:ff9b::808:808"],
    ["2002:808:808::1"],
  ])("treats %s as public", (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "this network"],
    ["10.0.0.1", "private"],
    ["172.16.5.4", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["100.127.255.255", "carrier-grade NAT"],
    ["169.254.169.254", "cloud metadata"],
    ["169.254.1.1", "link-local"],
    ["192.0.0.8", "IETF protocol assignments"],
    ["192.0.2.10", "documentation"],
    ["198.51.100.7", "documentation"],
    ["203.0.113.9", "documentation"],
    ["198.18.0.1", "benchmarking"],
    ["198.19.255.255", "benchmarking"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "broadcast"],
    ["::1", "IPv6 loopback"],
    ["::", "IPv6 unspecified"],
    ["fe80::1", "IPv6 link-local"],
    ["FE80::ABCD", "IPv6 link-local in capitals"],
    ["fe80::1%eth0", "IPv6 link-local with a zone"],
    ["febf:ffff::1", "the top of IPv6 link-local"],
    ["fc00::1", "unique-local"],
    ["fd12:3456:789a::1", "unique-local"],
    ["fd00:ec2::254", "EC2 metadata over IPv6"],
    ["ff02::1", "IPv6 multicast"],
    ["2001:db8::1", "IPv6 documentation"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"],
    ["100::1", "discard-only"],
    ["::7f00:1", "IPv4-compatible"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:7f00:1", "IPv4-mapped loopback in hex"],
    ["::ffff:10.0.0.1", "IPv4-mapped private"],
    ["::ffff:169.254.169.254", "IPv4-mapped metadata"],
    ["0:0:0:0:0:ffff:c0a8:0101", "IPv4-mapped private written out in full"],
    ["64:ff9b::10.0.0.1", "NAT64 of a private address"],
    ["64:ff9b::7f00:1", "NAT64 of loopback"],
    ["64:ff9b:1::808:808", "local-use NAT64"],
    ["2002:a00:1::", "6to4 of a private address"],
    ["2002:7f00:1::1", "6to4 of loopback"],
  ])("treats %s as private (%s)", (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each([["localhost"], ["example.com"], [""], ["999.1.1.1"], ["[::1]"], ["127.1"]])(
    "fails closed on %j, which is not an IP address",
    (notAnAddress) => {
      expect(isPrivateAddress(notAnAddress)).toBe(true);
    },
  );
});

describe("checkWebhookUrl", () => {
  const strict = { allowPrivate: false };
  const resolver = lookupAnswering({
    "hooks.example.com": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
    "loopback.example.com": ["127.0.0.1"],
    "mixed.example.com": ["93.184.215.14", "10.1.2.3"],
    "mapped.example.com": ["::ffff:192.168.0.1"],
    "empty.example.com": [],
  });

  it.each([
    ["not a url", "not_a_url"],
    ["", "not_a_url"],
    ["/relative/path", "not_a_url"],
    ["http://hooks.example.com/webhooks", "not_https"],
    ["ftp://hooks.example.com/webhooks", "not_https"],
    ["https://user:pass@hooks.example.com/webhooks", "has_credentials"],
    ["https://user@hooks.example.com/webhooks", "has_credentials"],
    ["https://hooks.example.com/webhooks#section", "has_fragment"],
    ["https://hooks.example.com/webhooks#", "has_fragment"],
    ["https://127.0.0.1/", "private_address"],
    ["https://10.0.0.1/", "private_address"],
    ["https://169.254.169.254/latest", "private_address"],
    ["https://[::1]/x", "private_address"],
    ["https://[::ffff:127.0.0.1]/x", "private_address"],
    ["https://2130706433/", "private_address"],
    ["https://0x7f.1/", "private_address"],
    ["https://loopback.example.com/webhooks", "private_address"],
    ["https://mixed.example.com/webhooks", "private_address"],
    ["https://mapped.example.com/webhooks", "private_address"],
    ["https://nowhere.example.com/webhooks", "unresolvable"],
    ["https://empty.example.com/webhooks", "unresolvable"],
  ])("rejects %j as %s", async (url, problem) => {
    expect(await checkWebhookUrl(url, { ...strict, lookup: resolver.lookup })).toBe(problem);
  });

  it("reports the first problem when a URL has several", async () => {
    expect(await checkWebhookUrl("http://user:pass@127.0.0.1/#x", { ...strict, lookup: failIfAsked })).toBe("not_https");
    expect(await checkWebhookUrl("https://user:pass@127.0.0.1/#x", { ...strict, lookup: failIfAsked })).toBe("has_credentials");
    expect(await checkWebhookUrl("https://127.0.0.1/#x", { ...strict, lookup: failIfAsked })).toBe("has_fragment");
  });

  it("accepts a public IP literal without asking DNS", async () => {
    expect(await checkWebhookUrl("https://8.8.8.8/hooks", { ...strict, lookup: failIfAsked })).toBeNull();
    expect(await checkWebhookUrl("https://[2606:4700:4700::1111]:8443/hooks", { ...strict, lookup: failIfAsked })).toBeNull();
  });

  it("accepts a hostname whose every address is public", async () => {
    expect(await checkWebhookUrl("https://hooks.example.com/webhooks?source=lending", { ...strict, lookup: resolver.lookup })).toBeNull();
  });

  it("answers localhost names with the loopback addresses without asking DNS", async () => {
    for (const url of ["https://localhost/x", "https://localhost./x", "https://api.localhost:8443/x"]) {
      expect(await checkWebhookUrl(url, { ...strict, lookup: failIfAsked })).toBe("private_address");
    }
  });

  it("skips the address checks and DNS entirely when private addresses are allowed", async () => {
    const options = { allowPrivate: true, lookup: failIfAsked };
    expect(await checkWebhookUrl("https://127.0.0.1/", options)).toBeNull();
    expect(await checkWebhookUrl("https://[::1]/x", options)).toBeNull();
    expect(await checkWebhookUrl("https://does-not-resolve.invalid/", options)).toBeNull();
  });

  it("still applies the other rules when private addresses are allowed, https first of all", async () => {
    const options = { allowPrivate: true, lookup: failIfAsked };
    expect(await checkWebhookUrl("http://127.0.0.1/", options)).toBe("not_https");
    expect(await checkWebhookUrl("http://localhost:4242/webhooks", options)).toBe("not_https");
    expect(await checkWebhookUrl("ftp://127.0.0.1/", options)).toBe("not_https");
    expect(await checkWebhookUrl("https://user:pass@127.0.0.1/", options)).toBe("has_credentials");
  });

  it("refuses http to a public address too", async () => {
    expect(await checkWebhookUrl("http://8.8.8.8/hooks", { ...strict, lookup: failIfAsked })).toBe("not_https");
  });
});

describe("resolverLookup", () => {
  const dnsServers: DnsServer[] = [];
  afterEach(async () => {
    await Promise.all(dnsServers.splice(0).map((server) => server.close()));
  });

  async function dnsAnswering(answer: DnsServer["answer"]): Promise<DnsServer> {
    const server = await startDnsServer(answer);
    dnsServers.push(server);
    return server;
  }

  it("asks the given name server for A and AAAA records and lists the IPv4 addresses first", async () => {
    const dns = await dnsAnswering(() => ({ addresses: ["2606:2800:21f:cb07:6820:80da:af6b:8b2c", "93.184.215.14", "93.184.215.15"] }));
    expect(await resolverLookup([dns.address], 1_000)("hooks.example.test")).toEqual([
      { address: "93.184.215.14", family: 4 },
      { address: "93.184.215.15", family: 4 },
      { address: "2606:2800:21f:cb07:6820:80da:af6b:8b2c", family: 6 },
    ]);
    expect(dns.queries.map((query) => `${query.type} ${query.name}`).sort()).toEqual(["A hooks.example.test", "AAAA hooks.example.test"]);
  });

  it("resolves a name that has only IPv6 addresses, and rejects one that does not exist", async () => {
    const dns = await dnsAnswering(({ name }) => (name === "v6.example.test" ? { addresses: ["2606:4700:4700::1111"] } : "nxdomain"));
    const lookup = resolverLookup([dns.address], 1_000);
    expect(await lookup("v6.example.test")).toEqual([{ address: "2606:4700:4700::1111", family: 6 }]);
    await expect(lookup("missing.example.test")).rejects.toMatchObject({ code: "ENOTFOUND" });
  });

  it("gives up on a silent name server after two tries of the given timeout per record type", async () => {
    const dns = await dnsAnswering(() => "silence");
    const started = performance.now();
    await expect(resolverLookup([dns.address], 50)("silent.example.test")).rejects.toMatchObject({ code: "ETIMEOUT" });
    expect(performance.now() - started).toBeLessThan(900);
    expect(dns.queries.map((query) => query.type).sort()).toEqual(["A", "A", "AAAA", "AAAA"]);
  });

  it("waits on the event loop, not libuv's thread pool: thread-pool work runs at once while eight lookups hang", async () => {
    const dns = await dnsAnswering(() => "silence");
    // Two tries of half a second each: the lookups hang for a second, well past the measurement below.
    const lookup = resolverLookup([dns.address], 500);
    // Eight: twice the pool's four threads, which getaddrinfo (dns.lookup) would all have held.
    const pending = Array.from({ length: 8 }, (_, index) => lookup(`slow-${index}.example.test`).catch((error: NodeJS.ErrnoException) => error.code));
    await eventually(async () => dns.queries.length, (sent) => sent >= 16);

    const started = performance.now();
    await Promise.all(Array.from({ length: 4 }, () => promisify(pbkdf2)("secret", "salt", 1, 32, "sha256")));
    expect(performance.now() - started).toBeLessThan(500);

    expect(await Promise.all(pending)).toEqual(new Array(8).fill("ETIMEOUT"));
  });
});

describe("postWebhook", () => {
  const jsonHeaders = { "Content-Type": "application/json" };

  it("sends a string body as its exact UTF-8 bytes, unusual key order and whitespace included", async () => {
    const server = await startServer();
    const body = '{"type":"application.approved",  "id":"evt_1",\n\t"data":{"z":1,"a":"Café ☕ 😀 £1,000"} }\r\n';
    const outcome = await postWebhook({ url: `${server.url}/hooks?x=1`, body, headers: jsonHeaders, allowPrivate: true });
    expect(outcome).toMatchObject({ kind: "response", status: 200, bodyExcerpt: "ok" });
    expect(server.received).toHaveLength(1);
    const [request] = server.received;
    expect(request?.method).toBe("POST");
    expect(request?.url).toBe("/hooks?x=1");
    expect(request?.body.equals(Buffer.from(body, "utf8"))).toBe(true);
    expect(request?.headers["content-length"]).toBe(String(Buffer.byteLength(body, "utf8")));
  });

  it("sends a byte body exactly, even bytes that are not UTF-8 and a view into a larger buffer", async () => {
    const server = await startServer();
    const backing = Uint8Array.from([0xaa, 0x7b, 0x00, 0xff, 0xfe, 0xc3, 0x28, 0x7d, 0xbb]);
    const body = backing.subarray(1, 8);
    await postWebhook({ url: server.url, body, headers: {}, allowPrivate: true });
    expect([...(server.received[0]?.body ?? [])]).toEqual([0x7b, 0x00, 0xff, 0xfe, 0xc3, 0x28, 0x7d]);
    expect(server.received[0]?.headers["content-length"]).toBe("7");
  });

  it("sends the given headers, a default User-Agent and no chunked framing", async () => {
    const server = await startServer();
    await postWebhook({
      url: server.url,
      body: "{}",
      headers: { "Content-Type": "application/json; charset=utf-8", "Lending-Signature": "t=1767225600,v1=abc" },
      allowPrivate: true,
    });
    const headers = server.received[0]?.headers;
    expect(headers?.["content-type"]).toBe("application/json; charset=utf-8");
    expect(headers?.["lending-signature"]).toBe("t=1767225600,v1=abc");
    expect(headers?.["user-agent"]).toBe("LendingPlatform-Webhooks/1.0");
    expect(headers?.host).toBe(`127.0.0.1:${server.port}`);
    expect(headers?.["transfer-encoding"]).toBeUndefined();
  });

  it("lets the caller replace the User-Agent but not the framing or Host headers", async () => {
    const server = await startServer();
    await postWebhook({
      url: server.url,
      body: "hello",
      headers: { "user-agent": "Custom/2.0", "Content-Length": "999", Host: "elsewhere.example.com" },
      allowPrivate: true,
    });
    const headers = server.received[0]?.headers;
    expect(headers?.["user-agent"]).toBe("Custom/2.0");
    expect(headers?.["content-length"]).toBe("5");
    expect(headers?.host).toBe(`127.0.0.1:${server.port}`);
    expect(server.received[0]?.body.toString()).toBe("hello");
  });

  it.each([200, 204, 400, 500, 503])("reports a %i status as a response with whole-millisecond latency", async (status) => {
    const server = await startServer((_request, response) => {
      response.statusCode = status;
      response.end(status === 204 ? undefined : `status ${status}`);
    });
    const outcome = await postWebhook({ url: server.url, body: "{}", headers: jsonHeaders, allowPrivate: true });
    expect(outcome).toMatchObject({ kind: "response", status, bodyExcerpt: status === 204 ? "" : `status ${status}` });
    expect(Number.isInteger(outcome.latencyMs)).toBe(true);
    expect(outcome.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it("reports a redirect as its own status and never follows it", async () => {
    const redirectTarget = await startServer();
    const server = await startServer((_request, response) => {
      response.writeHead(302, { Location: `${redirectTarget.url}/stolen` });
      response.end("moved");
    });
    const outcome = await postWebhook({ url: server.url, body: "{}", headers: jsonHeaders, allowPrivate: true });
    expect(outcome).toMatchObject({ kind: "response", status: 302, bodyExcerpt: "moved" });
    expect(redirectTarget.received).toHaveLength(0);
    expect(redirectTarget.connections()).toBe(0);
  });

  it("times out a server that never answers", async () => {
    const server = await startServer(() => undefined);
    const outcome = await postWebhook({ url: server.url, body: "{}", headers: jsonHeaders, allowPrivate: true, timeoutMs: 300 });
    expect(outcome).toMatchObject({ kind: "error", error: "timeout" });
    expect(outcome.latencyMs).toBeGreaterThanOrEqual(250);
    expect(outcome.latencyMs).toBeLessThan(2000);
    expect(server.received).toHaveLength(1);
  });

  it("times out a server that sends headers and then never finishes the body", async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, { "Content-Type": "text/plain" });
      response.write("partial");
    });
    const outcome = await postWebhook({ url: server.url, body: "{}", headers: jsonHeaders, allowPrivate: true, timeoutMs: 300 });
    expect(outcome).toMatchObject({ kind: "error", error: "timeout" });
    expect(outcome.latencyMs).toBeGreaterThanOrEqual(250);
    expect(outcome.latencyMs).toBeLessThan(2000);
  });

  it("times out a DNS lookup that never answers", async () => {
    const hangingLookup: AddressLookup = () => new Promise(() => undefined);
    const outcome = await postWebhook({
      url: "http://slow-dns.example.test/",
      body: "{}",
      headers: {},
      allowPrivate: true,
      timeoutMs: 300,
      lookup: hangingLookup,
    });
    expect(outcome).toMatchObject({ kind: "error", error: "timeout" });
    expect(outcome.latencyMs).toBeGreaterThanOrEqual(250);
    expect(outcome.latencyMs).toBeLessThan(2000);
  });

  it("keeps only the first 1024 bytes of a 5 MB response", async () => {
    const server = await startServer((_request, response) => {
      response.on("error", () => undefined);
      response.end(Buffer.alloc(5 * 1024 * 1024, "a"));
    });
    const outcome = await postWebhook({ url: server.url, body: "{}", headers: jsonHeaders, allowPrivate: true });
    expect(outcome.kind).toBe("response");
    if (outcome.kind !== "response") return;
    expect(outcome.bodyExcerpt).toBe("a".repeat(1024));
    expect(Buffer.byteLength(outcome.bodyExcerpt)).toBe(1024);
    expect(outcome.latencyMs).toBeLessThan(2000);
  });

  it("stops reading an endless response once the excerpt is full instead of waiting for the timeout", async () => {
    const server = await startServer((_request, response) => streamForever(response));
    const outcome = await postWebhook({ url: server.url, body: "{}", headers: jsonHeaders, allowPrivate: true, timeoutMs: 5000, maxExcerptBytes: 100 });
    expect(outcome).toMatchObject({ kind: "response", status: 200, bodyExcerpt: "x".repeat(100) });
    expect(outcome.latencyMs).toBeLessThan(2000);
  });

  it("decodes an excerpt that cuts a multi-byte character with a replacement character", async () => {
    const server = await startServer((_request, response) => response.end("éé"));
    const outcome = await postWebhook({ url: server.url, body: "{}", headers: {}, allowPrivate: true, maxExcerptBytes: 3 });
    expect(outcome).toMatchObject({ kind: "response", status: 200, bodyExcerpt: "é\uFFFD" });
  });

  it("reports a refused connection", async () => {
    const port = await freePort();
    const outcome = await postWebhook({ url: `http://127.0.0.1:${port}/hooks`, body: "{}", headers: {}, allowPrivate: true });
    expect(outcome).toMatchObject({ kind: "error", error: "connection_refused" });
    expect(outcome.kind === "error" && outcome.message).toContain("ECONNREFUSED");
  });

  it("reports a failed TLS handshake as a connection error", async () => {
    const server = await startServer();
    const { lookup } = lookupAnswering({ "tls.example.test": ["127.0.0.1"] });
    const outcome = await postWebhook({ url: `https://tls.example.test:${server.port}/hooks`, body: "{}", headers: {}, allowPrivate: true, lookup });
    expect(outcome).toMatchObject({ kind: "error", error: "connection_error" });
    expect(server.received).toHaveLength(0);
  });

  it("refuses a private IP literal without connecting", async () => {
    const server = await startServer();
    const outcome = await postWebhook({ url: server.url, body: "{}", headers: jsonHeaders, allowPrivate: false, lookup: failIfAsked });
    expect(outcome).toMatchObject({ kind: "error", error: "blocked_address" });
    expect(server.received).toHaveLength(0);
    expect(server.connections()).toBe(0);
  });

  it("refuses a hostname when any address it resolves to is private", async () => {
    const server = await startServer();
    const { lookup } = lookupAnswering({ "mixed.example.test": ["93.184.215.14", "127.0.0.1"], "loopback.example.test": ["127.0.0.1"] });
    for (const hostname of ["mixed.example.test", "loopback.example.test"]) {
      const outcome = await postWebhook({ url: `http://${hostname}:${server.port}/`, body: "{}", headers: {}, allowPrivate: false, lookup });
      expect(outcome).toMatchObject({ kind: "error", error: "blocked_address" });
    }
    expect(server.connections()).toBe(0);
  });

  it("resolves once and connects to the first answer, so DNS rebinding cannot move the request", async () => {
    const server = await startServer();
    let calls = 0;
    const rebinding: AddressLookup = async () => {
      calls += 1;
      return [{ address: calls === 1 ? "127.0.0.1" : "10.255.255.1", family: 4 }];
    };
    const outcome = await postWebhook({ url: `http://rebind.example.test:${server.port}/hooks`, body: "{}", headers: {}, allowPrivate: true, lookup: rebinding });
    expect(outcome).toMatchObject({ kind: "response", status: 200 });
    expect(calls).toBe(1);
    expect(server.received).toHaveLength(1);
    // Connected by address, but addressed by name: the Host header is the URL's.
    expect(server.received[0]?.headers.host).toBe(`rebind.example.test:${server.port}`);
  });

  it("blocks a rebinding name whose one answer is private when private addresses are not allowed", async () => {
    const server = await startServer();
    let calls = 0;
    const rebinding: AddressLookup = async () => {
      calls += 1;
      return [{ address: calls === 1 ? "127.0.0.1" : "93.184.215.14", family: 4 }];
    };
    const outcome = await postWebhook({ url: `http://rebind.example.test:${server.port}/`, body: "{}", headers: {}, allowPrivate: false, lookup: rebinding });
    expect(outcome).toMatchObject({ kind: "error", error: "blocked_address" });
    expect(calls).toBe(1);
    expect(server.connections()).toBe(0);
  });

  it("reports a lookup that fails, or finds nothing, as a DNS failure", async () => {
    const { lookup } = lookupAnswering({ "empty.example.test": [] });
    for (const url of ["https://nowhere.example.test/hooks", "https://empty.example.test/hooks"]) {
      const outcome = await postWebhook({ url, body: "{}", headers: {}, allowPrivate: false, lookup });
      expect(outcome).toMatchObject({ kind: "error", error: "dns_failure" });
    }
  });

  it("throws for a URL that is not one, or not http(s), since that is a programming error", async () => {
    await expect(postWebhook({ url: "not a url", body: "{}", headers: {}, allowPrivate: true })).rejects.toThrow(TypeError);
    await expect(postWebhook({ url: "ftp://127.0.0.1/", body: "{}", headers: {}, allowPrivate: true })).rejects.toThrow(TypeError);
  });
});
