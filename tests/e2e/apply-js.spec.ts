// apply.js in Chromium behind the production server (docs/apply-js.md): a partner's page on another origin, with
// the Content-Security-Policy the docs advise, embeds the script, opens the widget, and the journey runs in its
// frame to a funded account, after which onComplete fires with the application's id; the dialog is a modal that
// keeps focus and closes on Escape; a third origin cannot frame the journey; on a phone the journey takes the
// whole window and comes back with application_id. The demo page passes axe on a desktop and a phone, with no
// console error.
import { mkdtempSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, test, type FrameLocator, type Page } from "@playwright/test";
import { cliWith, createProjectWithCli, sandboxHeaders, type CliProject } from "./cli-project";
import { expectUnframeablePage, watchPolicyViolations } from "./page-policy";
import { seriousViolations } from "./accessibility";

// Approved in the sandbox, with ample Sandbox Bank turnover (docs/sandbox.md).
const APPROVED = "12990042";

interface PartnerSite {
  origin: string;
  close(): Promise<void>;
}

/**
 * A partner's shop on an origin of its own: one page that loads apply.js from the platform and opens it from a
 * button, under the policy docs/apply-js.md advises (no 'unsafe-inline' of any kind), and one page that tries to
 * frame a journey it did not start.
 */
async function startPartnerSite(platform: string, publishableKey: string): Promise<PartnerSite> {
  const policy = `default-src 'none'; script-src 'self' ${platform}; connect-src ${platform}; frame-src ${platform}; style-src 'self'; base-uri 'none'`;
  const pages: Record<string, { type: string; body: string }> = {
    "/": {
      type: "text/html",
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Northwind Supplies: checkout</title>
<script src="${platform}/v1/apply.js" defer></script><script src="/shop.js" defer></script></head>
<body><main><h1>Your basket</h1><p>Office chairs, 40 of them: £25,000.</p>
<button type="button" id="apply" data-key="${publishableKey}">Apply for finance</button>
<p>What the widget said: <output id="result"></output></p></main></body></html>`,
    },
    "/shop.js": {
      type: "text/javascript",
      body: `document.getElementById("apply").addEventListener("click", function (event) {
  var result = document.getElementById("result");
  LendingApply.open({
    publishableKey: event.currentTarget.getAttribute("data-key"),
    amountPence: 2500000,
    termMonths: 12,
    companyNumber: "${APPROVED}",
    applicant: { first_name: "Ada", email: "ada@example.co.uk" },
    reference: "basket-42",
    onComplete: function (done) { result.textContent = "complete " + done.application_id; },
    onClose: function (closed) { result.textContent = "closed " + closed.application_id; },
    onError: function (error) { result.textContent = "error " + error.code; }
  });
});`,
    },
  };
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://partner");
    if (url.pathname === "/frame") {
      // Another site framing a journey by its address.
      response.writeHead(200, { "content-type": "text/html" });
      response.end(`<!doctype html><html lang="en"><head><title>Not the partner</title></head><body><iframe title="stolen" src="${url.searchParams.get("src")}"></iframe></body></html>`);
      return;
    }
    const page = pages[url.pathname];
    if (!page) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": `${page.type}; charset=utf-8`, "content-security-policy": policy });
    response.end(page.body);
  });
  server.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

type CliProjectWithKeys = CliProject & { sandbox: { publishable_key: string } };

async function sandboxPublishableKey(name: string): Promise<string> {
  return ((await createProjectWithCli(name)) as CliProjectWithKeys).sandbox.publishable_key;
}

function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

/** A screenshot to look at: the whole page, or what the viewport shows (a modal over the page is fixed to it). */
async function screenshot(page: Page, label: string, { fullPage = true } = {}) {
  await page.screenshot({ path: test.info().outputPath(`${label}.png`), fullPage });
}

/** The journey's steps up to the offer, as the applicant answers them (in the widget's frame or the whole window). */
async function walkToOffer(journey: Page | FrameLocator) {
  await expect(journey.getByRole("heading", { level: 1 })).toHaveText("Your company");
  await journey.getByLabel("The company's annual turnover").fill("500000");
  await journey.getByRole("button", { name: "Continue" }).click();
  await expect(journey.getByRole("heading", { level: 1 })).toHaveText("Your loan");
  await journey.getByLabel("How much would you like to borrow?").fill("20000");
  await journey.getByLabel("Over how long?").fill("12");
  await journey.getByLabel("What is the money for?").selectOption("working_capital");
  await journey.getByRole("button", { name: "Continue" }).click();
  await expect(journey.getByRole("heading", { level: 1 })).toHaveText("About you");
  await expect(journey.getByLabel("First name").first()).toHaveValue("Ada");
  await journey.getByLabel("Last name").first().fill("Lovelace");
  const dateOfBirth = journey.getByRole("group", { name: "Date of birth" }).first();
  await dateOfBirth.getByLabel("Day").fill("23");
  await dateOfBirth.getByLabel("Month").fill("4");
  await dateOfBirth.getByLabel("Year").fill("1980");
  await journey.getByRole("radio", { name: "Director (or designated member of an LLP)" }).check();
  await journey.getByRole("button", { name: "Continue" }).click();
  await expect(journey.getByRole("heading", { level: 1 })).toHaveText("Other directors");
  await journey.getByRole("button", { name: "Continue", exact: true }).click();
  await expect(journey.getByRole("heading", { level: 1 })).toHaveText("Your bank");
  await journey.getByRole("button", { name: "Connect Sandbox Bank" }).click();
  await expect(journey.getByRole("heading", { level: 1 })).toHaveText("Check your answers before submitting your application");
  for (const box of await journey.getByRole("checkbox").all()) await box.check();
  await journey.getByRole("button", { name: "Submit application" }).click();
  await expect(journey.getByRole("heading", { level: 1 })).toHaveText("Your offer", { timeout: 15_000 });
}

async function acceptOffer(journey: Page | FrameLocator) {
  await journey.getByLabel("Type your full name to sign").fill("Ada Lovelace");
  await journey.getByRole("button", { name: "Accept offer" }).click();
}

let partnerProject: CliProjectWithKeys;
let partner: PartnerSite;
let stranger: PartnerSite;

// A whole journey, decisioning included, takes longer than the suite's default.
test.describe.configure({ timeout: 60_000 });

test.beforeAll(async ({ baseURL }) => {
  partnerProject = (await createProjectWithCli("E2E apply.js partner")) as CliProjectWithKeys;
  partner = await startPartnerSite(baseURL!, partnerProject.sandbox.publishable_key);
  stranger = await startPartnerSite(baseURL!, "pk_sandbox_none");
});
test.afterAll(async () => {
  await partner?.close();
  await stranger?.close();
});

test("a partner's page on another origin runs the journey in the widget's frame to a funded account, and onComplete fires", async ({ browser, request }) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const consoleErrors = watchConsole(page);
  await page.goto(partner.origin);
  const started = page.waitForResponse((response) => response.url().endsWith("/apply/v1/applications") && response.request().method() === "POST");
  await page.getByRole("button", { name: "Apply for finance" }).click();
  const handoff = (await (await started).json()) as { id: string; handoff_url: string };
  expect((await started).status()).toBe(201);

  const dialog = page.getByRole("dialog", { name: "Apply for business finance" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAttribute("aria-modal", "true");
  await expect(page.getByRole("button", { name: "Close the application" })).toBeFocused();
  const journey = page.frameLocator('iframe[title="Business finance application"]');
  await expect(journey.getByRole("heading", { level: 1 })).toHaveText("Your company");
  await screenshot(page, "widget-1-open", { fullPage: false });

  // The journey answers the partner's origin, and only it, in frame-ancestors.
  const headers = (await request.get(new URL(handoff.handoff_url).pathname + "/company")).headers();
  expect(/frame-ancestors ([^;]+)/.exec(headers["content-security-policy"]!)?.[1]).toBe(`'self' ${partner.origin}`);

  // Focus stays in the dialog: back from its first element to the frame, forward from the close button into it.
  await page.keyboard.press("Shift+Tab");
  expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("IFRAME");
  await page.getByRole("button", { name: "Close the application" }).focus();
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("IFRAME");

  await walkToOffer(journey);
  await screenshot(page, "widget-2-offer", { fullPage: false });
  await acceptOffer(journey);

  await expect(dialog).toBeHidden();
  await expect(page.locator("#result")).toHaveText(`complete ${handoff.id}`);
  await expect(page.getByRole("button", { name: "Apply for finance" })).toBeFocused();
  await screenshot(page, "widget-3-complete");
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test("the widget closes on Escape from inside the journey, and opening again resumes the same application", async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  const consoleErrors = watchConsole(page);
  await page.goto(partner.origin);
  await page.getByRole("button", { name: "Apply for finance" }).click();
  const journey = page.frameLocator('iframe[title="Business finance application"]');
  await journey.getByLabel("The company's annual turnover").fill("500000");
  await journey.getByRole("button", { name: "Continue" }).click();
  await expect(journey.getByRole("heading", { level: 1 })).toHaveText("Your loan");
  await journey.getByLabel("How much would you like to borrow?").fill("20000");
  await journey.getByLabel("Over how long?").fill("12");
  await journey.getByLabel("What is the money for?").selectOption("working_capital");
  await journey.getByRole("button", { name: "Continue" }).click();
  await expect(journey.getByRole("heading", { level: 1 })).toHaveText("About you");

  await journey.getByLabel("Last name").first().press("Escape");
  await expect(page.getByRole("dialog")).toBeHidden();
  await expect(page.locator("#result")).toHaveText(/^closed app_[0-9a-z]+$/);
  const closed = (await page.locator("#result").textContent())!.replace("closed ", "");
  await expect(page.getByRole("button", { name: "Apply for finance" })).toBeFocused();

  await page.getByRole("button", { name: "Apply for finance" }).click();
  await expect(journey.getByRole("heading", { level: 1 })).toHaveText("About you");
  await page.getByRole("button", { name: "Close the application" }).click();
  await expect(page.locator("#result")).toHaveText(`closed ${closed}`);
  await page.getByRole("button", { name: "Apply for finance" }).click();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toBeHidden();
  expect(consoleErrors).toEqual([]);
});

test("a page on an origin that did not start the application cannot frame its journey", async ({ page, request, baseURL }) => {
  const started = await request.post("/apply/v1/applications", {
    headers: { origin: partner.origin },
    data: { publishable_key: await sandboxPublishableKey("E2E apply.js framing"), business: { company_number: APPROVED }, amount_pence: 2_500_000, term_months: 12 },
  });
  expect(started.status()).toBe(201);
  const { handoff_url: handoffUrl } = (await started.json()) as { handoff_url: string };
  const company = `${handoffUrl.replace(/^https?:\/\/[^/]+/, baseURL!)}/company`;

  await page.goto(`${stranger.origin}/frame?src=${encodeURIComponent(company)}`);
  const frame = page.frameLocator('iframe[title="stolen"]');
  await expect(frame.getByRole("heading", { name: "Your company" })).toHaveCount(0);
  await expect.poll(() => page.frames().find((candidate) => candidate !== page.mainFrame())?.url()).toMatch(/^chrome-error:/);

  // The partner that started it can.
  await page.goto(`${partner.origin}/frame?src=${encodeURIComponent(company)}`);
  await expect(frame.getByRole("heading", { name: "Your company" })).toBeVisible();
});

test("on a phone the journey takes the whole window and comes back to the partner's page with application_id", async ({ browser, request }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const consoleErrors = watchConsole(page);
  await page.goto(`${partner.origin}/?basket=42`);
  await page.getByRole("button", { name: "Apply for finance" }).click();
  await page.waitForURL(/\/apply\/[0-9A-Za-z]+\/company$/);
  const journeyPath = new URL(page.url()).pathname.replace(/\/company$/, "");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await screenshot(page, "phone-1-journey");
  await walkToOffer(page);
  await acceptOffer(page);
  await page.waitForURL((url) => url.origin === partner.origin);
  const back = new URL(page.url());
  expect(back.searchParams.get("basket")).toBe("42");
  // The id the partner's page got back is the application the browser ran, funded, as the partner's server reads it.
  const application = await request.get(`/partner/v1/applications/${back.searchParams.get("application_id")}`, { headers: await sandboxHeaders(request, partnerProject) });
  expect(application.status()).toBe(200);
  const funded = (await application.json()) as { status: string; handoff_url: string };
  expect(funded.status).toBe("funded");
  expect(new URL(funded.handoff_url).pathname).toBe(journeyPath);
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test.describe("the demo page", () => {
  test.beforeAll(async ({}, testInfo) => {
    // `npm start` does not seed the demo project; the admin CLI does, keeping its credentials apart from a developer's.
    // It registers the demo page's origin on the demo key, so it is told the server's address, as the server is.
    await cliWith({ BASE_URL: testInfo.project.use.baseURL!, DEMO_CREDENTIALS_FILE: path.join(mkdtempSync(path.join(os.tmpdir(), "apply-js-demo-")), "demo.json") }, "seed", "--json");
  });

  for (const viewport of [
    { name: "desktop", width: 1280, height: 900 },
    { name: "phone", width: 390, height: 844 },
  ]) {
    test(`passes axe with no console error on a ${viewport.name}`, async ({ browser }) => {
      const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
      const page = await context.newPage();
      const consoleErrors = watchConsole(page);
      const policyViolations = watchPolicyViolations(page);
      // The demo frames the journey; nothing frames the demo.
      await expectUnframeablePage(await page.goto("/v1/demo"));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Offer business finance on your own page");
      await expect(page.getByRole("button", { name: "Apply for business finance" })).toBeEnabled();
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `demo-${viewport.name}`);
      expect(consoleErrors).toEqual([]);
      expect(policyViolations).toEqual([]);
      await context.close();
    });
  }

  test("opens the widget with the demo project's key and reports onComplete", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    const consoleErrors = watchConsole(page);
    const policyViolations = watchPolicyViolations(page);
    await expectUnframeablePage(await page.goto("/v1/demo"));
    await page.getByLabel("Amount").selectOption("25000");
    await page.getByRole("button", { name: "Apply for business finance" }).click();
    const journey = page.frameLocator('iframe[title="Business finance application"]');
    await expect(journey.getByRole("heading", { level: 1 })).toHaveText("Your company");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "demo-widget-open", { fullPage: false });
    await walkToOffer(journey);
    await acceptOffer(journey);
    await expect(page.getByRole("status").filter({ hasText: "onComplete" })).toHaveText(/^onComplete: application app_[0-9a-z]+ is complete/);
    await screenshot(page, "demo-complete");
    expect(consoleErrors).toEqual([]);
    expect(policyViolations).toEqual([]);
  });
});
