// /products — the three products and their figures, all from the pricing configuration (lib/site/content.ts), and
// the two scales a Business Loan comes in, so the quote and an application never read as two different products.
import type { Metadata } from "next";
import { siteFigures } from "@/lib/site/content";
import { FigureTable } from "../_components/figure-table";
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
        <FigureTable
          caption="Short-term Business Loan"
          rows={[
            ["Amount", <>{wholePounds(loan.amount_min_pounds)} to {wholePounds(loan.amount_max_pounds)}</>],
            ["Term", <>{loan.term_min_days} to {loan.term_max_days} days, repaid weekly, fortnightly or monthly</>],
            ["Interest", <>{percent(loan.daily_rate)} a day on the amount borrowed</>],
            ["Establishment fee", pounds(loan.establishment_fee_pounds)],
            ["Cost cap", <>Interest and fees never exceed {percent(loan.total_cost_cap_multiple)} of the amount borrowed</>],
            ["Late payment fee", pounds(loan.late_fee_pounds)],
          ]}
        />
        <FigureTable
          caption="Business term loan"
          rows={[
            ["Amount", <>{wholePounds(termLoan.amountMinPence / 100)} to {wholePounds(termLoan.amountMaxPence / 100)}</>],
            ["Term", <>{termLoan.termMinMonths} to {termLoan.termMaxMonths} months, repaid monthly</>],
            ["Price", <>{basisPointsAsPercent(termLoan.aprMinBps)} to {basisPointsAsPercent(termLoan.aprMaxBps)} APR: larger and longer loans cost less a year</>],
          ]}
        />
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
        <FigureTable
          caption="Flex"
          rows={[
            ["Credit limit", <>{wholePounds(flex.limit_min_pounds)} to {wholePounds(flex.limit_max_pounds)}</>],
            ["Interest", <>{percent(flex.monthly_rate)} a month on the balance drawn</>],
            ["Draw fee", <>{percent(flex.draw_fee_rate)} of each amount drawn</>],
            ["Repayment", <>Each draw over {flex.repayment_months_min} to {flex.repayment_months_max} months</>],
          ]}
        />
      </section>

      <section className="product-section" aria-labelledby="slice">
        <h2 id="slice">Slice</h2>
        <p>
          Pay an accepted supplier&apos;s bill now and spread it over a few instalments for one fixed fee. Slice charges no
          interest and is not credit.
        </p>
        <FigureTable
          caption="Slice"
          rows={[
            ["Bill size", <>{wholePounds(slice.bill_min_pounds)} to {wholePounds(slice.bill_max_pounds)}</>],
            ["Instalments", <>{slice.instalment_counts.join(" or ")} payments</>],
            ["Fee", <>{pounds(slice.plan_fee_pounds)} a plan, whatever the number of instalments</>],
          ]}
        />
      </section>
      <p className="hint">Pricing version {version}. Figures can change; the offer you accept shows the cost that applies to you.</p>
    </main>
  );
}
