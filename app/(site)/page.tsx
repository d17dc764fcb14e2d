// The site's home page (issue 29): what we lend, to whom, at what scale (every figure from the pricing
// configuration), and the ways in: apply, get a quote, partners and developers.
import { siteFigures } from "@/lib/site/content";
import { businessLoanScale, termLoanAprRange, termLoanScale, wholePounds } from "./_components/figures";

export default async function HomePage() {
  const figures = await siteFigures();
  const { flex, slice } = figures.pricing;
  return (
    <main className="page">
      <h1>Finance for UK limited companies and LLPs</h1>
      <p className="lede">
        Business loans, a revolving Flex facility and Slice instalments for suppliers, decided in minutes and
        available through our partners or directly.
      </p>
      <div className="actions">
        <a className="button" href="/apply">
          Apply
        </a>
        <a className="button button--secondary" href="/quote">
          Get a quote
        </a>
      </div>
      <ul className="products" aria-label="Products">
        <li>
          <h2>Business Loan</h2>
          <p>A fixed sum repaid over an agreed term, with the total cost shown before you commit.</p>
          <p className="figures">
            Short-term: <strong>{businessLoanScale(figures)}</strong>
          </p>
          <p className="figures">
            Term loan: <strong>{termLoanScale(figures)}</strong>, {termLoanAprRange(figures)}
          </p>
        </li>
        <li>
          <h2>Flex</h2>
          <p>A revolving credit facility: draw what you need, repay, and draw again.</p>
          <p className="figures">
            Limits of <strong>{wholePounds(flex.limit_min_pounds)} to {wholePounds(flex.limit_max_pounds)}</strong>
          </p>
        </li>
        <li>
          <h2>Slice</h2>
          <p>Pay accepted billers now and spread the cost over a short period for a fixed fee.</p>
          <p className="figures">
            Bills of <strong>{wholePounds(slice.bill_min_pounds)} to {wholePounds(slice.bill_max_pounds)}</strong>
          </p>
        </li>
      </ul>
      <p>
        <a href="/products">Compare the products and their costs</a>, check <a href="/eligibility">who can borrow</a>, or
        read <a href="/how-to-apply">how applying works</a>.
      </p>
      {/* A plain link, so the reference loads as a document with its own Content-Security-Policy (Scalar writes inline
          styles): a client-side navigation would keep this page's policy, which blocks them. */}
      <p>
        Building an integration? Every route is in the <a href="/docs/api">API reference</a>; the platform&apos;s{" "}
        <a href="/public/v1/healthz">health</a> is public too. <a href="/partners">Partners and developers</a> start here.
      </p>
    </main>
  );
}
