// The pieces every step of the hosted journey is made of: the frame with its progress list, fields that show a
// refused answer's value and message, the error summary, and the form that carries the journey's form token.
import type { ReactNode } from "react";
import { stepAddress, type Journey } from "@/lib/journey/journey";
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
    <div className="branded-frame journey">
      <header className="branded-header">
        <p className="branded-name">Lending Platform</p>
        <p className="branded-tagline">Business finance application</p>
      </header>
      {index >= 0 ? (
        <nav aria-label="Application progress" className="journey-progress">
          <p>
            Step {index + 1} of {FORM_STEPS.length}
          </p>
          <ol>
            {FORM_STEPS.map((formStep, at) => (
              <li key={formStep} aria-current={at === index ? "step" : undefined} className={at === index ? "current" : at < reached ? "done" : ""}>
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
      <main className="journey-main">{children}</main>
      {index >= 0 ? (
        <footer className="journey-footer">
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

export function ErrorSummary({ errors, labels }: { errors: Record<string, string>; labels: Record<string, string> }) {
  const entries = Object.entries(errors);
  if (entries.length === 0) return null;
  return (
    <div className="journey-error-summary" role="alert" aria-labelledby="error-summary-title" tabIndex={-1}>
      <h2 id="error-summary-title">There is a problem</h2>
      <ul>
        {entries.map(([field, message]) => (
          <li key={field}>{field === "form" ? message : <a href={`#${field}`}>{labels[field] ? `${labels[field]}: ${message}` : message}</a>}</li>
        ))}
      </ul>
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
  inputMode?: "numeric" | "text";
  required?: boolean;
  prefix?: string;
}

export function Field({ name, label, hint, error, defaultValue, type = "text", autoComplete, inputMode, required = true, prefix }: FieldProps) {
  const described = [hint ? `${name}-hint` : null, error ? `${name}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`journey-field${error ? " journey-field-error" : ""}`}>
      <label htmlFor={name}>{label}</label>
      {hint ? (
        <p className="journey-hint" id={`${name}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="journey-error" id={`${name}-error`}>
          {error}
        </p>
      ) : null}
      <div className="journey-input-row">
        {prefix ? (
          <span className="journey-prefix" aria-hidden="true">
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
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
        />
      </div>
    </div>
  );
}

export function SelectField({ name, label, options, error, defaultValue }: { name: string; label: string; options: ReadonlyArray<readonly [string, string]>; error?: string; defaultValue?: string }) {
  return (
    <div className={`journey-field${error ? " journey-field-error" : ""}`}>
      <label htmlFor={name}>{label}</label>
      {error ? (
        <p className="journey-error" id={`${name}-error`}>
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

/** A step's form: posted to the step's form handler with the journey's form token. */
export function StepForm({ journey, step, children }: { journey: Journey; step: string; children: ReactNode }) {
  return (
    <form method="post" action={`/apply/${journey.token}/${step}/form`} noValidate>
      <input type="hidden" name="form_token" value={journey.journey.formToken} />
      {children}
    </form>
  );
}

export function Continue({ children = "Continue" }: { children?: ReactNode }) {
  return (
    <button type="submit" className="journey-button">
      {children}
    </button>
  );
}
