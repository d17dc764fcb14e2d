// The application lifecycle (spec 3.1). The moves the spec leaves open are chosen in docs/applications.md's "The
// lifecycle": a decision can change while no offer is taken up, and a declined application can still be withdrawn
// (an expired one cannot). Rows move through lib/applications/transition.ts.
import type { Lifecycle } from "../lifecycle";
import type { ApplicationStatus } from "./schemas";

const DECIDABLE = ["in_review", "approved", "declined"] as const;

const MOVES = {
  submit: { from: ["created"], to: "submitted", events: ["application.submitted"] },
  expire: { from: ["created"], to: "expired", events: ["application.expired"] },
  withdraw: { from: ["created", "submitted", "in_review", "approved", "declined"], to: "withdrawn", events: ["application.withdrawn"] },
  start_review: { from: ["submitted"], to: "in_review", events: [] },
  approve: { from: DECIDABLE, to: "approved", events: ["decision.completed"] },
  decline: { from: DECIDABLE, to: "declined", events: ["decision.completed"] },
  refer: { from: DECIDABLE, to: "in_review", events: ["decision.completed", "decision.referred"] },
  fund: { from: ["approved"], to: "funded", events: ["offer.accepted", "application.funded"] },
} as const;
export type ApplicationTrigger = keyof typeof MOVES;

export const APPLICATION_LIFECYCLE: Lifecycle<ApplicationStatus, ApplicationTrigger> = {
  object: "application",
  moves: MOVES,
  said: { submit: "submitted", expire: "expired", withdraw: "withdrawn", start_review: "reviewed", approve: "approved", decline: "declined", refer: "referred", fund: "funded" },
};
