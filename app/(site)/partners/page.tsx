// /partners — for partners who offer our finance to their customers, and the developers who integrate it.
import type { Metadata } from "next";

export const metadata: Metadata = { title: "Partners and developers", description: "Offer business finance in your product: the partner API, webhooks, the apply widget and MCP." };

export default function PartnersPage() {
  return (
    <main className="page">
      <h1>Partners and developers</h1>
      <p className="lede">
        Offer business loans and Flex to the companies you already serve. Your customers apply in your product or in our hosted
        journey; we decide, lend and collect.
      </p>
      <h2>Ways to integrate</h2>
      <ul>
        <li>
          <strong>Partner API</strong>: create applications, follow decisions, read accounts and payments, with OAuth 2.0 client
          credentials, idempotent writes and cursor pagination.
        </li>
        <li>
          <strong>Webhooks</strong>: signed events for every change to an application, account or payment.
        </li>
        <li>
          <strong>Apply widget</strong>: one script tag and a publishable key open the hosted journey on your own page.
        </li>
        <li>
          <strong>MCP servers</strong>: a public one for product questions and quotes, and a partner one for your own loans.
        </li>
        <li>
          <strong>Public API</strong>: products, pricing, quotes and the loyalty ladder, with no key needed.
        </li>
      </ul>
      <p className="actions">
        {/* A whole load: the reference has a Content-Security-Policy of its own (lib/pages/security-headers.ts). */}
        <a className="button" href="/docs/api">
          Read the API reference
        </a>
        <a className="button button--secondary" href="/contact">
          Talk to us about partnering
        </a>
      </p>
      <h2>Two scales of Business Loan</h2>
      <p>
        Applications through the partner API are business term loans, in pence and months with an APR. The public quote
        endpoint and the public MCP server quote the short-term Business Loan, in pounds and days. The{" "}
        <a href="/products">products page</a> sets out both.
      </p>
    </main>
  );
}
