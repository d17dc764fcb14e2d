// The introduction's stages (spec 3.3, the moves ours: docs/beta.md, "Introductions") and the payout's statuses.
// An introduction follows its application: a decision that approves or refers makes it `decisioned`, one that
// declines, or the application expiring or being withdrawn, `declined`; funding makes it `funded`, which is final.
// A declined application that a later decision approves (a refreshed or released decision) is decisioned again.
import type { Lifecycle } from "../lifecycle";
import type { IntroductionStage, PayoutStatus } from "./schemas";

const INTRODUCTION_MOVES = {
  decide: { from: ["started", "declined"], to: "decisioned", events: [] },
  decline: { from: ["started", "decisioned"], to: "declined", events: [] },
  fund: { from: ["decisioned"], to: "funded", events: [] },
} as const;
export type IntroductionTrigger = keyof typeof INTRODUCTION_MOVES;

export const INTRODUCTION_LIFECYCLE: Lifecycle<IntroductionStage, IntroductionTrigger> = {
  object: "introduction",
  moves: INTRODUCTION_MOVES,
  said: { decide: "decisioned", decline: "declined", fund: "funded" },
};

export const PAYOUT_LIFECYCLE: Lifecycle<PayoutStatus, "pay"> = {
  object: "payout",
  moves: { pay: { from: ["pending"], to: "paid", events: ["payout.paid"] } },
  said: { pay: "paid" },
};
