// The API reference page (/docs/api) in Chromium: linked from the home page, the server-rendered index of every
// route, the full reference rendered from our own origin (no request leaves it), and no serious or critical
// accessibility violation on a desktop or a phone. Also: API replies carry no Vary on Next's router headers.
import { expect, test, type Page } from "@playwright/test";
import { expectUnframeablePage, watchPolicyViolations } from "./page-policy";
import { seriousViolations } from "./accessibility";

const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
];

/** Console errors and requests to any other origin, collected while the page is used. */
function watch(page: Page, origin: string) {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("request", (request) => {
    if (!request.url().startsWith(origin) && !request.url().startsWith("data:")) problems.push(`request to ${request.url()}`);
  });
  return problems;
}

test("the home page links to the API reference", async ({ page, baseURL }) => {
  const problems = watch(page, baseURL!);
  const policyViolations = watchPolicyViolations(page);
  await expectUnframeablePage(await page.goto("/"));
  await page.getByRole("main").getByRole("link", { name: "API reference" }).click();
  await expect(page).toHaveTitle("API reference · Lending Platform");
  // Once the full reference has rendered it names the open document, and then its section, in the address
  // (`#partner-api`, `#partner-api/description/introduction`) at moments of its own: the link's target is the
  // path, with or without the page's own hash.
  await expect(page.getByRole("heading", { name: "Partner API", level: 1 })).toBeVisible({ timeout: 15_000 });
  await expect(page).toHaveURL((url) => url.pathname === "/docs/api" && url.search === "" && (url.hash === "" || url.hash.startsWith("#partner-api")));
  expect(problems).toEqual([]);
  expect(policyViolations).toEqual([]);
});

test("without JavaScript the page lists every route, served by the server", async ({ browser, request }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/docs/api");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("API reference");
  const partner = (await (await request.get("/openapi/partner.json")).json()) as { paths: Record<string, Record<string, unknown>> };
  const operations = Object.values(partner.paths).reduce((count, methods) => count + Object.keys(methods).length, 0);
  await expect(page.getByRole("table", { name: "Partner API operations" }).getByRole("row")).toHaveCount(operations + 1);
  await expect(page.getByRole("row", { name: /POST \/partner\/v1\/applications Create an application/ })).toBeVisible();
  await context.close();
});

for (const viewport of VIEWPORTS) {
  test(`the full reference renders from our own origin, accessibly, on a ${viewport.name}`, async ({ browser, baseURL }) => {
    // axe walks every operation of the full reference, the largest page we serve: on a busy two-CPU machine with
    // another spec file beside it that alone can approach the default 30 s.
    test.slow();
    const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
    const page = await context.newPage();
    const problems = watch(page, baseURL!);
    const policyViolations = watchPolicyViolations(page);
    await expectUnframeablePage(await page.goto("/docs/api"));
    // Scalar replaces the index with the full reference, which opens on the partner document.
    await expect(page.getByRole("heading", { name: "Partner API", level: 1 })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole("heading", { name: "List accounts", level: 3 })).toBeVisible();
    await expect(page.getByRole("table", { name: "Partner API operations" })).toBeHidden();
    await page.screenshot({ path: `test-results/api-reference-${viewport.name}.png` });
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    expect(policyViolations).toEqual([]);
    await context.close();
  });
}

test("API replies do not vary on Next's router headers; pages still do", async ({ request }) => {
  for (const path of ["/healthz", "/public/v1/products", "/openapi/public.json", "/partner/v1/oauth/jwks"]) {
    const vary = (await request.get(path)).headers()["vary"] ?? "";
    expect(vary, path).not.toMatch(/rsc|next-router/i);
  }
  const page = await request.get("/");
  expect(page.headers()["vary"]).toMatch(/rsc/i);
});
