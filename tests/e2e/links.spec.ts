// No dead ends (issue 29, item 6) in Chromium behind the production server: from `/`, every same-origin link is
// followed, page after page, and so are the links in the public MCP tools' answers, in the assistant's answers to
// a handful of questions, and the site paths README.md and docs/*.md name; each must answer 200. Every test prints
// the list it visited.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect, test, type Page } from "@playwright/test";

const root = path.resolve(import.meta.dirname, "..", "..");

/** A crawl never ends on a site that makes links up: no more pages than this. */
const MAX_PAGES = 300;

// Paths of the API rings and machine endpoints: what the docs name there are calls (a POST, a bearer token), not
// pages to open. A link on a page is followed wherever it points.
const NOT_PAGES = [/^\/partner\//, /^\/public\//, /^\/oauth\//, /^\/mcp$/, /^\/api\//, /^\/apply\/v1\//, /^\/\.well-known\//, /^\/sso\//, /^\/openapi\//];

interface Visit {
  status: number;
  links: string[];
}

const visits = new Map<string, Visit>();

/** The address to visit: same origin, no fragment; null for anything else (another site, mailto:, tel:). */
function sameOrigin(href: string, base: string, origin: string): string | null {
  let url: URL;
  try {
    url = new URL(href, base);
  } catch {
    return null;
  }
  if (url.origin !== origin) return null;
  url.hash = "";
  return url.href;
}

async function visit(page: Page, url: string, origin: string): Promise<Visit> {
  const known = visits.get(url);
  if (known) return known;
  const response = await page.goto(url, { waitUntil: "domcontentloaded" });
  const status = response?.status() ?? 0;
  const html = (response?.headers()["content-type"] ?? "").startsWith("text/html");
  const hrefs = html ? await page.$$eval("a[href]", (anchors) => anchors.map((anchor) => anchor.getAttribute("href")!)) : [];
  const links = [...new Set(hrefs.map((href) => sameOrigin(href, page.url(), origin)).filter((link): link is string => link !== null))];
  const result = { status, links };
  visits.set(url, result);
  return result;
}

/** Visits `seeds` and every same-origin page their pages link to; each address with its status, in visiting order. */
async function crawl(page: Page, seeds: string[], origin: string): Promise<Array<[string, number]>> {
  const queue = [...new Set(seeds)];
  const seen = new Set(queue);
  const visited: Array<[string, number]> = [];
  while (queue.length > 0 && visited.length < MAX_PAGES) {
    const url = queue.shift()!;
    const { status, links } = await visit(page, url, origin);
    visited.push([url.slice(origin.length) || "/", status]);
    for (const link of links) {
      if (seen.has(link)) continue;
      seen.add(link);
      queue.push(link);
    }
  }
  expect(queue, "the crawl stopped before it ran out of links").toEqual([]);
  return visited;
}

function report(visited: Array<[string, number]>) {
  const list = visited.map(([url, status]) => `${status} ${url}`).join("\n");
  console.log(`${test.info().title}: visited ${visited.length}\n${list}`);
  return test.info().attach("visited.txt", { body: list, contentType: "text/plain" });
}

function expectAllFound(visited: Array<[string, number]>) {
  expect(visited.filter(([, status]) => status !== 200)).toEqual([]);
}

const URL_IN_TEXT = /https?:\/\/[^\s"'<>)\]]+/g;

test("every same-origin link from the home page, and from each page it leads to, answers 200", async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const visited = await crawl(page, [`${origin}/`], origin);
  await report(visited);
  expect(visited.length).toBeGreaterThan(1);
  expectAllFound(visited);
});

test("every link in the public MCP tools' answers answers 200, the apply link the Apply page", async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const client = new Client({ name: "e2e-links", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`)));
  const samples: Record<string, Record<string, unknown>> = { product_details: { product: "business_loan" }, get_quote: { amount: 300, term: 28 } };
  const links: string[] = [];
  for (const tool of (await client.listTools()).tools) {
    const answer = (await client.callTool({ name: tool.name, arguments: samples[tool.name] ?? {} })) as CallToolResult;
    expect(answer.isError, tool.name).toBe(false);
    links.push(...`${JSON.stringify(answer.content)} ${JSON.stringify(answer.structuredContent)}`.matchAll(URL_IN_TEXT).map((match) => match[0].replace(/[.,;]+$/, "")));
  }
  await client.close();
  expect(links).toContain(`${origin}/apply`);
  const visited = await crawl(page, links, origin);
  await report(visited);
  expectAllFound(visited);
});

test("every link in the assistant's answers answers 200, sign-in and apply included", async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  // The page gives the browser its CSRF cookie; the assistant's client echoes it in X-CSRF-Token.
  await page.goto("/apply");
  const csrf = (await page.context().cookies()).find((cookie) => cookie.name === "svc_csrf")!.value;
  const questions = [
    "How do I apply?",
    "What products do you offer?",
    "Who can borrow?",
    "How much does a Business Loan cost?",
    "What are the loyalty tiers?",
    "How do I make a complaint?",
    "What is my balance?",
  ];
  const links: string[] = [];
  for (const message of questions) {
    const response = await page.request.post("/api/assistant/public", { headers: { "x-csrf-token": csrf }, data: { message } });
    expect(response.status(), message).toBe(200);
    const { answer } = (await response.json()) as { answer: string };
    for (const [, href] of answer.matchAll(/href="([^"]+)"/g)) {
      const link = sameOrigin(href!.replace(/&amp;/g, "&"), origin, origin);
      if (link) links.push(link);
    }
  }
  expect(links).toContain(`${origin}/apply`);
  expect(links).toContain(`${origin}/account`);
  const visited = await crawl(page, links, origin);
  await report(visited);
  expectAllFound(visited);
});

test("every site path README.md and docs/*.md name answers 200", async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const files = ["README.md", ...readdirSync(path.join(root, "docs")).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`)];
  const paths = new Set<string>();
  for (const file of files) {
    const text = readFileSync(path.join(root, file), "utf8");
    // Written for a development server or with the spec's host names; relative Markdown links to site paths.
    const found = [
      ...text.matchAll(/https?:\/\/localhost:3000(\/[^\s"'`<>)\]},]*)?/g).map((match) => match[1] ?? "/"),
      ...text.matchAll(/\{(?:base_url|js_url|apply_url)\}(\/[^\s"'`<>)\]},]*)/g).map((match) => match[1]!),
      ...text.matchAll(/\]\((\/[^)\s]*)\)/g).map((match) => match[1]!),
    ];
    for (const sitePath of found) {
      // Placeholders ($PAY, {id}) and elided examples (/apply/Xq3…) name no real page.
      if (/[{$…<]/.test(sitePath) || NOT_PAGES.some((pattern) => pattern.test(sitePath))) continue;
      paths.add(sitePath.replace(/[.,;:]+$/, ""));
    }
  }
  expect([...paths]).toEqual(expect.arrayContaining(["/", "/apply", "/v1/demo", "/docs/api"]));
  const visited = await crawl(page, [...paths].map((sitePath) => `${origin}${sitePath}`), origin);
  await report(visited);
  expectAllFound(visited);
});
