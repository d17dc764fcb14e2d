// /products — the three products and their figures, all from the pricing configuration (lib/site/content.ts), and
// the two scales a Business Loan comes in, so the quote and an application never read as two different products.
import type { Metadata } from "next";
import { siteFigures } from "@/lib/site/content";
import { basisPointsAsPercent, businessLoanScale, percent, pounds, termLoanScale, wholePounds } from "../_components/figures";

export const metadata: Metadata = { title: "Products", description: "Business Loan, Flex and Slice: what each is, what it costs and who it suits." };

export default async function ProductsPage() {
  const figures = await siteFigures();
  const { business_loan: loan, flex, slice, version } = figures.pricing;
  const { termLoan } = figures;
  return (
    <main className="page">
      <h1>Products</h1>
      <p className="lede">Three ways to fund a UK limited company or LLP. Every figure on this page is the one we price with today.</p>

      <section className="product-section" aria-labelledby="business-loan">
        <h2 id="business-loan">Business Loan</h2>
        <p>
          A fixed sum, repaid in equal instalments, with the total cost shown before you commit. It comes in two sizes,
          priced differently, so check which one a figure belongs to.
        </p>
        <div className="scale-note">
          <p>
            <strong>Short-term Business Loan: {businessLoanScale(figures)}.</strong> Quoted online in pounds with a daily
            rate; this is what our <a href="/quote">quote calculator</a> and the quotes of our public API and assistant
            work out.
          </p>
          <p>
            <strong>Business term loan: {termLoanScale(figures)}.</strong> Priced by an APR from the size and length of the
            loan, offered after an application, <a href="/apply">directly</a> or through a partner.
          </p>
        </div>
        <table className="data-table">
          <caption>Short-term Business Loan</caption>
          <tbody>
            <tr>
              <th scope="row">Amount</th>
              <td>
                {wholePounds(loan.amount_min_pounds)} to {wholePounds(loan.amount_max_pounds)}
              </td>
            </tr>
            <tr>
              <th scope="row">Term</th>
              <td>
                {loan.term_min_days} to {loan.term_max_days} days, repaid weekly, fortnightly or monthly
              </td>
            </tr>
            <tr>
              <th scope="row">Interest</th>
              <td>{percent(loan.daily_rate)} a day on the amount borrowed</td>
            </tr>
            <tr>
              <th scope="row">Establishment fee</th>
              <td>{pounds(loan.establishment_fee_pounds)}</td>
            </tr>
            <tr>
              <th scope="row">Cost cap</th>
              <td>Interest and fees never exceed {percent(loan.total_cost_cap_multiple)} of the amount borrowed</td>
            </tr>
            <tr>
              <th scope="row">Late payment fee</th>
              <td>{pounds(loan.late_fee_pounds)}</td>
            </tr>
          </tbody>
        </table>
        <table className="data-table">
          <caption>Business term loan</caption>
          <tbody>
            <tr>
              <th scope="row">Amount</th>
              <td>
                {wholePounds(termLoan.amountMinPence / 100)} to {wholePounds(termLoan.amountMaxPence / 100)}
              </td>
            </tr>
            <tr>
              <th scope="row">Term</th>
              <td>
                {termLoan.termMinMonths} to {termLoan.termMaxMonths} months, repaid monthly
              </td>
            </tr>
            <tr>
              <th scope="row">Price</th>
              <td>
                {basisPointsAsPercent(termLoan.aprMinBps)} to {basisPointsAsPercent(termLoan.aprMaxBps)} APR: larger and
                longer loans cost less a year
              </td>
            </tr>
          </tbody>
        </table>
        <p className="actions">
          <a className="button" href="/quote">
            Quote a short-term loan
          </a>
          <a className="button button--secondary" href="/apply">
            Apply for a term loan
          </a>
        </p>
      </section>

      <section className="product-section" aria-labelledby="flex">
        <h2 id="flex">Flex</h2>
        <p>
          A revolving credit facility: draw what you need up to your limit, repay monthly, and draw again as you repay.
          You pay interest only on what you have drawn.
        </p>
        <table className="data-table">
          <caption>Flex</caption>
          <tbody>
            <tr>
              <th scope="row">Credit limit</th>
              <td>
                {wholePounds(flex.limit_min_pounds)} to {wholePounds(flex.limit_max_pounds)}
              </td>
            </tr>
            <tr>
              <th scope="row">Interest</th>
              <td>{percent(flex.monthly_rate)} a month on the balance drawn</td>
            </tr>
            <tr>
              <th scope="row">Draw fee</th>
              <td>{percent(flex.draw_fee_rate)} of each amount drawn</td>
            </tr>
            <tr>
              <th scope="row">Repayment</th>
              <td>
                Each draw over {flex.repayment_months_min} to {flex.repayment_months_max} months
              </td>
            </tr>
          </tbody>
        </table>
      </section>

      <section className="product-section" aria-labelledby="slice">
        <h2 id="slice">Slice</h2>
        <p>
          Pay an accepted supplier&apos;s bill now and spread it over a few instalments for one fixed fee. Slice charges no
          interest and is not credit.
        </p>
        <table className="data-table">
          <caption>Slice</caption>
          <tbody>
            <tr>
              <th scope="row">Bill size</th>
              <td>
                {wholePounds(slice.bill_min_pounds)} to {wholePounds(slice.bill_max_pounds)}
              </td>
            </tr>
            <tr>
              <th scope="row">Instalments</th>
              <td>{slice.instalment_counts.join(" or ")} payments</td>
            </tr>
            <tr>
              <th scope="row">Fee</th>
              <td>{pounds(slice.plan_fee_pounds)} a plan, whatever the number of instalments</td>
            </tr>
          </tbody>
        </table>
      </section>
      <p className="hint">Pricing version {version}. Figures can change; the offer you accept shows the cost that applies to you.</p>
    </main>
  );
}
