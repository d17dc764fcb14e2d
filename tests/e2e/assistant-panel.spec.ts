// The site assistant's chat panel in Chromium behind the production server (issue 29 items 2 and 7, spec 4.1): the
// home page sets the `svc_csrf` cookie, the panel opens, asks and answers with the keyboard alone, shows the
// visitor's markup as text, hands account questions to sign-in, closes on Escape, stays off the API reference and the dashboard,
// and has no serious or critical accessibility violation, open, on a desktop and on a phone.
import { expect, test, type Page } from "@playwright/test";
import { expectUnframeablePage, watchPolicyViolations } from "./page-policy";
import { seriousViolations } from "./accessibility";

const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
];

// The assistant's bucket is per address: this spec speaks from addresses of its own (playwright.config.ts trusts
// x-forwarded-for), one per test, so no test waits on another's questions.
let lastAddress = 0;
async function speakFromOwnAddress(page: Page): Promise<void> {
  await page.setExtraHTTPHeaders({ "x-forwarded-for": `203.0.113.${++lastAddress}` });
}

function watchConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  return errors;
}

/** Tabs from the top of the page until the launcher has focus, as a keyboard user reaches it. */
async function tabToLauncher(page: Page): Promise<void> {
  const launcher = page.getByRole("button", { name: "Ask a question" });
  for (let press = 0; press < 80; press += 1) {
    await page.keyboard.press("Tab");
    if (await launcher.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error("the launcher was not reached with Tab");
}

test("the home page sets svc_csrf: random, SameSite=Strict, readable by the page's script", async ({ page, context, baseURL }) => {
  await speakFromOwnAddress(page);
  await expectUnframeablePage(await page.goto("/"));
  const cookie = (await context.cookies(baseURL!)).find((candidate) => candidate.name === "svc_csrf");
  expect(cookie).toMatchObject({ sameSite: "Strict", httpOnly: false, secure: false, path: "/" });
  expect(cookie!.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
  await page.reload();
  expect((await context.cookies(baseURL!)).find((candidate) => candidate.name === "svc_csrf")!.value).toBe(cookie!.value);
});

test("a keyboard user opens the panel, asks, gets answers with links, and closes it", async ({ page, baseURL }) => {
  await speakFromOwnAddress(page);
  const consoleErrors = watchConsoleErrors(page);
  const policyViolations = watchPolicyViolations(page);
  await page.goto("/");
  await tabToLauncher(page);
  const launcher = page.getByRole("button", { name: "Ask a question" });
  await expect(launcher).toHaveAttribute("aria-expanded", "false");
  await page.keyboard.press("Enter");

  const panel = page.getByRole("dialog", { name: "Ask a question" });
  await expect(panel).toBeVisible();
  await expect(launcher).toHaveAttribute("aria-expanded", "true");
  const question = panel.getByLabel("Your question");
  await expect(question).toBeFocused();
  await expect(question).toHaveAttribute("maxlength", "500");

  await page.keyboard.type("Who can borrow?");
  await page.keyboard.press("Enter");
  const log = panel.getByRole("log");
  await expect(log).toContainText("We lend only to UK limited companies and LLPs");
  await expect(log.getByRole("link", { name: "Apply online" })).toHaveAttribute("href", `${baseURL}/apply`);
  await expect(question).toBeFocused();
  await expect(question).toHaveValue("");

  await page.keyboard.type("What is my balance?");
  await page.keyboard.press("Enter");
  await expect(log.getByRole("link", { name: "sign in" })).toHaveAttribute("href", `${baseURL}/account`);

  await page.keyboard.press("Escape");
  await expect(panel).toBeHidden();
  await expect(launcher).toBeFocused();
  await expect(launcher).toHaveAttribute("aria-expanded", "false");
  expect(consoleErrors).toEqual([]);
  expect(policyViolations).toEqual([]);
});

test("the visitor's markup is shown as text and never runs", async ({ page }) => {
  await speakFromOwnAddress(page);
  await page.goto("/");
  const title = await page.title();
  await page.getByRole("button", { name: "Ask a question" }).click();
  const panel = page.getByRole("dialog", { name: "Ask a question" });
  const typed = `<img src=x onerror="document.title='owned'"> what is flex?`;
  await panel.getByLabel("Your question").fill(typed);
  await panel.getByRole("button", { name: "Send" }).click();
  const log = panel.getByRole("log");
  await expect(log).toContainText("Flex is a revolving business credit facility");
  await expect(log).toContainText(typed);
  await expect(log.locator("img")).toHaveCount(0);
  await expect(page).toHaveTitle(title);
});

test("the panel stays off the API reference and the partner dashboard", async ({ page }) => {
  for (const path of ["/docs/api", "/dashboard/sign-in"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
    await expect(page.getByRole("button", { name: "Ask a question" })).toHaveCount(0);
  }
});

for (const viewport of VIEWPORTS) {
  test(`the open panel with an answer has no serious or critical accessibility violation (${viewport.name})`, async ({ page }, testInfo) => {
    await speakFromOwnAddress(page);
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto("/");
    await page.getByRole("button", { name: "Ask a question" }).click();
    const panel = page.getByRole("dialog", { name: "Ask a question" });
    await panel.getByLabel("Your question").fill("How much can I borrow with a business loan?");
    await panel.getByRole("button", { name: "Send" }).click();
    await expect(panel.getByRole("log")).toContainText("Short-term Business Loan (the scale our online quote uses)");
    const box = await panel.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
    await page.screenshot({ path: testInfo.outputPath(`assistant-panel-${viewport.name}.png`) });
    expect(await seriousViolations(page)).toEqual([]);
  });
}
