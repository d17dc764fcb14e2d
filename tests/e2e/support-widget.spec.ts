// The support widget in Chromium behind the production server (`npm start`) (spec 4.8): embedded with one script tag on a page of
// the site's origin, it opens a chat dialog, gets a reply from the assistant, and closes on Escape.
import { expect, test, type Page } from "@playwright/test";

/** A page on the site's origin (so the chat's CORS rule admits it) whose only content is the widget's tag. */
async function openPageWithWidget(page: Page, baseURL: string): Promise<void> {
  await page.goto(`${baseURL}/healthz`);
  await page.setContent(
    `<!doctype html><html lang="en"><head><title>Widget host</title></head>` +
      `<body><h1>Widget host</h1><script src="${baseURL}/public/v1/support/widget.js" defer></script></body></html>`,
  );
}

test("the widget answers who can borrow and closes on Escape, returning focus to the launcher", async ({ page, baseURL }) => {
  await openPageWithWidget(page, baseURL!);
  const launcher = page.getByRole("button", { name: "Open support chat" });
  await expect(launcher).toHaveAttribute("aria-expanded", "false");
  await expect(page.locator(`link[rel="stylesheet"][href="${baseURL}/public/v1/support/widget.css"]`)).toHaveCount(1);

  await launcher.click();
  const dialog = page.getByRole("dialog", { name: "Support" });
  await expect(dialog).toBeVisible();
  await expect(launcher).toHaveAttribute("aria-expanded", "true");
  const input = dialog.getByLabel("Your message");
  await expect(input).toBeFocused();
  await expect(input).toHaveAttribute("maxlength", "1000");

  await input.fill("Who can borrow?");
  await dialog.getByRole("button", { name: "Send" }).click();
  const log = dialog.getByRole("log");
  await expect(log.locator(".svc-support__message--visitor")).toHaveText("Who can borrow?");
  await expect(log.locator(".svc-support__message--assistant").last()).toContainText("limited companies and LLPs");
  const sessionId = await page.evaluate(() => window.sessionStorage.getItem("supportChatSessionId"));
  expect(sessionId).toMatch(/^sess_[0-9a-z]{26}$/);

  await input.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(launcher).toBeFocused();
  await expect(launcher).toHaveAttribute("aria-expanded", "false");
});

test("the widget shows the visitor's markup as text and offers sign-in for an account question", async ({ page, baseURL }) => {
  await openPageWithWidget(page, baseURL!);
  await page.getByRole("button", { name: "Open support chat" }).click();
  const dialog = page.getByRole("dialog", { name: "Support" });
  const input = dialog.getByLabel("Your message");

  await input.fill(`<img src=x onerror="document.title='owned'"> what is my balance?`);
  await dialog.getByRole("button", { name: "Send" }).click();
  const log = dialog.getByRole("log");
  await expect(log.locator(".svc-support__message--visitor")).toHaveText(`<img src=x onerror="document.title='owned'"> what is my balance?`);
  await expect(log.getByRole("link", { name: "Sign in to your account" })).toBeVisible();
  await expect(log.locator("img")).toHaveCount(0);
  await expect(page).toHaveTitle("Widget host");
});
