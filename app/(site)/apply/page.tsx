// /apply — apply directly (docs/apply-directly.md): the few answers needed to start, posted without JavaScript to
// /apply/start, which sends the visitor into the hosted journey. Refused answers come back here, each with its
// message beside its field and in the error summary at the top.
import type { Metadata } from "next";
import { cookies } from "next/headers";
import { MAX_AMOUNT_PENCE, MAX_TERM_MONTHS, MIN_AMOUNT_PENCE, MIN_TERM_MONTHS } from "@/lib/decisions/pricing-table";
import { applyPageQuerySchema, decodeFormState, FORM_STATE_COOKIE, type DirectApplyFormState } from "@/lib/direct-apply/form-state";
import { DIRECT_APPLY_FIELDS, type DirectApplyField } from "@/lib/direct-apply/schemas";
import { formatWholePounds } from "@/lib/money";
import { CSRF_COOKIE } from "@/lib/wire/csrf";
import { readPageValues } from "@/lib/wire/page-values";
import { ErrorSummaryFocus } from "./error-summary-focus";
import "./apply.css";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const TITLE = "Apply for a Business Loan";

const LABELS: Record<DirectApplyField, string> = {
  company_number: "Company number",
  amount: "How much do you want to borrow?",
  term_months: "How many months do you want to repay over?",
  email: "Email address",
};

async function refusedState(searchParams: Props["searchParams"]): Promise<DirectApplyFormState | null> {
  if (readPageValues(applyPageQuerySchema.shape, await searchParams).check === undefined) return null;
  return decodeFormState((await cookies()).get(FORM_STATE_COOKIE)?.value);
}

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const refused = await refusedState(searchParams);
  const hasErrors = refused !== null && Object.keys(refused.errors).length > 0;
  return { title: hasErrors ? `Error: ${TITLE}` : TITLE };
}

function Field(props: { name: DirectApplyField; hint: string; value?: string; error?: string; type?: "text" | "email"; autoComplete?: string; inputMode?: "numeric" | "decimal" | "email" | "text"; prefix?: string; suffix?: string; width: "short" | "medium" | "long" }) {
  const { name, hint, value, error, type = "text", autoComplete, inputMode, prefix, suffix, width } = props;
  const described = [`${name}-hint`, error ? `${name}-error` : null].filter(Boolean).join(" ");
  return (
    <div className={`apply-field${error ? " apply-field-error" : ""}`}>
      <label htmlFor={name}>{LABELS[name]}</label>
      <p className="apply-hint" id={`${name}-hint`}>
        {hint}
      </p>
      {error ? (
        <p className="apply-error" id={`${name}-error`}>
          <span className="visually-hidden">Error: </span>
          {error}
        </p>
      ) : null}
      <div className="apply-input-row">
        {prefix ? (
          <span className="apply-affix" aria-hidden="true">
            {prefix}
          </span>
        ) : null}
        <input
          className={`apply-input apply-input-${width}`}
          id={name}
          name={name}
          type={type}
          defaultValue={value}
          autoComplete={autoComplete}
          inputMode={inputMode}
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
        />
        {suffix ? (
          <span className="apply-affix" aria-hidden="true">
            {suffix}
          </span>
        ) : null}
      </div>
    </div>
  );
}

export default async function ApplyPage({ searchParams }: Props) {
  const refused = await refusedState(searchParams);
  const values = refused?.values;
  const errors = refused?.errors ?? {};
  const refusals = DIRECT_APPLY_FIELDS.filter((field) => errors[field]);
  const csrfToken = (await cookies()).get(CSRF_COOKIE)?.value ?? "";
  const amounts = `${formatWholePounds(MIN_AMOUNT_PENCE)} to ${formatWholePounds(MAX_AMOUNT_PENCE)}`;
  const terms = `${MIN_TERM_MONTHS} to ${MAX_TERM_MONTHS} months`;
  return (
    <main className="apply-page">
      <div className="apply-column">
        <a className="apply-back" href="/">
          Back to the home page
        </a>
        {refusals.length > 0 ? (
          <div className="apply-error-summary" id="error-summary" role="alert" aria-labelledby="error-summary-title" tabIndex={-1}>
            <h2 id="error-summary-title">There is a problem</h2>
            <ul>
              {refusals.map((field) => (
                <li key={field}>
                  <a href={`#${field}`}>{errors[field]}</a>
                </li>
              ))}
            </ul>
            <ErrorSummaryFocus />
          </div>
        ) : null}
        <h1>{TITLE}</h1>
        <p className="apply-lede">
          Apply directly with us for a Business Loan of {amounts}, repaid monthly over {terms}. It takes about ten
          minutes, and you see the offer and its total cost before you agree to anything.
        </p>
        <p>
          We lend to UK limited companies and LLPs. You need to be a director of the company or, for an LLP, a designated
          member.
        </p>
        <form className="apply-form" method="post" action="/apply/start" noValidate>
          <input type="hidden" name="csrf_token" value={csrfToken} />
          <Field
            name="company_number"
            hint="The 8 characters Companies House gives the company, like 12345678 or SC123456."
            value={values?.company_number}
            error={errors.company_number}
            autoComplete="off"
            width="medium"
          />
          <Field
            name="amount"
            hint={`In pounds, from ${amounts}.`}
            value={values?.amount}
            error={errors.amount}
            inputMode="decimal"
            autoComplete="off"
            prefix="£"
            width="medium"
          />
          <Field
            name="term_months"
            hint={`From ${terms}.`}
            value={values?.term_months}
            error={errors.term_months}
            inputMode="numeric"
            autoComplete="off"
            suffix="months"
            width="short"
          />
          <Field
            name="email"
            hint="We send your application's progress here, and nothing else."
            value={values?.email}
            error={errors.email}
            type="email"
            inputMode="email"
            autoComplete="email"
            width="long"
          />
          <button className="apply-button" type="submit">
            Continue
          </button>
        </form>
        <h2>What happens next</h2>
        <ol className="apply-next">
          <li>We confirm the company at Companies House and ask about you, the director applying.</li>
          <li>You connect the business bank account through open banking, so we can check affordability.</li>
          <li>We tell you before any search of the business&apos;s credit file, and decide, usually in minutes.</li>
          <li>If we can lend, you see the offer, its repayments and its total cost, and choose whether to accept.</li>
        </ol>
        <p>
          Already applied? <a href="/account">Sign in to your account</a> to see where your application stands.
        </p>
      </div>
    </main>
  );
}
