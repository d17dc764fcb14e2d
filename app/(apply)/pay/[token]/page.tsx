// /pay/{token} on the hosted site — a payment link's page (docs/payments.md, "The payment page"): the amount,
// whose account it pays towards and the reference; in the sandbox, a simulated bank whose Approve and Fail
// buttons post a plain HTML form (no JavaScript needed). Once the link is paid, failed or expired, the page
// says so and offers the way back to the partner's `redirect_uri`, with `payment_id` appended.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { readPageValues } from "@/lib/wire/page-values";
import { paymentPageFor, type PaymentPage } from "@/lib/accounts/payment-links";
import { paymentLinkTokenParamsSchema } from "@/lib/payments/schemas";
import type { PaymentFailureCode } from "@/lib/payments/schemas";
import { formatPounds } from "@/lib/money";
import { formatUkTime } from "../../format";
import "../../hosted.css";
import "./payment-page.css";

export const dynamic = "force-dynamic";

// The address carries the link's token: keep it out of search engines and out of any Referer sent to another
// site. (`no-referrer` would also blank the Origin of our own form posts, which the form handler checks.)
const PRIVATE_PAGE: Metadata = { robots: { index: false, follow: false }, referrer: "same-origin" };

type Props = { params: Promise<{ token: string }> };

const TITLES: Record<PaymentPage["state"], string> = {
  payable: "Pay by bank",
  expired: "Payment link expired",
  pending: "Payment in progress",
  settled: "Payment received",
  failed: "Payment not completed",
};

const FAILURE_EXPLANATIONS: Record<PaymentFailureCode, string> = {
  bank_rejected: "Your bank declined the payment.",
  insufficient_funds: "There was not enough money in the account to make the payment.",
  disputed_by_customer: "The payment was disputed with the bank.",
  mandate_cancelled: "The bank's authority for the payment was cancelled.",
  technical_error: "A technical problem stopped the payment.",
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const page = await pageOf(params);
  return { ...PRIVATE_PAGE, title: page ? TITLES[page.state] : "Payment link not found" };
}

function Summary({ page }: { page: PaymentPage }) {
  return (
    <dl className="summary-list">
      <div>
        <dt>Amount</dt>
        <dd>{formatPounds(page.amountPence)}</dd>
      </div>
      <div>
        <dt>Towards the account of</dt>
        <dd>{page.borrowerName}</dd>
      </div>
      {page.reference ? (
        <div>
          <dt>Reference</dt>
          <dd>{page.reference}</dd>
        </div>
      ) : null}
    </dl>
  );
}

function ReturnLink({ page }: { page: PaymentPage }) {
  if (!page.returnUrl) return null;
  return (
    <p>
      <a className="payment-return" href={page.returnUrl} rel="noreferrer">
        Continue to {new URL(page.returnUrl).host}
      </a>
    </p>
  );
}

function SandboxBank({ token, page }: { token: string; page: PaymentPage }) {
  return (
    <section className="payment-bank" aria-labelledby="bank-heading">
      <h2 id="bank-heading">Sandbox Bank</h2>
      <p className="payment-notice">
        This is a sandbox payment: no real money moves. Choose what the bank does, as a payer approving the payment in
        their banking app would.
      </p>
      <form method="post" action={`/pay/${token}/bank`}>
        <input type="hidden" name="form_token" value={page.formToken ?? ""} />
        <div className="payment-actions">
          <button className="payment-button payment-button-primary" type="submit" name="decision" value="approve">
            Approve payment of {formatPounds(page.amountPence)}
          </button>
          <button className="payment-button payment-button-secondary" type="submit" name="decision" value="fail">
            Fail payment
          </button>
        </div>
      </form>
    </section>
  );
}

function Payable({ token, page }: { token: string; page: PaymentPage }) {
  return (
    <>
      <h1>Pay {formatPounds(page.amountPence)} by bank</h1>
      <p className="lede">You will approve the payment with your bank. We never see your bank login details.</p>
      <Summary page={page} />
      {page.sandbox ? (
        <SandboxBank token={token} page={page} />
      ) : (
        <p>Paying by bank from this page is not available yet. Please contact the company that sent you this link.</p>
      )}
      <p>This link can be used until {formatUkTime(page.expiresAt)}.</p>
    </>
  );
}

function Outcome({ page }: { page: PaymentPage }) {
  switch (page.state) {
    case "settled":
      return (
        <>
          <h1>Payment received</h1>
          <p className="lede">
            Thank you. {formatPounds(page.amountPence)} has been paid towards the account of {page.borrowerName}
            {page.settledAt ? ` on ${formatUkTime(page.settledAt)}` : ""}.
          </p>
          <Summary page={page} />
          <p>You can close this page. The payment will show on the account&apos;s balance straight away.</p>
          <ReturnLink page={page} />
        </>
      );
    case "failed":
      return (
        <>
          <h1>Payment not completed</h1>
          <p className="lede">{page.failureCode ? FAILURE_EXPLANATIONS[page.failureCode] : "The payment did not go through."} No money has been taken.</p>
          <Summary page={page} />
          <p>To try again, ask the company that sent you this link for a new one.</p>
          <ReturnLink page={page} />
        </>
      );
    case "expired":
      return (
        <>
          <h1>This payment link has expired</h1>
          <p className="lede">It could be used until {formatUkTime(page.expiresAt)}. No money has been taken.</p>
          <Summary page={page} />
          <p>To pay, ask the company that sent you this link for a new one.</p>
          <ReturnLink page={page} />
        </>
      );
    default:
      return (
        <>
          <h1>Payment in progress</h1>
          <p className="lede">Your bank is processing the payment. Reload this page in a few minutes to see the result.</p>
          <Summary page={page} />
        </>
      );
  }
}

/** The link the address names, or null for a token that names none (or is not a token). */
async function pageOf(params: Props["params"]): Promise<(PaymentPage & { token: string }) | null> {
  const { token } = readPageValues(paymentLinkTokenParamsSchema.shape, await params);
  const page = token ? await paymentPageFor(token) : null;
  return page && token ? { ...page, token } : null;
}

export default async function PaymentLinkPage({ params }: Props) {
  const page = await pageOf(params);
  if (!page) notFound();
  const { token } = page;
  return (
    <main className="page payment">
      <p className="payment-eyebrow">Lending Platform · Secure payment</p>
      {page.state === "payable" ? <Payable token={token} page={page} /> : <Outcome page={page} />}
    </main>
  );
}
