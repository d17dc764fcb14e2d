// The pieces every step of the hosted journey is made of: the frame with its progress list, fields that show a
// refused answer's value and message, the error summary, and the form that carries the journey's form token.
import type { ReactNode } from "react";
import { DATE_PARTS, datePartField, type DatePart } from "@/lib/journey/date-of-birth";
import { stepAddress, type Journey } from "@/lib/journey/journey";
import { ErrorSummaryFocus } from "./error-summary-focus";
import styles from "./journey-parts.module.css";

/** The pieces' classes, for a step that lays out a field of its own (a consent's checkbox, a person's fieldset). */
export { styles as partStyles };
import { FORM_STEPS, STEP_TITLES, type ClosedState, type JourneyStep } from "@/lib/journey/steps";

/** Where the application has got to, so the progress list can mark what is done and link back to it. */
export interface JourneyPosition {
  token: string;
  reached: JourneyStep | ClosedState;
}

export function JourneyFrame({ step, position, children }: { step: JourneyStep | null; position?: JourneyPosition; children: ReactNode }) {
  const index = step ? (FORM_STEPS as readonly string[]).indexOf(step) : -1;
  // The form steps up to the one reached can all be opened while the application is being filled in.
  const reached = position ? (FORM_STEPS as readonly string[]).indexOf(position.reached) : -1;
  return (
    <div className={`branded-frame ${styles.frame}`}>
      <header className="branded-header">
        <p className="branded-name">Lending Platform</p>
        <p className="branded-tagline">Business finance application</p>
      </header>
      {index >= 0 ? (
        <nav aria-label="Application progress" className={styles.progress}>
          <p>
            Step {index + 1} of {FORM_STEPS.length}
          </p>
          <ol>
            {FORM_STEPS.map((formStep, at) => (
              <li key={formStep} aria-current={at === index ? "step" : undefined} className={at === index ? styles.current : at < reached ? styles.done : undefined}>
                {position && at !== index && at <= reached ? (
                  <a href={stepAddress(position.token, formStep)}>
                    {STEP_TITLES[formStep]}
                    {at < reached ? <span className="visually-hidden"> (done)</span> : null}
                  </a>
                ) : (
                  STEP_TITLES[formStep]
                )}
              </li>
            ))}
          </ol>
        </nav>
      ) : null}
      <main className={styles.main}>{children}</main>
      {index >= 0 ? (
        <footer className={styles.footer}>
          <p>Your answers are saved as you go: you can leave and come back to this link.</p>
        </footer>
      ) : null}
    </div>
  );
}

/** The values and messages of the step's last refused answer, if it was this step's. */
export function refusalFor(journey: Journey, step: string): { values: Record<string, string>; errors: Record<string, string> } {
  return journey.refusal?.step === step ? { values: journey.refusal.values, errors: journey.refusal.errors } : { values: {}, errors: {} };
}

/**
 * GOV.UK's error summary: "There is a problem", then each message once, in the order of the page's fields (`order`;
 * a message about the form as a whole first), each linking to its field. It takes focus when the page loads.
 */
export function ErrorSummary({ errors, order }: { errors: Record<string, string>; order: readonly string[] }) {
  const fields = Object.keys(errors);
  if (fields.length === 0) return null;
  const position = (field: string) => (field === "form" ? -1 : order.indexOf(field) === -1 ? order.length : order.indexOf(field));
  const sorted = [...fields].sort((left, right) => position(left) - position(right));
  return (
    <div className={styles.errorSummary} role="alert" aria-labelledby="error-summary-title" tabIndex={-1}>
      <h2 id="error-summary-title">There is a problem</h2>
      <ul>
        {sorted.map((field) => (
          <li key={field}>{field === "form" ? errors[field] : <a href={`#${field}`}>{errors[field]}</a>}</li>
        ))}
      </ul>
      <ErrorSummaryFocus />
    </div>
  );
}

interface FieldProps {
  name: string;
  label: string;
  hint?: string;
  error?: string;
  defaultValue?: string;
  type?: "text" | "email" | "date";
  autoComplete?: string;
  inputMode?: "numeric" | "decimal" | "text";
  required?: boolean;
  prefix?: string;
  /** A unit written after the field, such as "months". */
  suffix?: string;
  /** A short field for a short answer (a number of months). */
  width?: "short";
}

export function Field({ name, label, hint, error, defaultValue, type = "text", autoComplete, inputMode, required = true, prefix, suffix, width }: FieldProps) {
  const described = [hint ? `${name}-hint` : null, error ? `${name}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={error ? `${styles.field} ${styles.fieldError}` : styles.field}>
      <label htmlFor={name}>{label}</label>
      {hint ? (
        <p className={styles.hint} id={`${name}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className={styles.error} id={`${name}-error`}>
          {error}
        </p>
      ) : null}
      <div className={styles.inputRow}>
        {prefix ? (
          <span className={styles.prefix} aria-hidden="true">
            {prefix}
          </span>
        ) : null}
        <input
          id={name}
          name={name}
          type={type}
          defaultValue={defaultValue}
          autoComplete={autoComplete}
          inputMode={inputMode}
          required={required}
          className={width === "short" ? styles.inputShort : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
        />
        {suffix ? (
          <span className={styles.suffix} aria-hidden="true">
            {suffix}
          </span>
        ) : null}
      </div>
    </div>
  );
}

export function SelectField({ name, label, options, error, defaultValue }: { name: string; label: string; options: ReadonlyArray<readonly [string, string]>; error?: string; defaultValue?: string }) {
  return (
    <div className={error ? `${styles.field} ${styles.fieldError}` : styles.field}>
      <label htmlFor={name}>{label}</label>
      {error ? (
        <p className={styles.error} id={`${name}-error`}>
          {error}
        </p>
      ) : null}
      <select id={name} name={name} defaultValue={defaultValue ?? ""} required aria-invalid={error ? true : undefined} aria-describedby={error ? `${name}-error` : undefined}>
        <option value="" disabled>
          Choose…
        </option>
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A step's form: posted to the step's form handler with the journey's form token, and where to return once answered. */
export function StepForm({ journey, step, returnTo, inline, children }: { journey: Journey; step: string; returnTo?: string; inline?: boolean; children: ReactNode }) {
  return (
    <form method="post" action={`/apply/${journey.token}/${step}/form`} noValidate className={inline ? styles.inlineForm : undefined}>
      <input type="hidden" name="form_token" value={journey.journey.formToken} />
      {returnTo ? <input type="hidden" name="return" value={returnTo} /> : null}
      {children}
    </form>
  );
}

/** A form's button: Continue unless it says otherwise; `name` and `value` say which of a form's buttons was pressed. */
export function Continue({ children = "Continue", name, value, secondary }: { children?: ReactNode; name?: string; value?: string; secondary?: boolean }) {
  return (
    <button type="submit" name={name} value={value} className={secondary ? `${styles.button} ${styles.secondaryButton}` : styles.button}>
      {children}
    </button>
  );
}

const DATE_PART_LABELS: Record<DatePart, string> = { day: "Day", month: "Month", year: "Year" };
const DATE_PART_CLASSES = { day: "dateDay", month: "dateMonth", year: "dateYear" } as const satisfies Record<DatePart, string>;

/**
 * A date as GOV.UK asks for one: a fieldset whose legend is the question, and three text fields (Day, Month, Year)
 * with a numeric keyboard, never the browser's date picker. The message is the refused answer's; the fields it is
 * about are marked (the missing ones for "must include", otherwise all three).
 */
export function DateField({ name, legend, hint, errors, values, autoComplete }: { name: string; legend: string; hint: string; errors: Record<string, string>; values: Record<string, string>; autoComplete: boolean }) {
  const errorField = DATE_PARTS.map((part) => datePartField(name, part)).find((field) => errors[field]);
  const error = errorField ? errors[errorField] : undefined;
  const marked = (part: DatePart) => Boolean(error) && (!/must include a/.test(error!) || (values[datePartField(name, part)] ?? "").trim() === "" || errorField === datePartField(name, part));
  const described = [`${name}-hint`, error ? `${name}-error` : null].filter(Boolean).join(" ");
  return (
    <div className={error ? `${styles.field} ${styles.fieldError}` : styles.field}>
      <fieldset className={styles.date} aria-describedby={described}>
        <legend>{legend}</legend>
        <p className={styles.hint} id={`${name}-hint`}>
          {hint}
        </p>
        {error ? (
          <p className={styles.error} id={`${name}-error`}>
            {error}
          </p>
        ) : null}
        <div className={styles.dateParts}>
          {DATE_PARTS.map((part) => {
            const field = datePartField(name, part);
            return (
              <div key={part} className={`${styles.datePart} ${styles[DATE_PART_CLASSES[part]]}`}>
                <label htmlFor={field}>{DATE_PART_LABELS[part]}</label>
                <input
                  id={field}
                  name={field}
                  type="text"
                  inputMode="numeric"
                  autoComplete={autoComplete ? `bday-${part}` : "off"}
                  defaultValue={values[field] ?? ""}
                  className={marked(part) ? styles.inputError : undefined}
                  aria-invalid={marked(part) ? true : undefined}
                />
              </div>
            );
          })}
        </div>
      </fieldset>
    </div>
  );
}

/** A short list as GOV.UK asks it: radios in a fieldset whose legend is the question, each option's label in full. */
export function RadiosField({ name, legend, options, error, defaultValue }: { name: string; legend: string; options: ReadonlyArray<readonly [string, string]>; error?: string; defaultValue?: string }) {
  return (
    <div className={error ? `${styles.field} ${styles.fieldError}` : styles.field}>
      <fieldset className={styles.radios} aria-describedby={error ? `${name}-error` : undefined}>
        <legend>{legend}</legend>
        {error ? (
          <p className={styles.error} id={`${name}-error`}>
            {error}
          </p>
        ) : null}
        {options.map(([value, text], index) => {
          // The first option carries the field's own id, so the error summary's link lands on the list.
          const id = index === 0 ? name : `${name}-${value}`;
          return (
            <div key={value} className={styles.radio}>
              <input type="radio" id={id} name={name} value={value} defaultChecked={defaultValue === value} aria-invalid={error ? true : undefined} />
              <label htmlFor={id}>{text}</label>
            </div>
          );
        })}
      </fieldset>
    </div>
  );
}

export interface SummaryRow {
  key: string;
  value: string;
  /** The address of the question, with what to return to once it is answered. */
  change?: string;
  /** What the Change link changes, for a screen reader: "Change the amount". */
  changeLabel?: string;
  changeText?: string;
}

/** GOV.UK's summary list: each answer with its Change link, the link's purpose in full for a screen reader. */
export function SummaryList({ rows }: { rows: readonly SummaryRow[] }) {
  return (
    <dl className={styles.summaryList}>
      {rows.map((row) => (
        <div key={row.key} className={styles.summaryRow}>
          <dt>{row.key}</dt>
          <dd>{row.value}</dd>
          <dd className={styles.summaryActions}>
            {row.change ? (
              <a href={row.change}>
                {row.changeText ?? "Change"}
                <span className="visually-hidden"> {row.changeLabel}</span>
              </a>
            ) : null}
          </dd>
        </div>
      ))}
    </dl>
  );
}
