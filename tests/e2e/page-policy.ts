// A page's Content-Security-Policy in the browser: what its response said about framing, and every violation
// Chromium reported while the page was used (it reports each on the console, whichever document it was in).
import { expect, type Page, type Response } from "@playwright/test";

/** Starts collecting the policy violations Chromium reports on `page`; read the list once the page is done. */
export function watchPolicyViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

/** The response was a page with a nonce policy that lets no other page frame it. */
export async function expectUnframeablePage(response: Response | null): Promise<void> {
  const policy = (await response!.allHeaders())["content-security-policy"] ?? "";
  expect(policy).toMatch(/(^|; )script-src 'self' 'nonce-[^']+' 'strict-dynamic'(;|$)/);
  expect(policy).toMatch(/(^|; )frame-ancestors 'none'(;|$)/);
}
