"use client";
// The demo's button: loads apply.js from JS_URL and opens the widget with what the visitor chose, then shows what
// each callback received, as a partner's page would act on it.
import Script from "next/script";
import { useState, type FormEvent } from "react";
import { formatWholePounds } from "@/lib/money";

interface LendingApply {
  open(options: Record<string, unknown>): void;
}

const COMPANIES = [
  ["12990042", "12990042: approved"],
  ["12990002", "12990002: declined (affordability)"],
] as const;

export function DemoLauncher({ publishableKey, scriptUrl }: { publishableKey: string; scriptUrl: string }) {
  const [ready, setReady] = useState(false);
  const [outcome, setOutcome] = useState("");

  function open(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const widget = (window as unknown as { LendingApply?: LendingApply }).LendingApply;
    if (!widget) return setOutcome("apply.js has not loaded yet: try again in a moment.");
    setOutcome("");
    widget.open({
      publishableKey,
      companyNumber: String(form.get("company_number")),
      amountPence: Number(form.get("amount")) * 100,
      termMonths: Number(form.get("term_months")),
      applicant: { first_name: "Ada", email: "ada@example.co.uk" },
      reference: "apply-js-demo",
      onComplete: ({ application_id }: { application_id: string }) => setOutcome(`onComplete: application ${application_id} is complete, and the loan is funded in the sandbox.`),
      onClose: ({ application_id }: { application_id: string | null }) =>
        setOutcome(application_id ? `onClose: you closed application ${application_id}. Press the button again to carry on where you left off.` : "onClose: you closed the application before it started."),
      onError: ({ message }: { message: string }) => setOutcome(`onError: ${message}`),
    });
  }

  return (
    <>
      <Script src={scriptUrl} strategy="afterInteractive" onReady={() => setReady(true)} />
      <form className="demo-form" onSubmit={open}>
        <div className="demo-field">
          <label htmlFor="company_number">Company</label>
          <select id="company_number" name="company_number" defaultValue={COMPANIES[0][0]}>
            {COMPANIES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="demo-field">
          <label htmlFor="amount">Amount</label>
          <select id="amount" name="amount" defaultValue="25000">
            {[10_000, 25_000, 50_000, 100_000].map((pounds) => (
              <option key={pounds} value={pounds}>
                {formatWholePounds(pounds * 100)}
              </option>
            ))}
          </select>
        </div>
        <div className="demo-field">
          <label htmlFor="term_months">Over</label>
          <select id="term_months" name="term_months" defaultValue="12">
            {[6, 12, 24, 36].map((months) => (
              <option key={months} value={months}>
                {months} months
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="demo-button" disabled={!ready}>
          Apply for business finance
        </button>
      </form>
      <noscript>
        <p className="demo-notice">apply.js needs JavaScript: turn it on to try the demo.</p>
      </noscript>
      <p className="demo-outcome" role="status">
        {outcome}
      </p>
    </>
  );
}
