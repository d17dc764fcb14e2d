"use client";
// The quote calculator: amount, term and how often to pay, answered by the public quote endpoint
// (GET /public/v1/quote/onetime) as the visitor moves a control, with the repayment chart and its table. Without
// JavaScript the same form is a plain GET to this page, which the server answers with the quote.
import { useEffect, useRef, useState } from "react";
import { formatPounds } from "@/lib/money";
import { repaymentSchedule } from "@/lib/site/repayment-schedule";
import type { Frequency } from "@/lib/pricing/quotes";
import { RepaymentChart, RepaymentTable } from "../_components/repayment-chart";
import { quoteViewOfPounds, type PublicQuoteBody, type QuoteView } from "./quote-view";

export interface CalculatorRange {
  amountMinPounds: number;
  amountMaxPounds: number;
  termMinDays: number;
  termMaxDays: number;
}

const FREQUENCY_LABELS: Record<Frequency, string> = { weekly: "Weekly", fortnightly: "Fortnightly", monthly: "Monthly" };
const PAYMENT_NOUN: Record<Frequency, string> = { weekly: "weekly", fortnightly: "fortnightly", monthly: "monthly" };
/** Long enough that dragging a slider asks once it rests, not at every step (the public ring allows 60 a minute). */
const SETTLE_MS = 250;

export function QuoteCalculator({ range, initial }: { range: CalculatorRange; initial: QuoteView }) {
  const [amount, setAmount] = useState(initial.principal_pence / 100);
  const [term, setTerm] = useState(initial.term_days);
  const [frequency, setFrequency] = useState<Frequency>(initial.frequency);
  const [quote, setQuote] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const firstRender = useRef(true);

  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      const query = new URLSearchParams({ amount: String(amount), term: String(term), frequency });
      fetch(`/public/v1/quote/onetime?${query}`, { signal: controller.signal, headers: { accept: "application/json" } })
        .then(async (response) => {
          const body = (await response.json()) as PublicQuoteBody & { error?: { message?: string; detail?: Array<{ message?: string }> } };
          if (response.ok) {
            setQuote(quoteViewOfPounds(body));
            setProblem(null);
          } else {
            setProblem(body.error?.detail?.map((item) => item.message).join(" ") || body.error?.message || "We could not work out that quote.");
          }
        })
        .catch((error: unknown) => {
          if ((error as { name?: string }).name !== "AbortError") setProblem("We could not reach the quote service. Try again in a moment.");
        });
    }, SETTLE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [amount, term, frequency]);

  const schedule = repaymentSchedule(quote);
  return (
    <div className="calculator">
      <form method="get" action="/quote" onSubmit={(event) => event.preventDefault()} aria-label="Quote">
        <div className="field">
          <label htmlFor="amount">How much do you want to borrow?</label>
          <span className="hint" id="amount-hint">
            In whole pounds, from {formatPounds(range.amountMinPounds * 100)} to {formatPounds(range.amountMaxPounds * 100)}
          </span>
          <input id="amount" name="amount" type="number" inputMode="numeric" min={range.amountMinPounds} max={range.amountMaxPounds} step={1} value={amount} aria-describedby="amount-hint" onChange={(event) => setAmount(Number(event.target.value))} />
          <input type="range" aria-label="Amount to borrow" min={range.amountMinPounds} max={range.amountMaxPounds} step={10} value={amount} onChange={(event) => setAmount(Number(event.target.value))} />
        </div>
        <div className="field">
          <label htmlFor="term">Over how many days?</label>
          <span className="hint" id="term-hint">
            From {range.termMinDays} to {range.termMaxDays} days
          </span>
          <input id="term" name="term" type="number" inputMode="numeric" min={range.termMinDays} max={range.termMaxDays} step={1} value={term} aria-describedby="term-hint" onChange={(event) => setTerm(Number(event.target.value))} />
          <input type="range" aria-label="Term in days" min={range.termMinDays} max={range.termMaxDays} step={7} value={term} onChange={(event) => setTerm(Number(event.target.value))} />
        </div>
        <div className="field">
          <fieldset>
            <legend>How often would you pay?</legend>
            <div className="radios">
              {(Object.keys(FREQUENCY_LABELS) as Frequency[]).map((value) => (
                <label key={value}>
                  <input type="radio" name="frequency" value={value} checked={frequency === value} onChange={() => setFrequency(value)} />
                  {FREQUENCY_LABELS[value]}
                </label>
              ))}
            </div>
          </fieldset>
        </div>
        <noscript>
          <button type="submit" className="button">
            Update quote
          </button>
        </noscript>
      </form>
      <section className="quote-result" aria-labelledby="quote-heading">
        <h2 id="quote-heading">Your quote</h2>
        <div aria-live="polite">
          {problem ? (
            <p className="error-message" role="alert">
              {problem}
            </p>
          ) : null}
          <dl className="quote-figures">
            <div>
              <dt>Borrow</dt>
              <dd>{formatPounds(quote.principal_pence)}</dd>
            </div>
            <div>
              <dt>
                {quote.periods} {PAYMENT_NOUN[quote.frequency]} payments of
              </dt>
              <dd>
                {formatPounds(quote.payment_each_pence)}
                {quote.final_payment_pence !== quote.payment_each_pence ? `, last ${formatPounds(quote.final_payment_pence)}` : ""}
              </dd>
            </div>
            <div>
              <dt>Interest</dt>
              <dd>{formatPounds(quote.total_interest_pence)}</dd>
            </div>
            <div>
              <dt>Establishment fee</dt>
              <dd>{formatPounds(quote.establishment_fee_pence)}</dd>
            </div>
            <div>
              <dt>Total cost</dt>
              <dd>{formatPounds(quote.total_cost_pence)}</dd>
            </div>
            <div>
              <dt>Total to repay</dt>
              <dd data-testid="total-repayable">{formatPounds(quote.total_repayable_pence)}</dd>
            </div>
          </dl>
          {quote.cost_cap_applied ? <p>The cost cap applies: you pay less interest than the daily rate would give.</p> : null}
        </div>
        <RepaymentChart schedule={schedule} totalRepayablePence={quote.total_repayable_pence} />
        <RepaymentTable schedule={schedule} />
      </section>
    </div>
  );
}
