// The hosted journey's steps as the applicant sees them (docs/hosted-journey.md). Each is server-rendered, and
// each form posts without JavaScript; the waiting page moves on by itself with a small script, and has a link
// that does the same by hand.
import { CONSENT_TYPES, currentConsentText, type ConsentType } from "@/lib/application-consents/catalogue";
import { APPLICATION_PURPOSES } from "@/lib/applications/schemas";
import { REASON_MESSAGES } from "@/lib/decisions/serialize";
import type { OfferTerms } from "@/lib/decisions/offer-terms";
import { MAX_TERM_MONTHS, MIN_TERM_MONTHS } from "@/lib/decisions/pricing-table";
import { DATE_PARTS, datePartField } from "@/lib/journey/date-of-birth";
import { completionRedirect, DIRECTOR_PREFIX, MAX_FURTHER_DIRECTORS, maskedDateOfBirth, stepAddress, type Journey, type JourneyPerson } from "@/lib/journey/journey";
import type { ReturnStep } from "@/lib/journey/schemas";
import { STEP_TITLES, type ClosedState, type JourneyStep } from "@/lib/journey/steps";
import { formatPounds } from "@/lib/money";
import type { ReactNode } from "react";
import { applicantReference, formatAmountForInput, formatShortDate } from "../../format";
import { EmbeddingBridge } from "./embedding-bridge";
import { Continue, DateField, ErrorSummary, Field, partStyles, RadiosField, refusalFor, SelectField, StepForm, SummaryList } from "./journey-parts";
import styles from "./steps.module.css";
import { WaitingPoller } from "./waiting-poller";

const PURPOSE_LABELS: Record<(typeof APPLICATION_PURPOSES)[number], string> = {
  working_capital: "Working capital",
  asset_finance: "Buying equipment or vehicles",
  expansion: "Growing the business",
  refinance: "Refinancing other borrowing",
  stock: "Buying stock",
};


/** A step's page: its journey, and where it returns once answered when opened from a Change link. */
interface StepProps {
  journey: Journey;
  returnTo?: ReturnStep;
}

export function CompanyStep({ journey, returnTo }: StepProps) {
  const { application } = journey;
  const { values, errors } = refusalFor(journey, "company");
  return (
    <>
      <h1>{STEP_TITLES.company}</h1>
      <p className="lede">Check this is the company you are applying for, and tell us its turnover.</p>
      <ErrorSummary errors={errors} order={["annual_turnover"]} />
      <dl className="summary-list">
        <div>
          <dt>Company</dt>
          <dd>{application.companyName}</dd>
        </div>
        <div>
          <dt>Company number</dt>
          <dd>{application.companyNumber}</dd>
        </div>
      </dl>
      <StepForm journey={journey} step="company" returnTo={returnTo}>
        <Field
          name="annual_turnover"
          label="The company's annual turnover"
          hint="Its sales over the last twelve months, in pounds."
          prefix="£"
          inputMode="decimal"
          error={errors.annual_turnover}
          defaultValue={values.annual_turnover ?? (application.declaredAnnualTurnoverPence ? formatAmountForInput(Number(application.declaredAnnualTurnoverPence)) : "")}
        />
        <Continue />
      </StepForm>
    </>
  );
}

/** What the company would like to borrow: the amount, over how long and what for. */
export function LoanStep({ journey, returnTo }: StepProps) {
  const { application } = journey;
  const { values, errors } = refusalFor(journey, "loan");
  return (
    <>
      <h1>{STEP_TITLES.loan}</h1>
      <p className="lede">Tell us what {application.companyName} would like to borrow.</p>
      <ErrorSummary errors={errors} order={["amount", "term_months", "purpose"]} />
      <StepForm journey={journey} step="loan" returnTo={returnTo}>
        <Field name="amount" label="How much would you like to borrow?" hint="In pounds, from £1,000 to £250,000." prefix="£" inputMode="decimal" error={errors.amount} defaultValue={values.amount ?? formatAmountForInput(application.amountPence)} />
        <Field
          name="term_months"
          label="Over how long?"
          hint={`Enter a number of months, from ${MIN_TERM_MONTHS} to ${MAX_TERM_MONTHS}.`}
          suffix="months"
          inputMode="numeric"
          width="short"
          error={errors.term_months}
          defaultValue={values.term_months ?? String(application.termMonths)}
        />
        <SelectField name="purpose" label="What is the money for?" options={APPLICATION_PURPOSES.map((purpose) => [purpose, PURPOSE_LABELS[purpose]] as const)} error={errors.purpose} defaultValue={values.purpose ?? application.purpose ?? undefined} />
        <Continue />
      </StepForm>
    </>
  );
}

/** A date of birth given before is never shown again, only its year: left empty, the field keeps it. */
function dateOfBirthHint(given: string | undefined): string {
  if (!given) return "For example, 27 3 1980";
  return `We have it as ${maskedDateOfBirth(given)}. Leave it empty to keep it, or enter the date again to change it, for example, 27 3 1980`;
}

export function AboutYouStep({ journey, returnTo }: StepProps) {
  const { values, errors } = refusalFor(journey, "about-you");
  const [applicant] = journey.people;
  const prefill = applicant ?? { first_name: journey.application.applicantFirstName ?? "", email: journey.application.applicantEmail ?? "" };
  const order = ["first_name", "last_name", ...DATE_PARTS.map((part) => datePartField("date_of_birth", part)), "email", "role"];
  return (
    <>
      <h1>{STEP_TITLES["about-you"]}</h1>
      <p className="lede">We check the identity of the person applying, and next of the company&apos;s other directors.</p>
      <ErrorSummary errors={errors} order={order} />
      <StepForm journey={journey} step="about-you" returnTo={returnTo}>
        <Field name="first_name" label="First name" autoComplete="given-name" error={errors.first_name} defaultValue={values.first_name ?? prefill.first_name} />
        <Field name="last_name" label="Last name" autoComplete="family-name" error={errors.last_name} defaultValue={values.last_name ?? (applicant?.last_name ?? "")} />
        <DateField name="date_of_birth" legend="Date of birth" hint={dateOfBirthHint(applicant?.date_of_birth)} errors={errors} values={values} autoComplete />
        <Field name="email" label="Email" type="email" autoComplete="email" error={errors.email} defaultValue={values.email ?? prefill.email ?? ""} />
        <RadiosField
          name="role"
          legend="Your role"
          options={[
            ["director", "Director (or designated member of an LLP)"],
            ["psc", "Person with significant control"],
          ]}
          error={errors.role}
          defaultValue={values.role ?? applicant?.role}
        />
        <Continue />
      </StepForm>
    </>
  );
}

/**
 * The company's other directors, as GOV.UK collects a list ("add another"): those added, each with Change and
 * Remove, then the fields for one more with **Add another director**, and **Continue**, which checks everyone's
 * identity. Changing one (`?director=2`) opens its fields alone: names as given, the date of birth asked again.
 */
export function DirectorsStep({ journey, returnTo, director }: StepProps & { director?: number }) {
  const { values, errors } = refusalFor(journey, "directors");
  const directors = journey.people.slice(1);
  const changing = director !== undefined && director >= 1 && director <= directors.length ? directors[director - 1]! : null;
  const field = (name: string) => `${DIRECTOR_PREFIX}${name}`;
  const order = [field("first_name"), field("last_name"), ...DATE_PARTS.map((part) => datePartField(field("date_of_birth"), part))];
  const full = directors.length >= MAX_FURTHER_DIRECTORS;
  const fields = (person: JourneyPerson | null) => (
    <>
      <Field name={field("first_name")} label="First name" autoComplete="off" error={errors[field("first_name")]} defaultValue={values[field("first_name")] ?? person?.first_name ?? ""} />
      <Field name={field("last_name")} label="Last name" autoComplete="off" error={errors[field("last_name")]} defaultValue={values[field("last_name")] ?? person?.last_name ?? ""} />
      <DateField name={field("date_of_birth")} legend="Date of birth" hint={dateOfBirthHint(person?.date_of_birth)} errors={errors} values={values} autoComplete={false} />
    </>
  );
  if (changing) {
    return (
      <>
        <h1>Change other director {director}</h1>
        <ErrorSummary errors={errors} order={order} />
        <StepForm journey={journey} step="directors" returnTo={returnTo}>
          <input type="hidden" name="director" value={String(director)} />
          {fields(changing)}
          <Continue name="action" value="save">
            Save director
          </Continue>
        </StepForm>
        <p>
          <a href={`${stepAddress(journey.token, "directors")}${returnTo ? `?return=${returnTo}` : ""}`}>Back to the other directors</a>
        </p>
      </>
    );
  }
  return (
    <>
      <h1>{STEP_TITLES.directors}</h1>
      <p className="lede">Add each of the company&apos;s other directors: we check their identity with yours. If there are none, continue.</p>
      <ErrorSummary errors={errors} order={order} />
      {directors.length > 0 ? (
        <dl className={partStyles.summaryList}>
          {directors.map((person, index) => (
            <div key={index} className={partStyles.summaryRow}>
              <dt>Other director {index + 1}</dt>
              <dd>
                {person.first_name} {person.last_name}, born {maskedDateOfBirth(person.date_of_birth)}
              </dd>
              <dd className={partStyles.summaryActions}>
                <a href={`${stepAddress(journey.token, "directors")}?director=${index + 1}${returnTo ? `&return=${returnTo}` : ""}`}>
                  Change<span className="visually-hidden"> other director {index + 1}</span>
                </a>
                <StepForm journey={journey} step="directors" returnTo={returnTo} inline>
                  <input type="hidden" name="director" value={String(index + 1)} />
                  <button type="submit" name="action" value="remove" className={styles.linkButton}>
                    Remove<span className="visually-hidden"> other director {index + 1}</span>
                  </button>
                </StepForm>
              </dd>
            </div>
          ))}
        </dl>
      ) : (
        <p>No other directors added.</p>
      )}
      <StepForm journey={journey} step="directors" returnTo={returnTo}>
        {full ? (
          <p>You have added {MAX_FURTHER_DIRECTORS} other directors, the most one application can check.</p>
        ) : (
          <fieldset className={partStyles.fieldset}>
            <legend>{directors.length > 0 ? "Add another director" : "Add a director"}</legend>
            {fields(null)}
            <Continue name="action" value="add" secondary>
              Add another director
            </Continue>
          </fieldset>
        )}
        <Continue name="action" value="continue" />
      </StepForm>
    </>
  );
}

export function BankStep({ journey, returnTo }: StepProps) {
  const { errors } = refusalFor(journey, "bank");
  const sandbox = journey.application.environment === "sandbox";
  return (
    <>
      <h1>{STEP_TITLES.bank}</h1>
      <p className="lede">Connect the company&apos;s business bank account so we can see its turnover. We never see your bank login details.</p>
      <ErrorSummary errors={errors} order={[]} />
      {journey.monthlyTurnoverPence ? (
        <p className={styles.notice}>
          Connected: twelve months of turnover, {formatPounds(journey.monthlyTurnoverPence.reduce((sum, month) => sum + month, 0))} in all. You can connect again to refresh it.
        </p>
      ) : null}
      <section className={styles.bank} aria-labelledby="bank-heading">
        <h2 id="bank-heading">Choose your bank</h2>
        {sandbox ? (
          <>
            <p className={styles.notice}>This is the sandbox: no real bank is contacted. Sandbox Bank returns twelve months of turnover worked out from the company number.</p>
            <StepForm journey={journey} step="bank" returnTo={returnTo}>
              <button type="submit" name="action" value="connect" className={`${partStyles.button} ${styles.bankButton}`}>
                Connect Sandbox Bank
              </button>
            </StepForm>
          </>
        ) : (
          <p>Connecting a bank is not available here yet. Please contact the company that sent you this link.</p>
        )}
      </section>
      {journey.monthlyTurnoverPence ? (
        <p>
          <a href={`/apply/${journey.token}/check-answers`}>{returnTo ? "Back to Check your answers" : "Continue without connecting again"}</a>
        </p>
      ) : null}
    </>
  );
}

/** The name of the terms in the terms consent's text, linked to the page that has them. */
const LOAN_TERMS_NAME = "Business Loan terms and conditions";
export const LOAN_TERMS_ADDRESS = "/business-loan-terms";

/** More about what two of the consents mean, for the applicant who wants it, below each text. */
const CONSENT_DETAILS: Partial<Record<ConsentType, { summary: string; body: ReactNode }>> = {
  credit_search: {
    summary: "What a credit search involves",
    body: (
      <>
        <p>
          We ask credit reference agencies for the company&apos;s credit history and for the credit histories of its directors and people with significant control:
          borrowing from other lenders and how it has been repaid, and public records such as county court judgments. The same search helps us confirm that the
          people named in the application are who they say they are.
        </p>
        <p>The search is recorded on each credit file searched, and other lenders can see it for 12 months. Several searches in a short time can make borrowing harder.</p>
      </>
    ),
  },
  data_sharing: {
    summary: "Who we share the application with",
    body: (
      <>
        <p>We share the information in this application, and about the loan if the company takes it, with:</p>
        <ul>
          <li>the business that sent you this link, which introduced the company to us;</li>
          <li>credit reference agencies and fraud prevention agencies;</li>
          <li>the providers that check identities and read the company&apos;s bank account turnover for us.</li>
        </ul>
        <p>
          They use it only for these purposes. Our <a href="/privacy">privacy notice</a> says how long we keep it and what your rights are.
        </p>
      </>
    ),
  },
};

/** A consent's text, with the name of the loan terms linked to them (in a new tab, so the answers on this page stay). */
function ConsentText({ text }: { text: string }) {
  const [before, after] = text.split(LOAN_TERMS_NAME);
  if (after === undefined) return <>{text}</>;
  return (
    <>
      {before}
      <a href={LOAN_TERMS_ADDRESS} target="_blank" rel="noopener noreferrer">
        {LOAN_TERMS_NAME} (opens in new tab)
      </a>
      {after}
    </>
  );
}

const ROLE_LABELS: Record<JourneyPerson["role"], string> = { director: "Director (or designated member of an LLP)", psc: "Person with significant control" };

/**
 * "Check your answers" (GOV.UK's pattern), the last step and the only one that submits: every answer grouped by
 * step, each with a Change link that opens its question and comes back here once it is answered; then the three
 * consents and Submit application. A date of birth is shown by its year only.
 */
export function CheckAnswersStep({ journey }: StepProps) {
  const { values, errors } = refusalFor(journey, "check-answers");
  const { application } = journey;
  const [applicant, ...directors] = journey.people;
  const change = (step: string, field: string) => `${stepAddress(journey.token, step as JourneyStep)}?return=check-answers#${field}`;
  const turnover = application.declaredAnnualTurnoverPence === null ? null : Number(application.declaredAnnualTurnoverPence);
  return (
    <>
      <h1>Check your answers before submitting your application</h1>
      <ErrorSummary errors={errors} order={CONSENT_TYPES.map((type) => `consent_${type}`)} />
      <h2 className={styles.summaryHeading}>{STEP_TITLES.company}</h2>
      <SummaryList
        rows={[
          { key: "Company", value: `${application.companyName} (${application.companyNumber})` },
          { key: "Annual turnover", value: turnover === null ? "Not given" : formatPounds(turnover), change: change("company", "annual_turnover"), changeLabel: "the annual turnover" },
        ]}
      />
      <h2 className={styles.summaryHeading}>{STEP_TITLES.loan}</h2>
      <SummaryList
        rows={[
          { key: "Amount", value: formatPounds(application.amountPence), change: change("loan", "amount"), changeLabel: "the amount" },
          { key: "Term", value: `${application.termMonths} months`, change: change("loan", "term_months"), changeLabel: "the term" },
          { key: "Purpose", value: application.purpose ? PURPOSE_LABELS[application.purpose as (typeof APPLICATION_PURPOSES)[number]] : "Not given", change: change("loan", "purpose"), changeLabel: "the purpose" },
        ]}
      />
      <h2 className={styles.summaryHeading}>About you</h2>
      {applicant ? (
        <SummaryList
          rows={[
            { key: "Name", value: `${applicant.first_name} ${applicant.last_name}`, change: change("about-you", "first_name"), changeLabel: "your name" },
            { key: "Date of birth", value: maskedDateOfBirth(applicant.date_of_birth), change: change("about-you", "date_of_birth-day"), changeLabel: "your date of birth" },
            { key: "Email", value: applicant.email ?? "", change: change("about-you", "email"), changeLabel: "your email" },
            { key: "Your role", value: ROLE_LABELS[applicant.role], change: change("about-you", "role"), changeLabel: "your role" },
          ]}
        />
      ) : null}
      <h2 className={styles.summaryHeading}>Other directors</h2>
      <SummaryList
        rows={
          directors.length === 0
            ? [{ key: "Other directors", value: "None added", change: `${stepAddress(journey.token, "directors")}?return=check-answers`, changeLabel: "the other directors", changeText: "Add" }]
            : directors.map((director, index) => ({
                key: `Other director ${index + 1}`,
                value: `${director.first_name} ${director.last_name}, born ${maskedDateOfBirth(director.date_of_birth)}`,
                change: `${stepAddress(journey.token, "directors")}?director=${index + 1}&return=check-answers`,
                changeLabel: `other director ${index + 1}`,
              }))
        }
      />
      <h2 className={styles.summaryHeading}>Your bank</h2>
      <SummaryList
        rows={[
          {
            key: "Business bank account",
            value: journey.monthlyTurnoverPence ? `Connected: twelve months of turnover, ${formatPounds(journey.monthlyTurnoverPence.reduce((sum, month) => sum + month, 0))} in all` : "Not connected",
            change: change("bank", "bank-heading"),
            changeLabel: "the bank account",
          },
        ]}
      />
      <h2 className={styles.summaryHeading}>Now submit your application</h2>
      <p>Read each statement and tick the box to agree. We need all three to consider the application.</p>
      <StepForm journey={journey} step="check-answers">
        {CONSENT_TYPES.map((type) => {
          const text = currentConsentText(type);
          const name = `consent_${type}`;
          const details = CONSENT_DETAILS[type];
          return (
            <div key={type} className={errors[name] ? `${styles.consent} ${partStyles.fieldError}` : styles.consent}>
              <p id={`${name}-text`}>
                <ConsentText text={text.text} />
              </p>
              {details ? (
                <details className={styles.details}>
                  <summary>{details.summary}</summary>
                  <div className={styles.detailsBody}>{details.body}</div>
                </details>
              ) : null}
              {errors[name] ? (
                <p className={partStyles.error} id={`${name}-error`}>
                  {errors[name]}
                </p>
              ) : null}
              <div className={styles.checkbox}>
                <input
                  type="checkbox"
                  id={name}
                  name={name}
                  value="yes"
                  defaultChecked={values[name] === "yes"}
                  aria-describedby={[`${name}-text`, errors[name] ? `${name}-error` : null].filter(Boolean).join(" ")}
                  aria-invalid={errors[name] ? true : undefined}
                />
                <label htmlFor={name}>{text.label}</label>
              </div>
            </div>
          );
        })}
        <Continue>Submit application</Continue>
      </StepForm>
    </>
  );
}

/** How often the waiting page asks whether the application has moved on. */
const WAITING_POLL_MS = 2_000;
/** How often the waiting page reloads itself without JavaScript. */
const WAITING_REFRESH_SECONDS = 5;
/** After this long a submitted application's page says the decision is taking longer than usual. */
const LONG_WAIT_MS = 60_000;

export function WaitingStep({ journey, now }: { journey: Journey; now: Date }) {
  const referred = journey.application.status === "in_review";
  const long = !referred && journey.application.submittedAt !== null && now.getTime() - journey.application.submittedAt.getTime() > LONG_WAIT_MS;
  return (
    <>
      <WaitingPoller token={journey.token} underReview={referred} intervalMs={WAITING_POLL_MS} />
      {/* Without JavaScript the page reloads itself while the decision is minutes away at most; once it is in, the
          waiting address opens where the application now is (the offer, or the decision). An underwriter's review
          takes a day, so that page waits for the applicant's own "Check for a decision". */}
      {referred ? null : <meta httpEquiv="refresh" content={String(WAITING_REFRESH_SECONDS)} />}
      <h1>{referred ? "An underwriter is looking at your application" : STEP_TITLES.waiting}</h1>
      <div role="status">
        {referred ? (
          <p className="lede">
            Your application needs a closer look, so one of our underwriters will review it, usually within one working day. You can close this page: come back
            to this link to see the decision.
          </p>
        ) : (
          <p className="lede">Thank you: your application is submitted. We are checking it now; this page moves on by itself when the decision is ready.</p>
        )}
        {long ? <p>This is taking longer than usual. You can close this page and come back to this link later: your application is safe.</p> : null}
      </div>
      <p>
        <a href={`/apply/${journey.token}`}>Check for a decision</a>
      </p>
    </>
  );
}

export function OfferStep({ journey }: { journey: Journey }) {
  const decision = journey.decision!;
  if (journey.application.status === "declined") return <Declined journey={journey} reasons={decision.reasons} />;
  const terms = decision.offerTerms as unknown as OfferTerms;
  const { values, errors } = refusalFor(journey, "offer");
  const largest = Math.max(...terms.schedule.map((row) => row.payment_pence));
  return (
    <>
      <h1>{STEP_TITLES.offer}</h1>
      <p className="lede">
        Good news: we can lend {journey.application.companyName} {formatPounds(terms.principal_pence)}.
      </p>
      <ErrorSummary errors={errors} order={["signatory_name"]} />
      <dl className="summary-list">
        <div>
          <dt>Amount</dt>
          <dd>{formatPounds(terms.principal_pence)}</dd>
        </div>
        <div>
          <dt>APR</dt>
          <dd>{(terms.apr_bps / 100).toFixed(2)}%</dd>
        </div>
        <div>
          <dt>Monthly repayment</dt>
          <dd>{formatPounds(terms.monthly_repayment_pence)}</dd>
        </div>
        <div>
          <dt>Total repayable</dt>
          <dd>{formatPounds(terms.total_repayable_pence)}</dd>
        </div>
        <div>
          <dt>Term</dt>
          <dd>{terms.term_months} months</dd>
        </div>
      </dl>
      <figure className={styles.chart}>
        <figcaption>Repayment schedule: what you pay each month, split into principal and interest</figcaption>
        <ol className={styles.bars}>
          {terms.schedule.map((row) => (
            <li key={row.number}>
              <span className={styles.barLabel}>{formatShortDate(row.due_date)}</span>
              {/* SVG geometry, not inline styles: the journey's policy allows no inline style. */}
              <svg className={styles.bar} viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true" focusable="false">
                <rect className={styles.barPrincipal} x="0" y="0" height="10" width={(row.principal_pence / largest) * 100} />
                <rect className={styles.barInterest} x={(row.principal_pence / largest) * 100} y="0" height="10" width={(row.interest_pence / largest) * 100} />
              </svg>
              <span className={styles.barValue}>
                {formatPounds(row.payment_pence)}
                <span className="visually-hidden">
                  : {formatPounds(row.principal_pence)} principal and {formatPounds(row.interest_pence)} interest
                </span>
              </span>
            </li>
          ))}
        </ol>
        <p className={styles.legend}>
          <span className={`${styles.key} ${styles.keyPrincipal}`} aria-hidden="true" /> Principal <span className={`${styles.key} ${styles.keyInterest}`} aria-hidden="true" /> Interest
        </p>
      </figure>
      <StepForm journey={journey} step="offer">
        <Field name="signatory_name" label="Type your full name to sign" hint="Signing accepts the offer on the company's behalf. The money is sent straight away." autoComplete="name" error={errors.signatory_name} defaultValue={values.signatory_name ?? ""} />
        <Continue>Accept offer</Continue>
      </StepForm>
    </>
  );
}

const NEXT_STEPS: Record<string, string> = {
  adverse_credit: "You can ask the credit reference agencies for the company's and your own credit files, and correct anything that is wrong.",
  affordability: "You could apply for a smaller amount, or over a longer term, so that the repayments are lower.",
  identity_unverified: "Check that the names and dates of birth you gave match the company's records at Companies House, then apply again.",
  insufficient_trading_history: "We lend to companies that have traded for at least a year. You are welcome to apply again once the company has.",
  out_of_appetite: "You could apply for a smaller amount.",
};

function Declined({ journey, reasons }: { journey: Journey; reasons: string[] }) {
  const redirect = completionRedirect(journey);
  return (
    <>
      <h1>We cannot offer a loan this time</h1>
      <p className="lede">We are sorry: we have looked at the application carefully and cannot lend to {journey.application.companyName} now.</p>
      <h2>Why</h2>
      <ul>
        {reasons.map((reason) => (
          <li key={reason}>{REASON_MESSAGES[reason] ?? reason}</li>
        ))}
      </ul>
      <h2>What you can do next</h2>
      <ul>
        {reasons.map((reason) => (NEXT_STEPS[reason] ? <li key={reason}>{NEXT_STEPS[reason]}</li> : null))}
        <li>This decision does not stop the company applying elsewhere.</li>
      </ul>
      {redirect ? <ContinueTo address={redirect} /> : null}
    </>
  );
}

/** The way back to the partner's `redirect_uri`. */
function ContinueTo({ address }: { address: string }) {
  return (
    <p>
      {/* The top window: inside the apply.js widget's frame, the partner's page is the whole window's to leave. */}
      <a className={partStyles.button} href={address} target="_top">
        Continue
      </a>
    </p>
  );
}

export function DoneStep({ journey }: { journey: Journey }) {
  const redirect = completionRedirect(journey);
  const { embeddingOrigin } = journey.application;
  return (
    <>
      {/* A widget's journey may be in the widget's frame, which the bridge tells instead of leaving the page. */}
      {embeddingOrigin ? (
        <EmbeddingBridge origin={embeddingOrigin} applicationId={journey.application.id} complete redirect={redirect} />
      ) : redirect ? (
        <meta httpEquiv="refresh" content={`0;url=${redirect}`} />
      ) : null}
      <h1>Your loan is on its way</h1>
      <p className="lede">
        You accepted the offer, and {formatPounds(journey.decision?.approvedAmountPence ?? journey.application.amountPence)} is being sent to {journey.application.companyName}&apos;s bank account.
      </p>
      <p>
        Your reference is <strong>{applicantReference(journey.application)}</strong>: keep it to quote if you contact us. Repayments are collected by Direct Debit
        each month, as the schedule in your offer showed.
      </p>
      {redirect ? <ContinueTo address={redirect} /> : <p>You can close this page.</p>}
    </>
  );
}

const CLOSED_COPY: Record<ClosedState, { title: string; body: string }> = {
  expired: { title: "This application has expired", body: "It was not finished in time. Ask the company that sent you this link to start a new application." },
  withdrawn: { title: "This application was withdrawn", body: "It can no longer be completed. Ask the company that sent you this link if you would like to apply again." },
};

export function ClosedPage({ state }: { state: ClosedState }) {
  return (
    <>
      <h1>{CLOSED_COPY[state].title}</h1>
      <p className="lede">{CLOSED_COPY[state].body}</p>
    </>
  );
}

const STANDING: Partial<Record<JourneyStep, string>> = {
  waiting: "Your application has been submitted and is being decided.",
  offer: "Your application has been decided.",
  done: "Your application is complete and the loan has been accepted.",
};

/** A step asked for by its address that the application has not reached, or has left behind. */
export function ElsewherePage({ journey, reason, current }: { journey: Journey; reason: "not_reached" | "left"; current: JourneyStep }) {
  return (
    <>
      <h1>{reason === "not_reached" ? "Finish the earlier steps first" : "This step is finished"}</h1>
      <p className="lede">
        {reason === "not_reached" ? `Your application is at “${STEP_TITLES[current]}”.` : (STANDING[current] ?? `Your application is at “${STEP_TITLES[current]}”.`)}
      </p>
      <p>
        <a className={partStyles.button} href={`/apply/${journey.token}/${current}`}>
          Go to {STEP_TITLES[current]}
        </a>
      </p>
    </>
  );
}

export function NotFoundJourney() {
  return (
    <>
      <h1>This application link is not valid</h1>
      <p className="lede">Check that you opened the whole link you were sent. If it still does not work, ask the company that sent it for a new one.</p>
    </>
  );
}
