// The page cache at the door of our HTTP server (lib/pages/page-replay.ts), in front of a stand-in for Next that
// renders the way Next does behind proxy.ts: a fresh nonce on its policy and its scripts, the CSRF cookie for a
// browser without one, and a figure from the pricing configuration. Counting its renders shows which views were
// replayed. The real server (Next itself, hydration in Chromium) is tests/e2e/page-cache.spec.ts.
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { changeFeed, stopChangeFeed } from "@/lib/change-feed";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { PAGE_TTL_MS, REPLAYED_PAGE_PATHS, pageCache } from "@/lib/pages/page-cache";
import { servePage } from "@/lib/pages/page-replay";
import { csrfTokenToIssue, newPageNonce, pageResponseHeaders } from "@/lib/pages/page-response";
import { pageContentSecurityPolicy } from "@/lib/pages/security-headers";
import { getPricingConfig, updatePricingConfig } from "@/lib/pricing/config";
import { eventually } from "../../helpers/eventually";

let renders: string[] = [];
let server: http.Server;
let base: string;
let clockControl: ReturnType<typeof freezeClock>;

/** Like Next behind proxy.ts: each render its own nonce, on the policy, two scripts and the inline payload. */
async function renderLikeNext(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  renders.push(`${request.method} ${request.url}`);
  const nonce = newPageNonce();
  const csrfToken = csrfTokenToIssue({ method: request.method!, accept: request.headers.accept ?? null, cookie: request.headers.cookie ?? null });
  for (const [name, value] of pageResponseHeaders("page", pageContentSecurityPolicy("page", nonce), csrfToken, false)) response.appendHeader(name, value);
  const pricing = await getPricingConfig();
  if (request.headers["x-session"]) response.appendHeader("Set-Cookie", "session=abc; Path=/; HttpOnly");
  response.setHeader("Content-Type", request.url === "/products" && request.headers["x-as-json"] ? "application/json" : "text/html; charset=utf-8");
  response.setHeader("Vary", "rsc, next-router-state-tree, Accept-Encoding");
  response.setHeader("Link", `</_next/a.css>; rel=preload; as="style"; nonce="${nonce}", </_next/b.css>; rel=preload; as="style"; nonce="${nonce}"`);
  response.statusCode = request.url === "/eligibility" && request.headers["x-fail"] ? 500 : 200;
  if (request.method === "HEAD") return void response.end();
  response.write(`<!DOCTYPE html><html><head><script nonce="${nonce}" src="/_next/a.js" async=""></script></head>`);
  response.write(`<body><p>From £${pricing.business_loan.amount_min_pounds}</p><p>encoding ${request.headers["accept-encoding"] ?? "none"}</p>`);
  response.end(`<script nonce="${nonce}">self.__next_f.push([1,"{\\"nonce\\":\\"${nonce}\\"}"])</script></body></html>`);
}

async function view(path: string, init: { method?: string; headers?: Record<string, string> } = {}) {
  const response = await fetch(`${base}${path}`, { method: init.method ?? "GET", headers: { accept: "text/html", "accept-encoding": "identity", ...init.headers } });
  const body = await response.text();
  const policyNonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1] ?? null;
  const bodyNonces = [...body.matchAll(/nonce="([^"]+)"/g)].map((match) => match[1]);
  return { response, body, policyNonce, bodyNonces, cache: response.headers.get("x-page-cache"), cookies: response.headers.getSetCookie() };
}

const WELL_FORMED_TOKEN = "a".repeat(43);
const withToken = { cookie: `svc_csrf=${WELL_FORMED_TOKEN}` };

beforeAll(async () => {
  await eventually(async () => changeFeed().isListening(), Boolean);
  // The first read of the pricing configuration writes its defaults, a change the feed reports: heard before the tests.
  let pricingChanges = 0;
  changeFeed().subscribe("pricing_configs", () => (pricingChanges += 1));
  const versions = await db().pricingConfig.count();
  await getPricingConfig();
  if (versions === 0) await eventually(async () => pricingChanges, (heard) => heard > 0);
  server = http.createServer((request, response) => servePage(request, response, renderLikeNext));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.close();
  await stopChangeFeed();
});

beforeEach(() => {
  clockControl = freezeClock("2027-03-01T10:00:00.000Z");
  pageCache().forgetAll();
  renders = [];
});

describe("a replayed page", () => {
  it("is rendered on the first view and replayed on the second, with a fresh nonce on its policy and every script", async () => {
    const first = await view("/", { headers: withToken });
    const second = await view("/", { headers: withToken });
    expect(renders).toEqual(["GET /"]);
    expect([first.cache, second.cache]).toEqual(["miss", "hit"]);
    expect(second.response.status).toBe(200);
    expect(second.policyNonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(second.policyNonce).not.toBe(first.policyNonce);
    expect(first.bodyNonces).toEqual([first.policyNonce, first.policyNonce]);
    expect(second.bodyNonces).toEqual([second.policyNonce, second.policyNonce]);
    expect(second.body).not.toContain(first.policyNonce);
    expect(second.body).toBe(first.body.split(first.policyNonce!).join(second.policyNonce!));
    expect(second.response.headers.get("content-length")).toBe(String(Buffer.byteLength(second.body)));
  });

  it("carries every header a page gets from proxy.ts, and the page's own", async () => {
    const first = await view("/products", { headers: withToken });
    const second = await view("/products", { headers: withToken });
    expect(second.cache).toBe("hit");
    expect(second.response.headers.get("content-security-policy")).toBe(pageContentSecurityPolicy("page", second.policyNonce!));
    expect(second.response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(second.response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(second.response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(second.response.headers.get("vary")).toBe(first.response.headers.get("vary"));
    // Next names the nonce in its stylesheets' preload header too.
    expect(second.response.headers.get("link")).toBe(first.response.headers.get("link")!.replaceAll(first.policyNonce!, second.policyNonce!));
    expect(second.response.headers.get("link")).toContain(`nonce="${second.policyNonce}"`);
  });

  it("gives a visitor without a well-formed CSRF cookie a new one on a hit, and one with a cookie none", async () => {
    await view("/loyalty", { headers: withToken });
    const without = await view("/loyalty");
    const malformed = await view("/loyalty", { headers: { cookie: "svc_csrf=short" } });
    const withCookie = await view("/loyalty", { headers: withToken });
    expect([without.cache, malformed.cache, withCookie.cache]).toEqual(["hit", "hit", "hit"]);
    expect(without.cookies).toHaveLength(1);
    expect(without.cookies[0]).toMatch(/^svc_csrf=[A-Za-z0-9_-]{43}; Path=\/; SameSite=Strict$/);
    expect(malformed.cookies[0]).toMatch(/^svc_csrf=[A-Za-z0-9_-]{43}; /);
    expect(malformed.cookies[0]).not.toBe(without.cookies[0]);
    expect(withCookie.cookies).toEqual([]);
  });

  it("never keeps the cookie the first view was given", async () => {
    const first = await view("/faq");
    const second = await view("/faq", { headers: withToken });
    expect(first.cookies).toHaveLength(1);
    expect(second.cache).toBe("hit");
    expect(second.cookies).toEqual([]);
  });

  it("answers HEAD from the cache with the headers of a GET and no body", async () => {
    const get = await view("/about");
    const head = await view("/about", { method: "HEAD", headers: withToken });
    expect(renders).toEqual(["GET /about"]);
    expect(head.cache).toBe("hit");
    expect(head.body).toBe("");
    expect(head.response.headers.get("content-length")).toBe(String(Buffer.byteLength(get.body)));
    expect(head.policyNonce).not.toBe(get.policyNonce);
  });

  it("is kept uncompressed, and replayed with gzip to a browser that takes it", async () => {
    const first = await view("/terms", { headers: { "accept-encoding": "gzip, br", ...withToken } });
    const gzipped = await view("/terms", { headers: { "accept-encoding": "br, gzip;q=0.8", ...withToken } });
    const plain = await view("/terms", { headers: { "accept-encoding": "gzip;q=0, br", ...withToken } });
    expect(first.body).toContain("encoding none");
    expect([gzipped.cache, plain.cache]).toEqual(["hit", "hit"]);
    expect(gzipped.response.headers.get("content-encoding")).toBe("gzip");
    // fetch undoes the gzip: what arrives is the stored page under its own nonce.
    expect(gzipped.body).toBe(first.body.split(first.policyNonce!).join(gzipped.policyNonce!));
    expect(plain.response.headers.get("content-encoding")).toBeNull();
    expect(plain.response.headers.get("content-length")).toBe(String(Buffer.byteLength(plain.body)));
  });

  it("shows a new price on the next view after the pricing configuration changes", async () => {
    const before = await view("/");
    expect(before.body).toContain("From £50");
    expect((await view("/")).cache).toBe("hit");
    await updatePricingConfig((figures) => ({ ...figures, business_loan: { ...figures.business_loan, amount_min_pounds: 75 } }), "page cache test");
    const after = await eventually(() => view("/"), (page) => page.body.includes("From £75"));
    expect(after.cache).toBe("miss");
    expect((await view("/")).cache).toBe("hit");
    await updatePricingConfig((figures) => ({ ...figures, business_loan: { ...figures.business_loan, amount_min_pounds: 50 } }), "page cache test");
    await eventually(() => view("/"), (page) => page.body.includes("From £50"));
  });

  it("is rendered again once it is older than its time to live", async () => {
    await view("/partners");
    clockControl.advance(PAGE_TTL_MS - 1);
    expect((await view("/partners")).cache).toBe("hit");
    clockControl.advance(1);
    expect((await view("/partners")).cache).toBe("miss");
    expect(renders).toEqual(["GET /partners", "GET /partners"]);
  });

  it("holds at most one copy of each replayed page", async () => {
    for (const path of REPLAYED_PAGE_PATHS) {
      await view(path);
      await view(path);
    }
    expect(pageCache().size).toBe(REPLAYED_PAGE_PATHS.size);
    expect(renders).toHaveLength(REPLAYED_PAGE_PATHS.size);
  });
});

describe("what is never replayed", () => {
  it.each(["/apply", "/quote", "/account", "/products?ref=partner", "/?", "/products/", "/pay/abc", "/docs/api", "/v1/demo", "/sso/interaction/x"])("%s is rendered on every view", async (path) => {
    await view(path);
    const second = await view(path);
    expect(second.cache).toBeNull();
    expect(renders).toHaveLength(2);
  });

  it("a request from Next's client router (an RSC payload, a prefetch) goes to Next", async () => {
    await view("/how-to-apply");
    const payload = await view("/how-to-apply", { headers: { rsc: "1" } });
    const prefetch = await view("/how-to-apply", { headers: { "next-router-prefetch": "1" } });
    expect([payload.cache, prefetch.cache]).toEqual([null, null]);
    expect(renders).toHaveLength(3);
  });

  it("a first view answered with an error, or with anything but HTML, is not kept", async () => {
    await view("/eligibility", { headers: { "x-fail": "1" } });
    expect((await view("/eligibility")).cache).toBe("miss");
    await view("/products", { headers: { "x-as-json": "1" } });
    expect((await view("/products")).cache).toBe("miss");
    expect(renders).toHaveLength(4);
  });

  it("a first view that sets any cookie but the CSRF one is not kept", async () => {
    await view("/privacy", { headers: { "x-session": "1" } });
    expect((await view("/privacy")).cache).toBe("miss");
    expect((await view("/privacy")).cache).toBe("hit");
  });

  it("a first view by HEAD is rendered and not kept", async () => {
    await view("/cookies", { method: "HEAD" });
    expect((await view("/cookies")).cache).toBe("miss");
    expect((await view("/cookies")).cache).toBe("hit");
  });

  it("a POST to a replayed page's address goes to Next", async () => {
    await view("/contact");
    const posted = await view("/contact", { method: "POST" });
    expect(posted.cache).toBeNull();
    expect(renders).toEqual(["GET /contact", "POST /contact"]);
  });

  it("nothing is kept while the change feed is not listening", async () => {
    await stopChangeFeed();
    try {
      const first = await view("/complaints");
      const second = await view("/complaints");
      expect([first.cache, second.cache]).toEqual(["miss", "miss"]);
    } finally {
      await eventually(async () => changeFeed().isListening(), Boolean);
    }
    await view("/complaints");
    expect((await view("/complaints")).cache).toBe("hit");
  });
});
