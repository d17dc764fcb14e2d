// The site's pages that are the same for every visitor, rendered once and replayed (docs/performance.md, "The
// site's pages"). A page's only per-response parts are its nonce, which Next writes on its scripts from the
// request's Content-Security-Policy, and its headers (the policy, the CSRF cookie). So the first view's HTML is kept
// with the places its nonce appears, and every later view gets a copy with a fresh nonce written over those places
// and the headers a page gets (lib/pages/page-response.ts). The pages are built from the pricing configuration and
// the CMS pages: any change to either, heard through the change feed in every process, drops every page; and a
// page is kept only while the feed is listening, for at most PAGE_TTL_MS, a bound on staleness should a
// notification go missing (as lib/site/content.ts bounds its own copies).
import { changeFeed } from "../change-feed";
import { isFresh } from "../clock";

/**
 * The pages that read nothing of the visitor: not /apply (its form echoes the CSRF cookie), /quote (it renders its
 * query), the borrower area, the journey, the payment page or sign-in.
 */
export const REPLAYED_PAGE_PATHS: ReadonlySet<string> = new Set([
  "/",
  "/products",
  "/eligibility",
  "/how-to-apply",
  "/loyalty",
  "/partners",
  "/contact",
  "/faq",
  "/about",
  "/terms",
  "/privacy",
  "/complaints",
  "/cookies",
]);

export const PAGE_TTL_MS = 60_000;

/** Response headers that describe one delivery, not the page: the server writes its own. */
const DELIVERY_HEADERS = new Set(["x-page-cache", "content-length", "transfer-encoding", "connection", "keep-alive", "date", "set-cookie", "content-security-policy", "etag"]);

/** The request headers of Next's client router (a navigation's RSC payload, a prefetch) or a server action. */
const ROUTER_REQUEST_HEADERS = ["rsc", "next-router-state-tree", "next-router-prefetch", "next-router-segment-prefetch", "next-action", "next-url"];

const NONCE_IN_POLICY = /(?:^|;)\s*script-src[^;]*'nonce-([A-Za-z0-9+/]{22}==)'/;

export interface StoredPage {
  status: number;
  /** The page's own headers, without the policy, the cookie and the delivery's. */
  headers: readonly [string, string][];
  body: Buffer;
  /** The Content-Security-Policy proxy.ts gave it (lib/pages/security-headers.ts). */
  policy: string;
  /** The nonce it was rendered with, which Next also writes in headers (the stylesheets' preload `Link`). */
  nonce: string;
  /** Byte offsets in `body` of that nonce. */
  nonceOffsets: readonly number[];
  storedAt: number;
}

export interface PageRequest {
  method: string;
  /** The request target: path and query. */
  url: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** A GET or HEAD of a replayed page's exact address, asked for as a document (not by Next's client router). */
export function isReplayablePageRequest(request: PageRequest): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  if (!REPLAYED_PAGE_PATHS.has(request.url)) return false;
  return ROUTER_REQUEST_HEADERS.every((name) => request.headers[name] === undefined);
}

/**
 * The page to keep from a rendered response, or null when it is not one: a 200 HTML page whose only cookie is
 * the CSRF one, rendered under a nonce policy.
 */
export function storedPageFrom(status: number, headers: Readonly<Record<string, string | string[] | number | undefined>>, body: Buffer, now: number): StoredPage | null {
  if (status !== 200) return null;
  if (!/^text\/html\b/.test(String(headers["content-type"] ?? ""))) return null;
  if (headers["content-encoding"] !== undefined) return null;
  const cookies = headers["set-cookie"];
  for (const cookie of cookies === undefined ? [] : Array.isArray(cookies) ? cookies : [String(cookies)]) {
    if (!cookie.startsWith("svc_csrf=")) return null;
  }
  const policy = String(headers["content-security-policy"] ?? "");
  const nonce = NONCE_IN_POLICY.exec(policy)?.[1];
  if (!nonce) return null;
  const kept: [string, string][] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || DELIVERY_HEADERS.has(name.toLowerCase())) continue;
    for (const one of Array.isArray(value) ? value : [String(value)]) kept.push([name, one]);
  }
  return { status, headers: kept, body, policy, nonce, nonceOffsets: offsetsOf(body, Buffer.from(nonce, "latin1")), storedAt: now };
}

function offsetsOf(body: Buffer, needle: Buffer): number[] {
  const offsets: number[] = [];
  for (let at = body.indexOf(needle); at !== -1; at = body.indexOf(needle, at + needle.length)) offsets.push(at);
  return offsets;
}

/** A copy of the page's body with `nonce` wherever the stored one was. */
export function bodyWithNonce(page: StoredPage, nonce: string): Buffer {
  if (nonce.length !== page.nonce.length) throw new Error("a page nonce has a fixed length");
  const body = Buffer.from(page.body);
  for (const offset of page.nonceOffsets) body.write(nonce, offset, "latin1");
  return body;
}

/**
 * The page's policy under `nonce`: the one proxy.ts built for it, nonce and all. Built again here it could differ,
 * since this process read its configuration before `npm start` set NODE_ENV (scripts/serve.ts) and Next's own
 * copy of it did not (a development policy allows 'unsafe-eval').
 */
export function policyWithNonce(page: StoredPage, nonce: string): string {
  return page.policy.replaceAll(`'nonce-${page.nonce}'`, `'nonce-${nonce}'`);
}

/** The page's own headers with `nonce` wherever the stored one was. */
export function headersWithNonce(page: StoredPage, nonce: string): [string, string][] {
  return page.headers.map(([name, value]) => [name, value.replaceAll(page.nonce, nonce)]);
}

/**
 * At most one entry per replayed path (13), each its HTML once (15–24 KB for these pages in November 2026) and a few
 * hundred bytes of headers: about 230 KB in all. A replayed view copies its page once (the copy gets the new nonce).
 */
class PageCache {
  private readonly pages = new Map<string, StoredPage>();
  /** Bumped by every change the pages are built from; a render that began under another may show the old one. */
  private version = 0;
  private subscribed = false;

  /** The version a render starting now belongs to; keep its page only if it is still current when it ends. */
  currentVersion(): number {
    this.subscribe();
    return this.version;
  }

  /** Whether a page rendered now could be kept: not while the change feed is deaf. */
  isKeeping(): boolean {
    return changeFeed().isListening();
  }

  read(path: string, now: number): StoredPage | null {
    if (!changeFeed().isListening()) return null;
    const page = this.pages.get(path);
    if (!page) return null;
    if (isFresh(now - page.storedAt, PAGE_TTL_MS)) return page;
    this.pages.delete(path);
    return null;
  }

  keep(path: string, version: number, page: StoredPage): boolean {
    if (version !== this.version || !changeFeed().isListening() || !REPLAYED_PAGE_PATHS.has(path)) return false;
    this.pages.set(path, page);
    return true;
  }

  forgetAll(): void {
    this.version += 1;
    this.pages.clear();
  }

  get size(): number {
    return this.pages.size;
  }

  private subscribe(): void {
    if (this.subscribed) return;
    this.subscribed = true;
    // A null id (the feed interrupted) reaches every table's listeners too.
    changeFeed().subscribe("pricing_configs", () => this.forgetAll());
    changeFeed().subscribe("cms_pages", () => this.forgetAll());
  }
}

const holder = globalThis as unknown as { __lendingPageCache?: PageCache };

/** The process's page cache (one per process, like the change feed it listens to). */
export function pageCache(): PageCache {
  holder.__lendingPageCache ??= new PageCache();
  return holder.__lendingPageCache;
}
