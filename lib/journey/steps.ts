// The hosted journey's steps (docs/hosted-journey.md) and which one an application is at. The step is never
// stored: it follows from the application's status and from what the applicant has done (the company
// confirmed, the loan given, an identity check run, the bank connected), so leaving and returning resumes where the applicant
// was, and no address can open a step the application has not reached.
import type { ApplicationStatus } from "../generated/prisma/client";

export const JOURNEY_STEPS = ["company", "loan", "about-you", "directors", "bank", "check-answers", "waiting", "offer", "done"] as const;
export type JourneyStep = (typeof JOURNEY_STEPS)[number];

/**
 * The steps an applicant fills in before submitting: each may be revisited while the application is `created`. The
 * last, "Check your answers", is the only one that submits: every answer with a Change link, then the consents.
 */
export const FORM_STEPS = ["company", "loan", "about-you", "directors", "bank", "check-answers"] as const satisfies readonly JourneyStep[];
export type FormStep = (typeof FORM_STEPS)[number];

export const STEP_TITLES: Record<JourneyStep, string> = {
  company: "Your company",
  loan: "Your loan",
  "about-you": "About you",
  directors: "Other directors",
  bank: "Your bank",
  "check-answers": "Check your answers",
  waiting: "We are deciding",
  offer: "Your offer",
  done: "Done",
};

export function isJourneyStep(value: string): value is JourneyStep {
  return (JOURNEY_STEPS as readonly string[]).includes(value);
}

export function isFormStep(step: JourneyStep): step is FormStep {
  return (FORM_STEPS as readonly string[]).includes(step);
}

/** What the journey knows has been done, beside the application's status. */
export interface JourneyProgress {
  status: ApplicationStatus;
  companyConfirmed: boolean;
  /** The loan's amount, term and purpose were given (a company confirmed before they had a page of their own counts). */
  loanGiven: boolean;
  /** The applicant's own answers are in (the people start with them). */
  applicantGiven: boolean;
  /** The people were checked: the directors' page was finished. */
  identityChecked: boolean;
  bankConnected: boolean;
}

/** Where the journey ended without a decision: the application can no longer be completed. */
export type ClosedState = "withdrawn" | "expired";

/** The step the application is at, or why it is closed. */
export function currentStep(progress: JourneyProgress): JourneyStep | ClosedState {
  switch (progress.status) {
    case "created":
      if (!progress.companyConfirmed) return "company";
      if (!progress.loanGiven) return "loan";
      if (!progress.applicantGiven) return "about-you";
      if (!progress.identityChecked) return "directors";
      if (!progress.bankConnected) return "bank";
      return "check-answers";
    case "submitted":
    case "in_review":
      return "waiting";
    case "approved":
    case "declined":
      return "offer";
    case "funded":
      return "done";
    case "withdrawn":
    case "expired":
      return progress.status;
  }
}

export type StepAccess = { open: true } | { open: false; current: JourneyStep | ClosedState; reason: "not_reached" | "left" };

/**
 * Whether `step` may be shown: the current step always; an earlier form step while the application is still
 * being filled in (to change an answer); nothing later, and no form step once the application was submitted.
 */
export function stepAccess(step: JourneyStep, progress: JourneyProgress): StepAccess {
  const current = currentStep(progress);
  if (step === current) return { open: true };
  if (current === "withdrawn" || current === "expired") return { open: false, current, reason: "left" };
  const reached = JOURNEY_STEPS.indexOf(current);
  const asked = JOURNEY_STEPS.indexOf(step);
  if (asked > reached) return { open: false, current, reason: "not_reached" };
  if (progress.status === "created" && isFormStep(step)) return { open: true };
  return { open: false, current, reason: "left" };
}
