// /quote — the quote calculator for the short-term Business Loan (the public quote's scale, from the pricing
// configuration). The first view, and every view without JavaScript (the form's plain GET), is quoted here on the
// server; the calculator then asks GET /public/v1/quote/onetime as the visitor changes it.
import type { Metadata } from "next";
import { ApiError } from "@/lib/errors";
import { businessLoanQuote } from "@/lib/pricing/public-service";
import { siteFigures } from "@/lib/site/content";
import { quoteCalculatorQuerySchema } from "@/lib/site/schemas";
import { readPageValues } from "@/lib/wire/page-values";
import { businessLoanScale, termLoanScale } from "../_components/figures";
import { QuoteCalculator } from "./quote-calculator";
import { quoteViewOfPence } from "./quote-view";

export const metadata: Metadata = { title: "Quote calculator", description: "What a short-term Business Loan would cost, payment by payment." };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function QuotePage({ searchParams }: Props) {
  const figures = await siteFigures();
  const loan = figures.pricing.business_loan;
  const asked = readPageValues(quoteCalculatorQuerySchema.shape, await searchParams);
  // A representative loan to start from: the middle of the range, in tens of pounds, over four weeks where allowed.
  const defaults = { amount: Math.round((loan.amount_min_pounds + loan.amount_max_pounds) / 20) * 10, term: Math.min(Math.max(28, loan.term_min_days), loan.term_max_days) };
  const query = { amount: asked.amount ?? defaults.amount, term: asked.term ?? defaults.term, frequency: asked.frequency ?? "weekly" };
  let problem: string | null = null;
  let quoted: Awaited<ReturnType<typeof businessLoanQuote>>;
  try {
    quoted = await businessLoanQuote(query);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    problem = error.detail?.map((item) => item.message).join(" ") ?? error.message;
    quoted = await businessLoanQuote({ ...defaults, frequency: query.frequency });
  }
  return (
    <main className="page">
      <h1>Quote calculator</h1>
      <p className="lede">
        See what a short-term Business Loan of {businessLoanScale(figures)} would cost, and how you would repay it.
      </p>
      {problem ? (
        <p className="error-message" role="alert">
          {problem}
        </p>
      ) : null}
      <QuoteCalculator
        range={{ amountMinPounds: loan.amount_min_pounds, amountMaxPounds: loan.amount_max_pounds, termMinDays: loan.term_min_days, termMaxDays: loan.term_max_days }}
        initial={quoteViewOfPence(quoted.quote)}
      />
      <div className="scale-note">
        <p>
          This calculator quotes the short-term Business Loan only. Business term loans of {termLoanScale(figures)} are
          priced by an APR when you apply: see <a href="/products">the products</a> or <a href="/apply">apply now</a>.
        </p>
      </div>
      <p>A quote is representative: the offer you accept shows the cost that applies to you, and nothing is owed before you accept it.</p>
    </main>
  );
}
