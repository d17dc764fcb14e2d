// The payment page's server render (app/(apply)/pay/[token]/page.tsx) for each state of its link, against the
// real database: what the payer reads, the form the sandbox bank posts, and the way back to the partner. The
// browser behaviour (no JavaScript, accessibility, phones) is tests/e2e/payment-link.spec.ts.
import { renderToStaticMarkup } from "react-dom/server";
import { beforeEach, describe, expect, it } from "vitest";
import PaymentLinkPage, { generateMetadata } from "@/app/(apply)/pay/[token]/page";
import { formatPounds } from "@/lib/money";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { createPaymentLink } from "@/lib/accounts/payment-links";
import { recordBankAnswer } from "@/lib/accounts/payment-settlement";
import type { Tenant } from "@/lib/tenant";
import { fundedAccount } from "../../database/accounts/helpers";
import { createTestProject } from "../../helpers/partner";
import { tenantNow } from "@/lib/tenant-clock";

const NOW = "2027-07-01T09:30:00.000Z";

let tenant: Tenant;
let clock: ReturnType<typeof freezeClock>;

beforeEach(async () => {
  clock = freezeClock(NOW);
  tenant = { projectId: (await createTestProject()).project_id, environment: "sandbox" };
});

async function link(input: { amount_pence: number; reference?: string; redirect_uri?: string }) {
  const account = await fundedAccount(tenant);
  const payment = await db().$transaction(async (transaction) => createPaymentLink({ tenant, now: await tenantNow(tenant), input: { account_id: account.id, ...input }, transaction }));
  const row = await db().payment.findUniqueOrThrow({ where: { id: payment.id } });
  return { payment, linkToken: row.linkToken!, formToken: row.formToken! };
}

async function render(token: string) {
  const params = Promise.resolve({ token });
  const [element, metadata] = await Promise.all([PaymentLinkPage({ params }), generateMetadata({ params })]);
  const html = renderToStaticMarkup(element);
  // Text as a reader gets it: tags out, entities back, spaces collapsed.
  const text = html.replace(/<[^>]+>/g, " ").replace(/&#x27;/g, "'").replace(/&amp;/g, "&").replace(/\s+/g, " ").trim();
  return { html, text, title: metadata.title };
}

describe("formatPounds", () => {
  it("writes pence as pounds with separators, without floating point", () => {
    expect([0, 5, 99, 100, 123_456, 100_000_000, 2_147_483_647].map(formatPounds)).toEqual(["£0.00", "£0.05", "£0.99", "£1.00", "£1,234.56", "£1,000,000.00", "£21,474,836.47"]);
  });
});

describe("the payment page", () => {
  it("shows a payable sandbox link: amount, borrower, reference, and the bank's form with its token", async () => {
    const { linkToken, formToken } = await link({ amount_pence: 123_456, reference: "inv-2026-11", redirect_uri: "https://partner.example/paid" });
    const { html, text, title } = await render(linkToken);
    expect(title).toBe("Pay by bank");
    expect(text).toContain("Pay £1,234.56 by bank");
    expect(text).toContain("Amount £1,234.56 Towards the account of Sandbox Trading 12345678 Ltd Reference inv-2026-11");
    expect(text).toContain("Sandbox Bank This is a sandbox payment: no real money moves.");
    expect(text).toContain("This link can be used until 2 July 2027 at 10:30 UK time.");
    expect(html).toMatch(new RegExp(`<form (?=[^>]*method="post")(?=[^>]*action="/pay/${linkToken}/bank")[^>]*>`));
    expect(html).toContain(`<input type="hidden" name="form_token" value="${formToken}"/>`);
    expect(html).toMatch(/<button (?=[^>]*type="submit")(?=[^>]*name="decision")(?=[^>]*value="approve")[^>]*>Approve payment of £1,234.56<\/button>/);
    expect(html).toMatch(/<button (?=[^>]*type="submit")(?=[^>]*name="decision")(?=[^>]*value="fail")[^>]*>Fail payment<\/button>/);
    // No way back until the payer is done.
    expect(html).not.toContain("partner.example");
  });

  it("shows a settled link's outcome and the way back with payment_id, and no form", async () => {
    const { payment, linkToken } = await link({ amount_pence: 5_000, redirect_uri: "https://partner.example/paid?order=42" });
    clock.set("2027-07-01T10:00:00.000Z");
    await recordBankAnswer({ tenant, now: await tenantNow(tenant), id: payment.id, answer: { outcome: "settled" } });
    const { html, text, title } = await render(linkToken);
    expect(title).toBe("Payment received");
    expect(text).toContain("Payment received Thank you. £50.00 has been paid towards the account of Sandbox Trading 12345678 Ltd on 1 July 2027 at 11:00 UK time.");
    expect(html).toContain(`<a class="payment-return" href="https://partner.example/paid?order=42&amp;payment_id=${payment.id}" rel="noreferrer">Continue to partner.example</a>`);
    expect(html).not.toContain("<form");
  });

  it("says why a failed link failed and that nothing was taken", async () => {
    const { payment, linkToken } = await link({ amount_pence: 5_000 });
    await recordBankAnswer({ tenant, now: await tenantNow(tenant), id: payment.id, answer: { outcome: "failed", failureCode: "insufficient_funds" } });
    const { html, text, title } = await render(linkToken);
    expect(title).toBe("Payment not completed");
    expect(text).toContain("Payment not completed There was not enough money in the account to make the payment. No money has been taken.");
    expect(text).toContain("ask the company that sent you this link for a new one");
    expect(html).not.toContain("<form");
    expect(html).not.toContain("payment-return");
  });

  it("says an expired link has expired, with no form", async () => {
    const { linkToken } = await link({ amount_pence: 5_000, redirect_uri: "https://partner.example/back" });
    clock.set("2027-07-02T09:30:00.000Z");
    const { html, text, title } = await render(linkToken);
    expect(title).toBe("Payment link expired");
    expect(text).toContain("This payment link has expired It could be used until 2 July 2027 at 10:30 UK time. No money has been taken.");
    expect(html).not.toContain("<form");
    expect(html).toContain("Continue to partner.example");
  });

  it("shows a pending link in progress", async () => {
    const { payment, linkToken } = await link({ amount_pence: 5_000, redirect_uri: "https://partner.example/back" });
    await db().payment.update({ where: { id: payment.id }, data: { status: "pending" } });
    const { html, text } = await render(linkToken);
    expect(text).toContain("Payment in progress Your bank is processing the payment.");
    expect(html).not.toContain("<form");
    expect(html).not.toContain("partner.example");
  });

  it("is not found for a token of no link, or a malformed one", async () => {
    for (const token of ["A".repeat(32), "short", "../etc"]) {
      await expect(PaymentLinkPage({ params: Promise.resolve({ token }) })).rejects.toThrow();
      expect((await generateMetadata({ params: Promise.resolve({ token }) })).title).toBe("Payment link not found");
    }
  });
});
