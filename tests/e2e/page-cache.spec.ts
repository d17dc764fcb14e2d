// The site's visitor-independent pages replayed from memory by our HTTP server (lib/pages/page-replay.ts), against
// the production server: a replayed view carries a nonce of its own on its policy, its scripts and its preload
// header, and still hydrates in Chromium with no console error or policy violation; the CSRF cookie is given as on
// a rendered view; a pricing change made with the admin CLI shows on the next view; /apply and any address with a
// query are rendered every time.
import { expect, test, type APIResponse, type Page } from "@playwright/test";
import { cli } from "./cli-project";
import { expectUnframeablePage, watchPolicyViolations } from "./page-policy";

const policyNonceOf = (policy: string | undefined) => /'nonce-([^']+)'/.exec(policy ?? "")?.[1];
const bodyNoncesOf = (html: string) => [...html.matchAll(/nonce="([^"]+)"/g)].map((match) => match[1]);

/** A view of `url` as a browser asks for a document, until one is served from the cache. */
async function replayedView(get: () => Promise<APIResponse>): Promise<APIResponse> {
  let response = await get();
  for (let tries = 0; response.headers()["x-page-cache"] !== "hit" && tries < 5; tries += 1) response = await get();
  return response;
}

function watchConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

const asDocument = { accept: "text/html" };

test("a second view of the home page is replayed with a nonce of its own on its policy, scripts and preload header", async ({ request }) => {
  const first = await request.get("/", { headers: asDocument });
  const second = await replayedView(() => request.get("/", { headers: asDocument }));
  expect(second.status()).toBe(200);
  expect(second.headers()["x-page-cache"]).toBe("hit");
  const [firstNonce, secondNonce] = [policyNonceOf(first.headers()["content-security-policy"]), policyNonceOf(second.headers()["content-security-policy"])];
  expect(secondNonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  expect(secondNonce).not.toBe(firstNonce);
  const html = await second.text();
  const nonces = bodyNoncesOf(html);
  expect(nonces.length).toBeGreaterThan(5);
  expect(new Set(nonces)).toEqual(new Set([secondNonce]));
  expect(html).not.toContain(firstNonce!);
  // Next writes the stylesheets' preload Link only when React knows them before its shell flushes, which a render
  // that first waits on data does not: the kept page may have none. Where it has one, it names this view's nonce
  // (the header's rewriting is tested deterministically in tests/api/site/page-cache.test.ts).
  const preload = second.headers()["link"];
  if (preload !== undefined) {
    expect(preload).toContain(`nonce="${secondNonce}"`);
    expect(preload).not.toContain(firstNonce!);
  }
  expect(second.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(second.headers()["x-content-type-options"]).toBe("nosniff");
});

test("a replayed page hydrates with no console error and no policy violation", async ({ page, request }) => {
  await replayedView(() => request.get("/products", { headers: asDocument }));
  const consoleErrors = watchConsoleErrors(page);
  const policyViolations = watchPolicyViolations(page);
  const response = await page.goto("/products");
  expect(response?.headers()["x-page-cache"]).toBe("hit");
  // Chromium takes gzip, and gets the replayed page gzipped as Next would have sent it.
  expect(response?.headers()["content-encoding"]).toBe("gzip");
  await expectUnframeablePage(response);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Products");
  // The banner and the chat panel appear only once React has taken over the page.
  await expect(page.getByRole("region", { name: "Cookies on this site" })).toBeVisible();
  await page.getByRole("button", { name: "Ask a question" }).click();
  await expect(page.getByRole("textbox")).toBeFocused();
  // A link followed in the page: Next's client router fetches the next page's payload, which is never replayed.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Help", exact: true }).click();
  await expect(page).toHaveURL(/\/faq$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Frequently asked questions");
  expect(consoleErrors).toEqual([]);
  expect(policyViolations).toEqual([]);
});

test("a replayed view gives a browser without the CSRF cookie one, and a browser with one none", async ({ playwright, baseURL }) => {
  const fresh = await playwright.request.newContext({ baseURL });
  await replayedView(() => fresh.get("/loyalty", { headers: { ...asDocument, cookie: "" } }));
  const without = await fresh.get("/loyalty", { headers: { ...asDocument, cookie: "" } });
  expect(without.headers()["x-page-cache"]).toBe("hit");
  expect(without.headers()["set-cookie"]).toMatch(/^svc_csrf=[A-Za-z0-9_-]{43}; Path=\/; SameSite=Strict$/);
  const token = "b".repeat(43);
  const withCookie = await fresh.get("/loyalty", { headers: { ...asDocument, cookie: `svc_csrf=${token}` } });
  expect(withCookie.headers()["x-page-cache"]).toBe("hit");
  expect(withCookie.headers()["set-cookie"]).toBeUndefined();
  await fresh.dispose();
});

test("HEAD of a replayed page answers its headers and no body", async ({ request }) => {
  await replayedView(() => request.get("/eligibility", { headers: asDocument }));
  const head = await request.head("/eligibility", { headers: asDocument });
  expect(head.status()).toBe(200);
  expect(head.headers()["x-page-cache"]).toBe("hit");
  expect(head.headers()["content-type"]).toBe("text/html; charset=utf-8");
  expect(Number(head.headers()["content-length"])).toBeGreaterThan(1000);
  expect(policyNonceOf(head.headers()["content-security-policy"])).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  expect(await head.body()).toHaveLength(0);
});

test("a pricing change made with the admin CLI shows on the next view of a replayed page", async ({ page, request }) => {
  await replayedView(() => request.get("/", { headers: asDocument }));
  await page.goto("/");
  await expect(page.getByText("£50 to £500 over 14 to 84 days").first()).toBeVisible();
  await cli("pricing", "set", "business_loan.amount_max_pounds", "600", "--note", "page cache e2e");
  try {
    await expect.poll(async () => (await request.get("/", { headers: asDocument })).text()).toContain("£600 over 14 to 84 days");
    await page.goto("/");
    await expect(page.getByText("£50 to £600 over 14 to 84 days").first()).toBeVisible();
  } finally {
    await cli("pricing", "set", "business_loan.amount_max_pounds", "500", "--note", "page cache e2e");
  }
  await expect.poll(async () => (await request.get("/", { headers: asDocument })).text()).toContain("£500 over 14 to 84 days");
});

test("/apply and any address with a query are rendered on every view", async ({ request }) => {
  for (const url of ["/apply", "/products?from=partner", "/quote", "/faq?q=loan"]) {
    await request.get(url, { headers: asDocument });
    const again = await request.get(url, { headers: asDocument });
    expect({ url, status: again.status(), cache: again.headers()["x-page-cache"] }).toEqual({ url, status: 200, cache: undefined });
  }
});
